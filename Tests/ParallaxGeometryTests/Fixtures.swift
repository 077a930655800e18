import Foundation

/// Paths to the project's own bundled data (present in every clone).
enum Fixtures {
    /// The repository root, found from this source file's location.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bundled EuRoC cut (`datasets/euroc_v1_01_cut`).
    static let eurocCut = repositoryRoot.appendingPathComponent("datasets/euroc_v1_01_cut")

    /// A file in the EuRoC cut's `mav0` folder.
    static func euroc(_ relative: String) -> String {
        eurocCut.appendingPathComponent("mav0").appendingPathComponent(relative).path
    }
}
