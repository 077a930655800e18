import Foundation
import Parallax
import ParallaxApp
import TestSupport
import Testing

/// A suite case's `calibration: {STREAM: FILE}`: paths from the suite's folder, `#ENTRY` kept,
/// applied to the case's dataset (said in the progress), refused without a dataset or for a
/// stream twice, and a case naming a stream its dataset lacks is that case's bad input.
@Suite struct BenchSuiteTests {
    /// `python:FILE` in a suite's pipeline is relative to the suite file, as its datasets are;
    /// an absolute one, an instance name after it and the other analyzers stay as written.
    @Test func aSuitesPythonFilesAreRelativeToIt() throws {
        let folder = try TemporaryFolder.make("suite-python")
        defer { try? FileManager.default.removeItem(at: folder) }
        let suiteFile = folder.appendingPathComponent("suite.yaml")
        try """
            runs:
              - name: py
                dataset: data
                chain: "klt camera=cam0 ! python:../py/a.py:left scale=2 ! python:/abs/b.py"
                evaluate: none
            """.write(to: suiteFile, atomically: true, encoding: .utf8)
        let suite = try BenchSuite.load(suiteFile.path)
        let a = folder.appendingPathComponent("../py/a.py").standardized.path
        #expect(suite.runs[0].chain == "klt camera=cam0 ! python:\(a):left scale=2 ! python:/abs/b.py")
    }

    @Test func aCaseCalibratesItsDatasetsStreams() throws {
        let folder = try TemporaryFolder.make("suite-calibration")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cut = RepositoryPaths.root.appendingPathComponent("datasets/euroc_v1_01_cut").path
        let fixtures = RepositoryPaths.fixtures.appendingPathComponent("calibration")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("euroc-camchain.yaml"), to: folder.appendingPathComponent("camchain.yaml"))
        let suiteFile = folder.appendingPathComponent("suite.yaml")
        try """
            runs:
              - name: kalibr
                dataset: \(cut)
                calibration: {cam0: camchain.yaml, cam1: camchain.yaml#cam1}
                chain: "klt camera=cam0"
                evaluate: none
              - name: no-such-stream
                dataset: \(cut)
                calibration:
                  cam7: camchain.yaml
                chain: "klt camera=cam0"
                evaluate: none
            """.write(to: suiteFile, atomically: true, encoding: .utf8)
        let suite = try BenchSuite.load(suiteFile.path)
        let chain = folder.appendingPathComponent("camchain.yaml").standardized.path
        #expect(suite.runs[0].calibrations == [
            CalibrationOverride(stream: "cam0", file: chain, given: "\(suiteFile.path):4: run 'kalibr': calibration cam0: camchain.yaml"),
            CalibrationOverride(stream: "cam1", file: chain, entry: "cam1", given: "\(suiteFile.path):4: run 'kalibr': calibration cam1: camchain.yaml#cam1"),
        ])
        var runner = BenchRunner(suite: suite, scratch: folder.appendingPathComponent("scratch"))
        var progress: [String] = []
        runner.progress = { progress.append($0) }
        let results = runner.run()
        #expect(results.map(\.status) == ["ok", "invalid"], "\(results.map { $0.note ?? "" })")
        #expect(progress.contains("kalibr: cam0: calibration from \(chain) (Kalibr camchain cam0), replacing mav0/cam0/sensor.yaml"), "\(progress)")
        #expect(results[1].note == "\(suiteFile.path):10: run 'no-such-stream': calibration cam7: camchain.yaml: the dataset has no stream 'cam7'; "
                + "did you mean 'cam0'? (its streams: cam0, cam1, imu0, groundtruth)", "\(results[1].note ?? "")")
    }

    @Test func calibrationNeedsADatasetAndOneFilePerStream() throws {
        let folder = try TemporaryFolder.make("suite-calibration-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let suiteFile = folder.appendingPathComponent("suite.yaml")
        try """
            runs:
              - name: simulated
                simulate: {seconds: 1}
                calibration: {cam0: camchain.yaml}
                chain: klt
            """.write(to: suiteFile, atomically: true, encoding: .utf8)
        #expect { try BenchSuite.load(suiteFile.path) } throws: { "\($0)".contains("suite.yaml:4:") && "\($0)".contains("give it next to a dataset") }
        try """
            runs:
              - name: x
                dataset: somewhere
                calibration: {cam0: [a.yaml]}
                chain: klt
            """.write(to: suiteFile, atomically: true, encoding: .utf8)
        #expect { try BenchSuite.load(suiteFile.path) } throws: { "\($0)".contains("calibration.cam0 must be text") }
    }

    /// A suite without cases is refused (it would report nothing and pass).
    @Test func aSuiteWithoutRunsIsRefused() throws {
        let folder = try TemporaryFolder.make("suite-empty")
        defer { try? FileManager.default.removeItem(at: folder) }
        let suiteFile = folder.appendingPathComponent("suite.yaml")
        for text in ["name: empty\nruns: []\n", "runs: []\n"] {
            try text.write(to: suiteFile, atomically: true, encoding: .utf8)
            #expect { try BenchSuite.load(suiteFile.path) } throws: { "\($0)".contains("suite.yaml:1:") && "\($0)".contains("the suite has no runs") }
        }
    }
}
