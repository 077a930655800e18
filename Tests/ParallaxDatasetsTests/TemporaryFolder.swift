import Foundation

/// Scratch folders for the reader tests.
enum TemporaryFolder {
    /// A new empty folder under the temporary directory, `parallax-<name>-<uuid>`.
    static func make(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
