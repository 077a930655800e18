import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files Parallax wrote under names a user gave (`--mcap`, `--save-map`, `convert --to
/// video|mcap --out`, `results plot --out`), each remembered with its identity at the moment it
/// took its name: device, inode, size, and modification and status-change times (ns). A later
/// command replaces such a file only while it still has that identity (``remembers(_:)``), so a
/// rerun replaces its own output, and a user's file is never replaced: not one of the same name,
/// not a copy or an edit of a Parallax file, not a file another program derived from one (which
/// may carry every mark Parallax puts in its files). Any change to a file changes its
/// status-change time, which no user can set back.
///
/// The ledger is one text file, `written-files` in `$PARALLAX_STATE_DIR`, else
/// `$XDG_STATE_HOME/parallax`, else `~/.local/state/parallax`: a line per file (identity, a tab,
/// the canonical path), the newest ``capacity`` kept. It is rewritten whole (a temporary file
/// renamed over it) under an `flock` on `written-files.lock`, so concurrent commands never lose
/// each other's lines. Without a usable ledger nothing is remembered, and an existing file is
/// refused rather than replaced.
public enum OutputLedger {
    /// Files remembered at most (the oldest are forgotten first).
    public static let capacity = 4096

    /// The ledger file, or nil when no folder for it can be named.
    static var file: String? {
        let env = ProcessInfo.processInfo.environment
        let folder: String
        if let dir = env["PARALLAX_STATE_DIR"], !dir.isEmpty {
            folder = dir
        } else if let state = env["XDG_STATE_HOME"], !state.isEmpty {
            folder = (state as NSString).appendingPathComponent("parallax")
        } else {
            // $HOME, else the account's home from the password database.
            let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
            guard !home.isEmpty, home != "/" else { return nil }
            folder = (home as NSString).appendingPathComponent(".local/state/parallax")
        }
        return (folder as NSString).appendingPathComponent("written-files")
    }

    /// The identity of the file at `path` (not following a link), or nil when it is not a
    /// regular file.
    static func identity(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let mtime = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let ctime = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(mtime) \(ctime)"
    }

    /// Whether Parallax wrote the file at `path` and it has not changed since.
    public static func remembers(_ path: String) -> Bool {
        guard let file, let identity = identity(path), let lines = withLock(file, { read(file) }) else { return false }
        return lines.contains(identity + "\t" + OutputPath.canonical(path))
    }

    /// Remembers the file at `path`, which Parallax has just written and named. Returns false
    /// when the ledger could not be written (the file is then not replaced by a later command
    /// without the user's hand).
    @discardableResult
    public static func record(_ path: String) -> Bool {
        let recorded = write(path)
        if !recorded { unrecorded.insert(OutputPath.canonical(path)) }
        return recorded
    }

    /// The files named this process's since its start that the ledger could not remember
    /// (its folder not writable, say), taken once: the executable warns about them as it
    /// exits, since a later command will refuse to replace them.
    public static func takeUnrecorded() -> [String] { unrecorded.removeAll() }

    /// The paths ``record(_:)`` could not write.
    private static let unrecorded = UnrecordedPaths()

    /// Adds the line for `path`; false when the ledger cannot be written.
    private static func write(_ path: String) -> Bool {
        guard let file, let identity = identity(path) else { return false }
        let canonicalPath = OutputPath.canonical(path)
        let written: Bool? = withLock(file) {
            var lines = read(file).filter { !$0.hasSuffix("\t" + canonicalPath) }
            lines.append(identity + "\t" + canonicalPath)
            if lines.count > capacity { lines.removeFirst(lines.count - capacity) }
            let temporary = file + ".\(getpid()).new"
            do {
                try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: temporary))
                guard rename(temporary, file) == 0 else {
                    unlink(temporary)
                    return false
                }
                return true
            } catch {
                unlink(temporary)
                return false
            }
        }
        return written ?? false
    }

    /// The ledger's lines (none when it does not exist or cannot be read).
    private static func read(_ file: String) -> [String] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// `body` under an exclusive `flock` on the ledger's lock file (its folder made first); nil
    /// when the lock cannot be had.
    private static func withLock<T>(_ file: String, _ body: () -> T) -> T? {
        let folder = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let descriptor = open(file + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { return nil }
        defer { flock(descriptor, LOCK_UN) }
        return body()
    }
}

/// A thread-safe set of paths.
private final class UnrecordedPaths: @unchecked Sendable {
    private var paths: Set<String> = []
    private let lock = NSLock()
    func insert(_ path: String) { lock.lock(); paths.insert(path); lock.unlock() }
    func removeAll() -> [String] {
        lock.lock(); defer { lock.unlock() }
        let all = paths.sorted()
        paths = []
        return all
    }
}
