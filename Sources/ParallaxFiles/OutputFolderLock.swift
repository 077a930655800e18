import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The lock that gives one command at a time an output folder `NAME`: an exclusive `flock(2)`
/// on the sibling file `NAME.lock`, taken before `NAME.partial` is touched and held until the
/// command ends. A second command on the same `NAME` is refused at once (``OutputFolder/RefusedError``)
/// instead of removing the first one's staging folder. The kernel drops the lock with its
/// process, so a run killed with `kill -9` leaves at most a lock file that blocks nobody.
///
/// The lock file holds ``marker``; a `NAME.lock` with other contents, or empty and older than a
/// few seconds (``freshSeconds``), is not Parallax's and is refused, never used or removed. It is removed on ``release()`` only while locked and only if
/// the path still names the file that was locked (same device and inode), so a lock file another
/// command has since created is never removed; a command that finds the file it locked unlinked
/// (`NAME.lock` released by another in the meantime) takes the new one instead.
public final class OutputFolderLock: @unchecked Sendable {
    /// What a Parallax lock file holds (then the pid of its holder).
    public static let marker = "parallax output lock"

    /// How old an empty lock file may be and still be taken as one a command has just created (s).
    static let freshSeconds = 5.0

    /// The lock file.
    public let path: String
    private var descriptor: Int32
    private let mutex = NSLock()

    /// Takes the lock of the output folder `folder` (`folder.lock`), or throws
    /// ``OutputFolder/RefusedError`` naming the folder when another command holds it or the lock
    /// file cannot be used.
    public init(folder: String, option: String = "--out") throws {
        path = folder + ".lock"
        descriptor = -1
        for _ in 0..<20 {
            let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let code = errno
                let message = "\(option) '\(folder)': cannot create its lock file '\(path)': " + (code == EISDIR ? "it is a folder" : String(cString: strerror(code)))
                // A read-only or full file system is a failure (exit 1); a name that cannot be a file, bad input.
                // ENOENT with the folder there: the file system makes no files (/proc).
                var parent = stat()
                let parentExists = stat((path as NSString).deletingLastPathComponent, &parent) == 0 && (parent.st_mode & S_IFMT) == S_IFDIR
                if OutputFolder.UnwritableError.isEnvironmental(code) || (code == ENOENT && parentExists) {
                    throw OutputFolder.UnwritableError(description: message)
                }
                throw OutputFolder.RefusedError(description: message)
            }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let code = errno
                close(fd)
                if code == EWOULDBLOCK {
                    throw OutputFolder.RefusedError(description: "\(option) '\(folder)' is in use by another parallax command (it holds '\(path)'): "
                                                    + "wait for it to end, or choose another \(option)")
                }
                throw OutputFolder.RefusedError(description: "\(option) '\(folder)': cannot lock '\(path)': \(String(cString: strerror(code)))")
            }
            // The file locked must still be the one the path names (another command may have
            // released and removed it between open and flock).
            guard Self.sameFile(fd, path) else { close(fd); continue }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                throw OutputFolder.RefusedError(description: "\(option) '\(folder)': '\(path)' is not a regular file: remove it or choose another \(option)")
            }
            // An empty file is one a command has just created and not yet marked (it writes the
            // marker right after taking the lock), or a user's: one older than a few seconds is
            // the user's, and is refused like any other.
            if st.st_size == 0, Double(time(nil) - st.st_mtim.tv_sec) > Self.freshSeconds {
                close(fd)
                throw OutputFolder.RefusedError(description: "\(option) '\(folder)': '\(path)' exists, is empty and was not written by parallax "
                                                + "(a parallax lock file holds '\(Self.marker)'): remove it or choose another \(option)")
            }
            if st.st_size > 0 {
                var bytes = [UInt8](repeating: 0, count: Self.marker.utf8.count)
                let n = pread(fd, &bytes, bytes.count, 0)
                guard n == bytes.count, String(decoding: bytes, as: UTF8.self) == Self.marker else {
                    close(fd)
                    throw OutputFolder.RefusedError(description: "\(option) '\(folder)': '\(path)' exists and was not written by parallax: "
                                                    + "rename it or choose another \(option), so that no file of yours is replaced")
                }
            }
            let text = Array("\(Self.marker) \(getpid())\n".utf8)
            _ = ftruncate(fd, 0)
            _ = pwrite(fd, text, text.count, 0)
            descriptor = fd
            return
        }
        throw OutputFolder.RefusedError(description: "\(option) '\(folder)': its lock file '\(path)' keeps changing: another parallax command is starting on it")
    }

    deinit { release() }

    /// Removes the lock file (when it is still the one locked) and drops the lock. Idempotent.
    public func release() {
        mutex.lock()
        defer { mutex.unlock() }
        guard descriptor >= 0 else { return }
        if Self.sameFile(descriptor, path) { unlink(path) }
        close(descriptor)
        descriptor = -1
    }

    /// Whether the open file `fd` is the file `path` names now.
    private static func sameFile(_ fd: Int32, _ path: String) -> Bool {
        var a = stat(), b = stat()
        guard fstat(fd, &a) == 0, lstat(path, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}
