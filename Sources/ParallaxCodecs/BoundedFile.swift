import Foundation

/// A file read by offset, every read checked against its size first (lengths in a damaged file
/// can say anything) and serialized by a lock (a seek and a read must not interleave between
/// threads). What the bag readers share.
final class BoundedFile: @unchecked Sendable {
    let path: String
    let size: UInt64
    private let handle: FileHandle
    private let lock = NSLock()

    init(path: String) throws {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ROSBag1File.BagError(path: path, offset: nil, reason: "cannot be opened") }
        self.handle = handle
        size = (try? handle.seekToEnd()) ?? 0
    }

    deinit { try? handle.close() }

    /// `count` bytes at `offset`, or an error naming the file and offset (truncated, unreadable).
    func read(at offset: UInt64, count: Int) throws -> Data {
        guard count >= 0, offset <= size, UInt64(count) <= size - offset else {
            throw ROSBag1File.BagError(path: path, offset: offset, reason: "\(count) bytes asked for past the end of the file (\(size) bytes): truncated")
        }
        lock.lock()
        defer { lock.unlock() }
        do {
            try handle.seek(toOffset: offset)
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw ROSBag1File.BagError(path: path, offset: offset, reason: "the file ends early: truncated") }
            return data
        } catch let error as ROSBag1File.BagError {
            throw error
        } catch {
            throw ROSBag1File.BagError(path: path, offset: offset, reason: "cannot be read (\(error.localizedDescription))")
        }
    }
}
