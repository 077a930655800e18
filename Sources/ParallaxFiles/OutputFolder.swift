import CFileSystem
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A command's output folder (`--out NAME`), finished atomically: everything is written into the
/// staging sibling `NAME.partial` and moved to `NAME` by ``commit()`` only when the command
/// succeeds. So `NAME` always holds one complete result set: a failed or interrupted run leaves
/// its partial results in `NAME.partial` and never replaces a previous good `NAME`.
///
/// Only folders Parallax wrote (they hold ``markerName``) or empty ones are replaced; any other
/// existing, non-empty `NAME` is refused before anything runs, so a typo in `--out` cannot delete
/// a user's files. The marker lists every file and folder the command left (``manifestLine``
/// and after): a folder that has since gained anything else (a user's notes put beside the
/// results) is refused too, before the run and again at the commit, never emptied. Nothing is written outside `NAME`, `NAME.partial`, the lock file `NAME.lock`
/// and, on file systems that cannot exchange two names atomically, for the instant of the swap,
/// `NAME.replaced-PID`.
///
/// One command at a time: ``OutputFolderLock`` (`flock` on `NAME.lock`, taken before
/// `NAME.partial` is touched) refuses a second concurrent command on the same `NAME`. Extra
/// outputs named inside `NAME` (`--mcap`, `--save-map`) go into the staging folder at the same
/// relative path (``redirect(_:option:kind:reserved:)``), so the commit carries them instead of
/// replacing them (``OutputPath`` is the policy for every writer).
public struct OutputFolder: Sendable {
    /// The marker file every output folder holds: what wrote it.
    public static let markerName = ".parallax-output"

    /// Where the results end up.
    public let final: URL
    /// Where they are written until ``commit()``.
    public let staging: URL
    /// Held from ``init(path:command:)`` until the commit (or until the command ends).
    private let lock: OutputFolderLock

