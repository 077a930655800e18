import Foundation

/// Scratch folders for tests that read and write files.
public enum TemporaryFolder {
    /// A new empty folder under the temporary directory, `parallax-<name>-<uuid>`.
    public static func make(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
