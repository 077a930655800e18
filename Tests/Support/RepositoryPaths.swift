import Foundation

/// Where the tests find the repository's fixtures and the shared real data.
public enum RepositoryPaths {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Fixtures`.
    public static let fixtures = root.appendingPathComponent("Tests/Fixtures")
    /// The synthetic AFLW2000-3D folder (`image00001.mat` compressed, `image00002.mat` plain).
    public static let aflwSynthetic = fixtures.appendingPathComponent("aflw2000_synthetic")
    /// A path under `../shared/data` (present on the development machines and CI only).
    public static func sharedData(_ relative: String) -> URL {
        root.appendingPathComponent("../shared/data").appendingPathComponent(relative).standardized
    }
    /// Whether `../shared/data/<relative>` exists: the condition of `@Test(.enabled(if:))` for
    /// tests on the shared real data, which a user's clone does not have.
    public static func hasSharedData(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: sharedData(relative).path)
    }
}
