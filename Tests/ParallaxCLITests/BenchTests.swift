import Foundation
import Testing
import Parallax
@testable import ParallaxCLI

@Suite struct BenchTests {
    func suite(_ text: String) throws -> URL {
        let folder = Paths.temporary("suite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("suite.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func sameSuiteTwiceGivesTheSameNumbers() throws {
        let file = try suite("""
        name: tiny
        runs:
          - name: gyro
            simulate: {seconds: 2, seed: 3, width: 94}
            chain: "imu-integrator camera=cam0 imu=imu0"
            evaluate: gyro-rotation
          - name: cut
            dataset: \(Paths.cut)
            chain: "stream-stats streams=cam0,imu0"
          - name: absent
            dataset: /nonexistent/dataset
            chain: "stream-stats"
        """)
        let a = Paths.temporary("bench-a"), b = Paths.temporary("bench-b")
        defer { for u in [a, b, file.deletingLastPathComponent()] { try? FileManager.default.removeItem(at: u) } }
        #expect(parallax(["bench", file.path, "--out", a.path, "--quiet"]) == 0)
        #expect(parallax(["bench", file.path, "--out", b.path, "--quiet"]) == 0)
        /// Everything but the timings, as canonical JSON text per run.
        func metrics(_ folder: URL) throws -> [String] {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("report.json"))) as! [String: Any]
            return try (json["runs"] as! [[String: Any]]).map { run in
                var r = run
                r["timing"] = nil
                r["realtimeFactor"] = nil
                return String(decoding: try JSONSerialization.data(withJSONObject: r, options: [.sortedKeys]), as: UTF8.self)
            }
        }
        let ma = try metrics(a), mb = try metrics(b)
        #expect(ma == mb)
        #expect(ma.count == 3)
        #expect(ma[0].contains("\"status\":\"ok\"") && ma[0].contains("\"rmse\""))
        #expect(ma[1].contains("\"status\":\"ok\""))
        #expect(ma[2].contains("\"status\":\"skipped\""))
        let report = try String(contentsOf: a.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("| gyro | simulated (2 s, seed 3) | ok |"))
        #expect(FileManager.default.fileExists(atPath: a.appendingPathComponent("gyro-error.svg").path))
    }

    @Test func descriptorMatchesAreCheckedAgainstTheSimulatedScene() throws {
        let file = try suite("""
        name: matches
        runs:
          - name: orb
            simulate: {seconds: 1, seed: 2, width: 188}
            chain: "orb-match camera=cam0 model=fundamental ransac_threshold=1 max_features=300 levels=3"
            evaluate: matches
        """)
        let out = Paths.temporary("bench-orb")
        defer { for u in [out, file.deletingLastPathComponent()] { try? FileManager.default.removeItem(at: u) } }
        #expect(parallax(["bench", file.path, "--out", out.path, "--quiet"]) == 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as! [String: Any]
        let run = try #require((json["runs"] as? [[String: Any]])?.first)
        #expect(run["status"] as? String == "ok")
        let stats = try #require(run["statistics"] as? [String: Any])
        let median = try #require(stats["median"] as? Double), count = try #require(stats["count"] as? Int)
        // Frame-to-frame matches at 20 Hz land on the ray-cast truth (half-resolution camera).
        #expect(count > 200, "\(count) inliers evaluated")
        #expect(median < 1.0, "median error \(median) px")
        #expect((run["note"] as? String)?.contains("RANSAC inliers") == true)
    }

    @Test func badSuitesAreRejectedWithTheLine() throws {
        let file = try suite("runs:\n  - name: x\n    chain: stream-stats\n")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect(parallax(["bench", file.path, "--out", Paths.temporary("bench-bad").path]) == 2)
        #expect { _ = try BenchSuite.load(file.path) } throws: { "\($0)".contains("suite.yaml:2:") && "\($0)".contains("needs 'dataset' or 'simulate'") }
        let wrongEval = try suite("runs:\n  - name: x\n    dataset: .\n    chain: stream-stats\n    evaluate: magic\n")
        #expect { _ = try BenchSuite.load(wrongEval.path) } throws: { "\($0)".contains("unknown evaluation 'magic'") }
    }
}
