import Foundation
import Testing
import ParallaxFiles

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

    /// A calibration file of `Tests/Fixtures/calibration` (EuRoC's sensors written as Kalibr and
    /// ROS files).
    static func calibration(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("Tests/Fixtures/calibration").appendingPathComponent(name).path
    }

    /// The error `parse` throws, as a located YAML error (an issue when it throws none or another).
    static func yamlError(_ parse: () throws -> Void) -> YAMLDecodingError? {
        do { try parse(); Issue.record("accepted"); return nil } catch let e as YAMLDecodingError { return e } catch { Issue.record("\(error)"); return nil }
    }
}
