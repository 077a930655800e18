import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one output-path policy every Parallax writer follows (`--out`, `--mcap`, `--save-map`,
/// `convert --out`, bench case folders, the video writer, stream file writers):
///
/// - **Nothing Parallax did not create is removed.** A result file is written beside its target
///   (`NAME.partial`) and takes the target's name by one atomic `rename(2)` (``commit(_:to:)``):
///   an existing *file* of that name is replaced in one step (the user named it), a *folder* is
///   never replaced — `rename` onto a folder fails, and that failure is reported with the staged
///   file kept, nothing deleted.
/// - **A folder where a file is expected is refused up front** (``checkFileTarget(_:option:)``),
///   before any work, naming the option and the path (bad input: exit 2).
/// - **Names from data stay inside their folder.** A stream, topic, bench case or picture name
///   becomes a path component only through ``fileName(_:)`` (one escaping rule), and names
///   that cannot be one (``componentProblem(_:)``: empty, `.`, `..`, a `/`, a control
///   character) are refused where they are read. Names that escape to the same file name are
///   collisions, refused before work starts by whoever reads the names (``collisions(_:)``).
/// - **Extra outputs inside `--out`** (``OutputFolder/redirect(_:option:)``) are written into
///   the staging folder at the same relative path, so the commit carries them with the rest.
public enum OutputPath {
    /// Why a path cannot be written: bad input (exit 2), naming the option (when known) and the path.
    public struct RefusedError: Error, BadInput, CustomStringConvertible, Equatable, Sendable {
        /// The option that named the path (`--mcap`), or nil when a writer was called directly.
        public var option: String?
        public var path: String
        public var reason: String
        public init(option: String?, path: String, reason: String) {
            self.option = option
            self.path = path
            self.reason = reason
        }
        public var description: String { "\(option.map { "\($0) " } ?? "")'\(path)': \(reason)" }
    }

    /// Why a staged file could not take its name (a failed write: exit 1). The staged file is kept
    /// and named.
    public struct CommitError: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var staged: String
        public var reason: String
        public var description: String { "cannot move the finished file to '\(path)': \(reason); it is kept as '\(staged)'" }
    }

    /// A kind of file Parallax writes: what it is called in messages, and how a staged file of
    /// it is told (what its writer puts first). Whether a finished file may be replaced is not a
    /// matter of its contents, which a user's copy or another program's output can share, but of
    /// ``OutputLedger``: only a file Parallax wrote and that has not changed since.
    public struct FileKind: Sendable {
        /// What the file is, for messages: "an MCAP recording".
        public var name: String
        /// Whether the staged file at a path (`NAME.partial`, perhaps cut short by a kill) is one
        /// Parallax began: what its writer puts first is there.
        public var begun: @Sendable (String) -> Bool

        public init(name: String, begun: @escaping @Sendable (String) -> Bool) {
            self.name = name
            self.begun = begun
        }

        /// A text file Parallax starts with `header` (a staged one may still be empty: its
        /// header is written with the first lines).
        public static func text(_ name: String, header: String) -> FileKind {
            let bytes = Array(header.utf8)
            return FileKind(name: name, begun: { let h = OutputPath.head($0, count: bytes.count); return h.isEmpty || h == bytes })
        }
    }

    /// The staging name of a result file: `path.partial`.
    public static func staged(_ path: String) -> String { path + ".partial" }

    /// Refuses, before any work, a file target that cannot be written as a file of `kind`: empty,
    /// an existing folder (or a link to one), a symbolic link, a device or other special file, an
    /// existing file Parallax did not write or that changed since (``OutputLedger``: only a
    /// rerun's own output is replaced, never a file of the user's), a staging name
    /// (`path.partial`) that is a folder, a link, or a file Parallax did not begin
    /// (``FileKind/begun``), or a path whose folder does not exist.
    public static func checkFileTarget(_ path: String, option: String?, kind: FileKind) throws {
        guard !path.isEmpty else { throw RefusedError(option: option, path: path, reason: "is empty: name a file") }
        if isFolder(path) {
            throw RefusedError(option: option, path: path, reason: "is an existing folder: name a file (nothing was written, nothing removed)")
        }
        // rename(2) replaces a symbolic link itself, not what it points to: a user's link is
        // never turned into a file of ours.
        if isSymbolicLink(path) {
            throw RefusedError(option: option, path: path, reason: "is a symbolic link: name the file it points to, or another file (nothing was written)")
        }
        switch entry(path) {
        case .none: break
        case .regularFile:
            guard OutputLedger.remembers(path) else {
                throw RefusedError(option: option, path: path, reason: "exists, and is not \(kind.name) Parallax wrote there (or it changed since): "
                                   + "Parallax replaces only files it wrote; name another file, or move this one away (nothing was written)")
            }
        case .other:
            throw RefusedError(option: option, path: path, reason: "exists and is not a regular file (a device, pipe or socket): name a file (nothing was written)")
        }
        let staging = staged(path)
        if isFolder(staging) {
            throw RefusedError(option: option, path: path, reason: "its staging name '\(staging)' is an existing folder: name another file")
        }
        if isSymbolicLink(staging) {
            throw RefusedError(option: option, path: path, reason: "its staging name '\(staging)' is a symbolic link: move it away or name another file")
        }
        switch entry(staging) {
        case .none: break
        case .regularFile:
            guard kind.begun(staging) else {
                throw RefusedError(option: option, path: path, reason: "its staging name '\(staging)' exists and is not \(kind.name) Parallax began: "
                                   + "move it away or name another file (nothing was written)")
            }
        case .other:
            throw RefusedError(option: option, path: path, reason: "its staging name '\(staging)' exists and is not a regular file: move it away or name another file")
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard isFolder(parent) else {
            throw RefusedError(option: option, path: path, reason: "its folder '\(parent)' does not exist")
        }
    }

    /// Refuses a file target that is one of the command's `inputs` or lies inside one (the
    /// dataset being read), or lies inside the finished output folder of another command (a
    /// folder holding ``OutputFolder/markerName``, other than `ownFolder`): replacing a file of
    /// either would change data the file did not come from.
    public static func checkOutsideInputs(_ path: String, option: String?, inputs: [String], ownFolder: String? = nil) throws {
        for input in inputs where !input.isEmpty && relative(path, inside: input) != nil {
            throw RefusedError(option: option, path: path, reason: "is \(canonical(path) == canonical(input) ? "" : "inside ")the input '\(input)': name a file elsewhere (nothing was written)")
        }
        if let folder = outputFolder(holding: path), folder != ownFolder.map(canonical) {
            throw RefusedError(option: option, path: path, reason: "is inside '\(folder)', the output folder of another parallax command, "
                               + "whose results it would change: name a file elsewhere (nothing was written)")
        }
    }

    /// The output folder (or staging folder) `path` lies in: the nearest parent holding
    /// ``OutputFolder/markerName``; nil when there is none.
    public static func outputFolder(holding path: String) -> String? {
        var folder = URL(fileURLWithPath: canonical(path)).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(OutputFolder.markerName).path) { return folder.path }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    private enum Entry { case none, regularFile, other }

    /// What is at `path`, not following a link.
    private static func entry(_ path: String) -> Entry {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .none }
        return (info.st_mode & S_IFMT) == S_IFREG ? .regularFile : .other
    }

    /// Up to `count` first bytes of the file at `path` (fewer when it is shorter; none when it
    /// cannot be read).
    public static func head(_ path: String, count: Int) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
    }

    /// Gives the staged file `staged` the name `path` by `rename(2)`: atomic, replacing an existing
    /// file of that name, never a folder, and remembers it as Parallax's (``OutputLedger``). On
    /// failure nothing is removed: the staged file stays and the error names it.
    public static func commit(_ staged: String, to path: String) throws {
        guard rename(staged, path) == 0 else {
            let code = errno
            let reason = code == EISDIR || code == ENOTEMPTY || code == EEXIST
                ? "it is an existing folder (it is never replaced)" : String(cString: strerror(code))
            throw CommitError(path: path, staged: staged, reason: reason)
        }
        // A file inside an output folder goes with its folder (whose marker lists it); one the
        // user named on its own is remembered.
        if outputFolder(holding: path) == nil { OutputLedger.record(path) }
    }

    /// Whether `path` itself is a symbolic link (not followed).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether `path` is a folder (following links).
    public static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Why `name` cannot be one path component as it is (nil when it can): empty, `.` or `..`,
    /// holding a `/`, a NUL or another control character, or longer than 200 bytes.
    public static func componentProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name == "." || name == ".." { return "is '\(name)', which names a folder, not a name of its own" }
        if name.contains("/") { return "holds a '/'" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "holds a control character" }
        if name.utf8.count > 200 { return "is longer than 200 bytes" }
        return nil
    }

    /// Refuses a data name used as a relative path inside an output folder (a stream `cam0` or
    /// `cam0/tracks` becomes `cam0/…`): each `/`-separated part must pass ``componentProblem(_:)``.
    /// `kind` names what the name is (`stream`), for the message.
    public static func checkRelativeName(_ name: String, kind: String) throws {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            if let problem = componentProblem(part) {
                throw RefusedError(option: kind, path: name, reason: "cannot name a file or folder inside the output: the part '\(part)' \(problem)")
            }
        }
    }

    /// The one rule that makes a data name (stream part, bench case, picture) a file name that
    /// stays in its folder: letters, digits, `-`, `_` and `.` are kept, anything else becomes
    /// `_`; an empty name, `.` and `..` become `_`.
    public static func fileName(_ name: String) -> String {
        let kept = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        return kept.isEmpty || kept == "." || kept == ".." ? "_" : kept
    }

    /// A `/`-separated data name (a stream `vio/pose`) as a relative path: each part made a file
    /// name by ``fileName(_:)``, so the path stays inside its folder.
    public static func relativePath(_ name: String) -> String {
        name.split(separator: "/", omittingEmptySubsequences: false).map { fileName(String($0)) }.joined(separator: "/")
    }

    /// Groups of `names` that ``fileName(_:)`` turns into the same file name, each group in the
    /// order given; the groups in the order their first member appears.
    public static func collisions(_ names: [String]) -> [[String]] {
        var byFile: [String: [String]] = [:]
        var order: [String] = []
        for name in names {
            let file = fileName(name)
            if byFile[file] == nil { order.append(file) }
            byFile[file, default: []].append(name)
        }
        return order.compactMap { byFile[$0].flatMap { $0.count > 1 ? $0 : nil } }
    }

    /// `path` made absolute with `.`/`..` resolved and the links of its longest existing
    /// ancestor resolved, so two spellings of one place compare equal.
    public static func canonical(_ path: String) -> String {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            rest.insert(url.lastPathComponent, at: 0)
            url.deleteLastPathComponent()
        }
        var resolved = url.resolvingSymlinksInPath()
        for part in rest { resolved.appendPathComponent(part) }
        return resolved.standardizedFileURL.path
    }

    /// The path of `path` relative to `folder` when it lies inside it ("" when it is `folder`
    /// itself), nil otherwise; both canonical.
    public static func relative(_ path: String, inside folder: String) -> String? {
        let p = canonical(path), f = canonical(folder)
        if p == f { return "" }
        let prefix = f.hasSuffix("/") ? f : f + "/"
        return p.hasPrefix(prefix) ? String(p.dropFirst(prefix.count)) : nil
    }
}
