import Foundation

/// A text file that a stream writer fills line by line: written to `<path>.partial` through a
/// buffer (whole lines, ``LineFile``), and renamed to `path` by ``finish()`` (``OutputPath``: one
/// atomic `rename(2)`, never onto a folder), so a file under its final name is always complete.
public final class StagedTextFile {
    /// The final path.
    public let path: String
    private let file: LineFile
    private var buffer: String

    /// Starts `path.partial` with `header` (whole lines, or empty): `name` says what the file
    /// is ("a pose list"); an existing file is replaced only when it starts with `header`
    /// (``OutputPath/FileKind/text(_:header:)``).
    public init(path: String, name: String, header: String) throws {
        self.path = path
        try OutputPath.checkFileTarget(path, option: nil, kind: .text(name, header: header))
        file = try LineFile(path: OutputPath.staged(path))
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
        try OutputPath.commit(OutputPath.staged(path), to: path)
        return path
    }

    private func flush() throws {
        try file.append(Data(buffer.utf8))
        buffer = ""
    }
}
