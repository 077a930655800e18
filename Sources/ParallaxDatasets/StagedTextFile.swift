import Foundation

/// A text file that a stream writer fills line by line: written to `<path>.partial` through a
/// buffer (whole lines, ``LineFile``), and moved to `path` by ``finish()``, so a file under its
/// final name is always complete.
public final class StagedTextFile {
    /// The final path.
    public let path: String
    private let file: LineFile
    private var buffer: String

    /// Starts `path.partial` with `header` (whole lines, or empty).
    public init(path: String, header: String = "") throws {
        self.path = path
        file = try LineFile(path: path + ".partial")
        buffer = header
    }

    /// Adds `lines` (complete lines, each ending in a newline), writing out every 64 KiB.
    public func append(_ lines: String) throws {
        buffer += lines
        if buffer.utf8.count > 1 << 16 { try flush() }
    }

    /// Writes what is buffered, closes the file and moves it into place; returns the final path.
    @discardableResult public func finish() throws -> String {
        try flush()
        try file.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        return path
    }

    private func flush() throws {
        try file.append(Data(buffer.utf8))
        buffer = ""
    }
}
