import Foundation
import Parallax
import ParallaxApp
import TestSupport
import Testing

/// What the results database records of a case.
@Suite struct BenchRecordingTests {
    /// The same chain with other options (`--set`) is another chain: its checksum differs, and
    /// the case names its `--set`s.
    @Test func aCasesSetsArePartOfItsChain() throws {
        let cut = RepositoryPaths.root.appendingPathComponent("datasets/euroc_v1_01_cut").path
        func provenance(_ overrides: [String]) throws -> BenchRunner.Provenance {
            let suite = try BenchSuite.oneCase(chain: "klt camera=cam0", dataset: cut, evaluate: "",
                                               overrides: try overrides.map { try OptionOverride(parsing: $0) })
            var digests: [String: String] = [:]
            return BenchRecording.provenance(of: suite.runs[0], datasetDigests: &digests)
        }
        let plain = try provenance([]), fifty = try provenance(["klt.max_features=50"]), sixty = try provenance(["klt.max_features=60"])
        #expect(plain.chainSHA256 != fifty.chainSHA256 && fifty.chainSHA256 != sixty.chainSHA256)
        #expect(fifty.chainSHA256 == (try provenance(["klt.max_features=50"])).chainSHA256)
        #expect(plain.datasetSHA256 == fifty.datasetSHA256)
        let run = try BenchSuite.oneCase(chain: "klt camera=cam0", dataset: cut, evaluate: "", overrides: [try OptionOverride(parsing: "klt.window=9")]).runs[0]
        #expect(run.chainDescription == "klt camera=cam0 --set klt.window=9")
        // Calibration files given to the case are named with its chain too.
        var calibrated = run
        calibrated.calibrations = [try CalibrationOverride(parsing: "cam0=/data/camchain.yaml#cam1")]
        #expect(calibrated.chainDescription == "klt camera=cam0 --set klt.window=9 --calibration cam0=/data/camchain.yaml#cam1")
    }
}
