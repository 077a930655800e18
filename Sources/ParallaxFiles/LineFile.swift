import Foundation

/// A file written in whole lines: each ``append(_:)`` adds complete lines, and a write that fails
/// part way (disk full, a vanished folder) is cut back to the last whole line, so a reader never
/// finds half a line at the end (`events.jsonl`, pose files).
public final class LineFile {
    /// Where the lines go.
    public let path: String
    private let handle: FileHandle
    /// Bytes of whole lines written so far.
    private var size: UInt64 = 0

    /// Creates (or empties) `path`.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
    }

    /// Appends `lines` (complete lines, each ending in a newline); on failure the file is cut back
    /// to what it held before and the error is rethrown.
    public func append(_ lines: Data) throws {
        guard !lines.isEmpty else { return }
        do {
            try handle.write(contentsOf: lines)
            size += UInt64(lines.count)
        } catch {
            try? handle.truncate(atOffset: size)
            throw error
        }
    }

    /// Flushes to the disk and closes the file.
    public func close() throws {
        try handle.synchronize()
        try handle.close()
    }
}