    /// Why an output folder cannot be used (bad input: exit 2).
    public struct RefusedError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Why an output folder could not be made where it is named: the file system refused (read
    /// only, full, no permission) rather than the name being unusable. A failed command: exit 1,
    /// as for any file that cannot be written.
    public struct UnwritableError: Error, CustomStringConvertible {
        public let description: String

        /// Whether the system error `code` (errno) is the file system's refusal rather than the name's fault.
        public static func isEnvironmental(_ code: Int32) -> Bool {
            [EROFS, ENOSPC, EDQUOT, EIO, EACCES, EPERM].contains(code)
        }

        /// The POSIX code underneath a Foundation file error, if any.
        public static func posixCode(of error: any Error) -> Int32? {
            let ns = error as NSError
            if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain { return Int32(underlying.code) }
            if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
            // Foundation's own codes for the same refusals (out of space or inodes, read-only, no permission).
            guard ns.domain == NSCocoaErrorDomain else { return nil }
            switch ns.code {
            case CocoaError.fileWriteOutOfSpace.rawValue: return ENOSPC
            case CocoaError.fileWriteVolumeReadOnly.rawValue: return EROFS
            case CocoaError.fileWriteNoPermission.rawValue: return EACCES
            default: return nil
            }
        }
    }

    /// Why finished results could not be moved into place (a failed run: exit 1); they stay in
    /// the staging folder, which the message names.
    public struct CommitError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Prepares `path` for `command` (recorded in the marker): refuses a path Parallax must not
    /// replace (one that is or holds one of the command's `inputs`, say), and creates a fresh, empty staging folder (a stale one from an earlier failed run
    /// is removed).
    public init(path: String, command: String, inputs: [String] = []) throws {
        guard !path.isEmpty else { throw RefusedError(description: "--out is empty: name an output folder") }
        final = URL(fileURLWithPath: path).standardizedFileURL
        staging = URL(fileURLWithPath: final.path + ".partial")
        // The commit replaces the folder: an input inside it (the dataset being read) would go
        // with it.
        for input in inputs where !input.isEmpty {
            for folder in [final.path, staging.path] where OutputPath.relative(input, inside: folder) != nil {
                throw RefusedError(description: "--out '\(path)' holds the input '\(input)', which the results would replace: name another output folder")
            }
        }
        // Nor into the data read, nor into another command's results (its next run would refuse
        // them, or its commit adopt them), as for single files (OutputPath.checkOutsideInputs).
        for input in inputs where !input.isEmpty && OutputPath.relative(final.path, inside: input) != nil {
            throw RefusedError(description: "--out '\(path)' is inside the input '\(input)': the results would be written into the data; name a folder elsewhere")
        }
        if let folder = OutputPath.outputFolder(holding: final.path) {
            throw RefusedError(description: "--out '\(path)' is inside '\(folder)', the output folder of another parallax command, "
                               + "whose results it would change: name a folder elsewhere")
        }
        // Another output's staging folder, lock file or moved-aside folder: a command there would
        // remove or replace what that output's command is writing.
        let last = final.lastPathComponent
        if last.hasSuffix(".partial") || last.hasSuffix(".lock") || last.contains(/\.replaced-[0-9]+(-[0-9]+)?$/) {
            throw RefusedError(description: "--out '\(path)' names the staging folder, lock file or set-aside copy of another output folder: name a folder of its own")
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let target = final.path
        guard target != "/", !(cwd == target || cwd.hasPrefix(target.hasSuffix("/") ? target : target + "/")) else {
            throw RefusedError(description: "--out '\(path)' is the working folder or one of its parents: name a folder of its own")
        }
        // The commit moves the old folder aside and the new one into place: a symbolic link of
        // the user's would be replaced by a folder, so it is refused.
        if OutputPath.isSymbolicLink(final.path) {
            throw RefusedError(description: "--out '\(path)' is a symbolic link: name the folder it points to (nothing was written)")
        }
        try Self.checkReplaceable(final, path: path)
        // Locked before the staging folder is looked at: a second command on the same --out must
        // not remove the first one's staging folder. (Its parent folders are made first, as the
        // staging folder's would be; a failure is the lock's error, naming the path.)
        if let code = Self.makeFolders(final.deletingLastPathComponent().path), UnwritableError.isEnvironmental(code) {
            throw UnwritableError(description: "--out '\(path)': cannot create its folder '\(final.deletingLastPathComponent().path)': \(String(cString: strerror(code)))")
        }
        lock = try OutputFolderLock(folder: final.path)
        try Self.checkReplaceable(final, path: path)
        try Self.checkReplaceable(staging, path: staging.path)
        // The staging folder is removed and made again: a user's symbolic link there is not ours to remove.
        if OutputPath.isSymbolicLink(staging.path) {
            throw RefusedError(description: "'\(staging.path)' is a symbolic link, not a folder this command made: move it away (nothing was written)")
        }
        let fm = FileManager.default
        do {
            if fm.fileExists(atPath: staging.path) { try fm.removeItem(at: staging) }
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            try Data("\(command)\n".utf8).write(to: staging.appendingPathComponent(Self.markerName))
            // Listed from the start, then every second while the command runs (UnfinishedFolders).
            try? Self.writeManifest(of: staging, heading: Self.progressLine)
            Self.unfinished.insert(staging.path)
        } catch {
            let message = "cannot create the output folder '\(staging.path)': \(Self.reason(error))"
            if let code = UnwritableError.posixCode(of: error), UnwritableError.isEnvironmental(code) { throw UnwritableError(description: message) }
            throw RefusedError(description: message)
        }
    }

    /// Moves the staged results to ``final``, replacing what was there (the previous folder is
    /// removed only once the new one is in place).
    public func commit() throws {
        let fm = FileManager.default
        Self.unfinished.remove(staging.path)
        do {
            try Self.writeManifest(of: staging)
        } catch {
            throw CommitError(description: "cannot list the results in '\(staging.path)': \(Self.reason(error)); they are there")
        }
        var old: URL?
        if fm.fileExists(atPath: final.path) {
            // Checked again: what is replaced must still be a folder Parallax wrote.
            do { try Self.checkReplaceable(final, path: final.path) } catch {
                throw CommitError(description: "\(error); the results are in '\(staging.path)'")
            }
            // One atomic swap where the file system can (ext4, xfs, btrfs, tmpfs): `NAME` is
            // never missing, even under `kill -9`; the previous results, now in `NAME.partial`,
            // are removed after (a kill there leaves them as a stale staging folder the next
            // command removes).
            if !OutputPath.isSymbolicLink(final.path), parallax_exchange_paths(staging.path, final.path) == 0 {
                Self.removeFolderMarkerLast(staging)
                lock.release()
                return
            }
            // Elsewhere (NFS, some FUSE file systems): set aside, move in, remove; a kill between
            // the two moves leaves `NAME.replaced-PID` holding the previous results.
            // A name nothing has: an existing one (whoever made it) is never removed.
            var aside = URL(fileURLWithPath: final.path + ".replaced-\(getpid())")
            var k = 1
            while fm.fileExists(atPath: aside.path) || (try? fm.destinationOfSymbolicLink(atPath: aside.path)) != nil {
                aside = URL(fileURLWithPath: final.path + ".replaced-\(getpid())-\(k)")
                k += 1
            }
            do { try fm.moveItem(at: final, to: aside) } catch {
                throw CommitError(description: "cannot replace '\(final.path)': \(Self.reason(error)); the results are in '\(staging.path)'")
            }
            old = aside
        }
        do {
            try fm.moveItem(at: staging, to: final)
        } catch {
            if let old { try? fm.moveItem(at: old, to: final) }
            throw CommitError(description: "cannot move the results to '\(final.path)': \(Self.reason(error)); they are in '\(staging.path)'")
        }
        if let old { Self.removeFolderMarkerLast(old) }
        lock.release()
    }

    /// Removes the previous results, set aside in `folder` by the commit: only what its marker
    /// lists (a file put there since the commit's check is kept, and the folder with it, which
    /// the next command then refuses naming that file), the marker last: a removal cut short (a
    /// kill) leaves a folder that still holds its marker, or an empty one, which the next command
    /// may replace, never a marker-less folder it would have to refuse. A folder whose marker
    /// lists nothing (written before the list existed) is removed whole, as the commit's check allowed.
    static func removeFolderMarkerLast(_ folder: URL) {
        let fm = FileManager.default
        let marker = folder.appendingPathComponent(markerName)
        let lines = ((try? String(contentsOf: marker, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: manifestLine) else {
            for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] where name != markerName {
                try? fm.removeItem(at: folder.appendingPathComponent(name))
            }
            try? fm.removeItem(at: marker)
            _ = rmdir(folder.path)
            return
        }
        let listed = Set(lines[(start + 1)...].filter { !$0.isEmpty }.map { Array($0.utf8) })
        let found = (try? entries(of: folder)) ?? []
        // Files first, then folders deepest first (rmdir: only when nothing unlisted is inside).
        for entry in found where !entry.hasSuffix("/") && listed.contains(Array(entry.utf8)) {
            _ = unlink(folder.appendingPathComponent(entry).path)
        }
        for entry in found.reversed() where entry.hasSuffix("/") && listed.contains(Array(entry.utf8)) {
            _ = rmdir(folder.appendingPathComponent(entry).path)
        }
        guard ((try? entries(of: folder)) ?? []) == [markerName] else { return }
        _ = unlink(marker.path)
        _ = rmdir(folder.path)
    }

    /// Where an extra output named `path` by `option` (`--mcap`, `--save-map`) is written, checked
    /// up front as a file of `kind` (``OutputPath/checkFileTarget(_:option:kind:)``): a path inside ``final`` goes to the
    /// same relative path inside ``staging`` (its folders created), so the commit carries it with
    /// the command's results rather than replacing it; any other path is returned as it is. Refused
    /// (``OutputPath/RefusedError``): the folder itself, its staging folder or lock file, anything
    /// inside the staging folder, and the command's own files (`reserved`, relative to the folder).
    public func redirect(_ path: String, option: String, kind: OutputPath.FileKind, reserved: [String] = []) throws -> String {
        let refuse = { (reason: String) in OutputPath.RefusedError(option: option, path: path, reason: reason) }
        guard let inside = try Self.checkExtraOutput(path, out: final.path, option: option, kind: kind, reserved: reserved) else { return path }
        let target = staging.appendingPathComponent(inside)
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw refuse("cannot create its folder inside '\(staging.path)': \(Self.reason(error))")
        }
        try OutputPath.checkFileTarget(target.path, option: option, kind: kind)
        return target.path
    }

    /// The checks of ``redirect(_:option:kind:reserved:)`` that need no staging folder, for a command
    /// to make before it creates one: the path relative to `out` when it lies inside it, nil when
    /// it lies elsewhere (and is a usable file target).
    @discardableResult
    public static func checkExtraOutput(_ path: String, out: String, option: String, kind: OutputPath.FileKind, reserved: [String] = []) throws -> String? {
        let refuse = { (reason: String) in OutputPath.RefusedError(option: option, path: path, reason: reason) }
        if OutputPath.relative(path, inside: out + ".partial") != nil || OutputPath.canonical(path) == OutputPath.canonical(out + ".lock") {
            throw refuse("is the staging folder or lock file of --out '\(out)': name a file inside '\(out)' or elsewhere")
        }
        guard let inside = OutputPath.relative(path, inside: out) else {
            try OutputPath.checkFileTarget(path, option: option, kind: kind)
            return nil
        }
        guard !inside.isEmpty else { throw refuse("is the --out folder itself: name a file") }
        guard !(reserved + [markerName]).contains(inside) else {
            throw refuse("is one of the files the command writes into --out ('\(inside)'): name another file")
        }
        // Nor inside one of them (`OUT/run.json/x.mcap` would make a folder where the file goes).
        let parts = inside.split(separator: "/").map(String.init)
        if let file = (1..<max(parts.count, 1)).lazy.map({ parts[..<$0].joined(separator: "/") }).first(where: { (reserved + [markerName]).contains($0) }) {
            throw refuse("lies inside '\(file)', one of the files the command writes into --out: name another file")
        }
        return inside
    }

    /// A folder may be replaced when it does not exist, is empty, or holds the marker.
    static func checkReplaceable(_ url: URL, path: String, killMargin: Double = killMargin) throws {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            throw RefusedError(description: "'\(path)' exists and is not a folder: name another output folder")
        }
        let contents = (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
        if contents.isEmpty { return }
        // The marker names the command that wrote the folder (an empty file of that name, or a
        // folder with only a run.json, is not taken as Parallax's: a user's run.json beside their
        // thesis made the folder replaceable before).
        guard contents.contains(markerName), let marker = try? String(contentsOf: url.appendingPathComponent(markerName), encoding: .utf8),
              let command = marker.split(separator: "\n", omittingEmptySubsequences: false).first, !command.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RefusedError(description: "'\(path)' is not empty and was not written by parallax (no \(markerName) naming the command that wrote it): "
                               + "name a new or empty output folder, so that no file of yours is replaced")
        }
        // A marker with a manifest (every finished folder's since it was introduced): anything
        // not in it was put there by someone else and would be removed with the folder.
        let lines = marker.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: manifestLine) ?? lines.firstIndex(of: progressLine) else { return }
        // Compared byte for byte: Swift's String equality is Unicode-canonical, and a user's
        // `é` spelled as e + U+0301 is another file than the listed `é`.
        let written = Set(lines[(start + 1)...].filter { !$0.isEmpty }.map { Array($0.utf8) })
        var foreign: [String]
        do { foreign = try entries(of: url).filter { Array($0.utf8) != Array(markerName.utf8) && !written.contains(Array($0.utf8)) } } catch {
            throw RefusedError(description: "'\(path)': cannot list what it holds (\(reason(error))), so it is not replaced")
        }
        // A list written while the command ran (it was killed): a file missing from it is the
        // command's when it appeared within ``killMargin`` of the list's last writing (rewritten
        // every second, every 0.1 s at first) beside listed files of its kind (a stream's next
        // PNG); a folder, a link, a later file or a file unlike its listed neighbours (a user's
        // notes) is not. A list still empty (killed in its first moments): all that appeared
        // within the margin is the command's.
        var killed = false
        if lines[start] == progressLine, let listedAt = changeTime(url.appendingPathComponent(markerName).path) {
            killed = true
            let listedNames = lines[(start + 1)...].filter { !$0.isEmpty }
            func parent(_ entry: String) -> String { (entry as NSString).deletingLastPathComponent }
            func kind(_ entry: String) -> String { (entry as NSString).pathExtension }
            foreign = foreign.filter { entry in
                guard !entry.hasSuffix(" (a symbolic link)"),
                      let changed = changeTime(url.appendingPathComponent(entry).path), changed <= listedAt + killMargin else { return true }
                if listedNames.isEmpty { return false }
                guard !entry.hasSuffix("/"), !kind(entry).isEmpty,
                      parent(entry).isEmpty || written.contains(Array((parent(entry) + "/").utf8)) else { return true }
                return !listedNames.contains { !$0.hasSuffix("/") && parent($0) == parent(entry) && kind($0) == kind(entry) }
            }
        }
        if !foreign.isEmpty {
            let shown = foreign.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (foreign.count > 3 ? " and \(foreign.count - 3) more" : "")
            if killed {
                throw RefusedError(description: "'\(path)', left by a parallax command that was killed, holds \(shown), which its list (kept while it ran) "
                                   + "does not name: if \(foreign.count == 1 ? "it is" : "they are") yours, move \(foreign.count == 1 ? "it" : "them") out of the folder; "
                                   + "if not, remove '\(path)' yourself (nothing was removed)")
            }
            throw RefusedError(description: "'\(path)' holds \(shown), which parallax did not write there: move \(foreign.count == 1 ? "it" : "them") "
                               + "out of the folder or name another output folder, so that no file of yours is removed")
        }
    }

    /// Lists what the staging folder holds in its marker, as ``commit()`` does for a finished
    /// folder, when the command ends without one (a failure, a signal): the next command on the
    /// same `--out` then removes the stale `NAME.partial` only if nothing else was put there
    /// since (a user's notes beside the partial results are refused, never removed). Best effort
    /// and idempotent; a folder already committed is left alone.
    public func keepUnfinished() {
        guard Self.unfinished.remove(staging.path) else { return }
        try? Self.writeManifest(of: staging)
    }

    /// ``keepUnfinished()`` for every output folder of this process not committed yet: the
    /// executable calls it as it exits (failures and signals end there; `kill -9` leaves the
    /// list written while the command ran, ``progressLine``).
    public static func keepAllUnfinished() {
        for path in unfinished.removeAll() { try? writeManifest(of: URL(fileURLWithPath: path)) }
    }

    /// The staging folders this process made and has not committed (listed every second).
    private static let unfinished = UnfinishedFolders()

    /// Rewrites the marker of `folder` as its command line, `heading` (``manifestLine`` for a
    /// finished list, ``progressLine`` for one written while the command runs) and every entry;
    /// written beside it and renamed over it, so a kill never leaves half a marker.
    static func writeManifest(of folder: URL, heading: String = manifestLine) throws {
        let temporary = markerName + ".new"
        let entries = try Self.entries(of: folder).filter { $0 != markerName && $0 != temporary }
        let marker = folder.appendingPathComponent(markerName)
        let command = (try? String(contentsOf: marker, encoding: .utf8)).map { $0.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? "" } ?? ""
        let next = folder.appendingPathComponent(temporary)
        try Data((([command, heading] + entries).joined(separator: "\n") + "\n").utf8).write(to: next)
        guard rename(next.path, marker.path) == 0 else {
            let code = errno
            unlink(next.path)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// The marker line after which a running command lists what its staging folder holds so
    /// far, rewritten every second (``UnfinishedFolders``): what a `kill -9` leaves is then
    /// judged by it, and a file put there after the kill is refused, not removed.
    public static let progressLine = "# written here so far (listed every second while the command ran):"

    /// How long after a so-far list's last writing an unlisted file may have appeared and still
    /// count as the killed command's (s): it rewrote the list every second.
    static let killMargin: Double = 3

    /// The status-change time of `path` (s since the epoch, not following a link).
    static func changeTime(_ path: String) -> Double? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
    }

    /// The marker line after which the files and folders of a finished output folder are listed,
    /// one relative path per line (folders end in `/`).
    public static let manifestLine = "# written here (checked before this folder is replaced):"

    /// Every file and folder under `folder`, relative, sorted; folders end in `/`. Links are
    /// listed as `name (a symbolic link)`, never followed.
    static func entries(of folder: URL) throws -> [String] {
        var found: [String] = []
        func walk(_ url: URL, _ prefix: String) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                var info = stat()
                let child = url.appendingPathComponent(name)
                let kind = lstat(child.path, &info) == 0 ? info.st_mode & S_IFMT : 0
                if kind == S_IFDIR {
                    found.append(prefix + name + "/")
                    try walk(child, prefix + name + "/")
                } else if kind == S_IFLNK {
                    // Parallax writes no links: one is never a listed file, whatever its name.
                    found.append(prefix + name + " (a symbolic link)")
                } else {
                    found.append(prefix + name)
                }
            }
        }
        try walk(folder, "")
        return found.sorted()
    }

    /// Makes `path` and its missing parents (`mkdir -p`); the errno of the first failure, nil
    /// when the folder is there.
    static func makeFolders(_ path: String) -> Int32? {
        var info = stat()
        if stat(path, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, let code = makeFolders(parent) { return code }
        return mkdir(path, 0o755) == 0 || errno == EEXIST ? nil : errno
    }

    /// The system's reason, without Foundation's wrapping ("The operation could not be completed").
    public static func reason(_ error: any Error) -> String {
        if let code = UnwritableError.posixCode(of: error) { return String(cString: strerror(code)) }
        let ns = error as NSError
        return ns.localizedDescription.replacingOccurrences(of: "The operation could not be completed. ", with: "")
    }
}
