import ArgumentParser
import Foundation
import Testing
@testable import ParallaxApp
import Parallax
import ParallaxResults
@testable import ParallaxCLI
import ParallaxFiles

/// Bench runs recorded in the results database, and `parallax results list / compare / plot`.
@Suite(.serialized) struct ResultsCommandTests {
    static func suite(bias: String = "") -> String {
        """
        name: gyro-seeds
        runs:
          - name: gyro
            simulate: {seconds: 1, width: 94}
            seeds: [1, 2, 3]
            chain: "imu-integrator camera=cam0 imu=imu0\(bias)"
            evaluate: gyro-rotation
        """
    }

    @Test func aWorseOptionIsFlaggedAsARegressionAndAnIdenticalRerunPasses() throws {
        let root = Paths.temporary("results")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let db = root.appendingPathComponent("results.sqlite").path
        let suite = root.appendingPathComponent("suite.yaml")
        try Self.suite().write(to: suite, atomically: true, encoding: .utf8)
        for k in 1...2 {
            #expect(parallax(["bench", suite.path, "--out", root.appendingPathComponent("run\(k)").path, "--quiet", "--results-db", db]) == 0)
        }
        #expect(parallax(["results", "compare", "latest~1", "latest", "--results-db", db]) == 0)
        let recorded = try ResultsDatabase(path: db).run(id: 2)
        #expect(recorded.cases.map(\.name) == ["gyro-seed1", "gyro-seed2", "gyro-seed3"] && recorded.cases.allSatisfy { $0.group == "gyro" })
        #expect(recorded.cases.allSatisfy { $0.datasetSHA256.count == 64 && $0.chainSHA256.count == 64 } && recorded.suiteSHA256.count == 64)
        #expect(Set(recorded.cases.map(\.datasetSHA256)).count == 3, "each seed is other data")
        #expect(recorded.cases[0].metrics.contains { $0.name == "gyro-rotation.rmse" && $0.lowerIsBetter == true })

        // The same suite with a wrong gyroscope bias: worse on every seed.
        try Self.suite(bias: " gyro_bias=[0.002,0,0]").write(to: suite, atomically: true, encoding: .utf8)
        #expect(parallax(["bench", suite.path, "--out", root.appendingPathComponent("run3").path, "--quiet", "--results-db", db]) == 0)
        #expect(parallax(["results", "compare", "1", "latest", "--results-db", db]) == 1)
        let comparison = ResultsComparison(before: try ResultsDatabase(path: db).run(id: 1), after: try ResultsDatabase(path: db).run(id: 3))
        let row = try #require(comparison.rows.first { $0.metric == "gyro-rotation.rmse" })
        #expect(row.verdict == .regression && row.before.count == 3 && (row.pValue ?? 1) < 0.05)
        // Reversed, it is an improvement: no regression.
        #expect(parallax(["results", "compare", "3", "1", "--results-db", db]) == 0)

        #expect(parallax(["results", "list", "--results-db", db]) == 0)
        // `--results-db`, as bench names it; `--db`, its old name, still reads (hidden from the
        // help), and both at once are one too many.
        #expect(parallax(["results", "list", "--db", db]) == 0)
        #expect(parallax(["results", "list", "--db", db, "--results-db", db]) == 2)
        #expect(parallax(["results", "list", "--db", ""]) == 2)
        for command in [ResultsListCommand.self, ResultsCompareCommand.self, ResultsPlotCommand.self] as [any ParsableCommand.Type] {
            let help = ParallaxCommand.helpMessage(for: command, columns: 10_000)
            #expect(help.contains("--results-db <file>") && !help.contains("--db"), "\(command)")
        }
        let plot = root.appendingPathComponent("rmse.svg").path
        #expect(parallax(["results", "plot", "gyro-rotation.rmse", "--results-db", db, "--out", plot]) == 0)
        let svg = try String(contentsOfFile: plot, encoding: .utf8)
        #expect(svg.hasPrefix(OutputPath.FileKind.svgPlotHeader + "<svg") && svg.contains("gyro-seed2"))
        // A rerun replaces its own plot; a user's file of that name is refused and kept.
        #expect(parallax(["results", "plot", "gyro-rotation.rmse", "--results-db", db, "--out", plot]) == 0)
        let users = root.appendingPathComponent("mine.svg").path
        try "<svg>mine</svg>".write(toFile: users, atomically: true, encoding: .utf8)
        #expect(parallax(["results", "plot", "gyro-rotation.rmse", "--results-db", db, "--out", users]) == 2)
        #expect(try String(contentsOfFile: users, encoding: .utf8) == "<svg>mine</svg>")
        #expect(parallax(["results", "plot", "gyro-rotation.rsme", "--results-db", db, "--out", plot]) == 2)
        #expect(parallax(["results", "compare", "1", "9", "--results-db", db]) == 2)
        #expect(parallax(["results", "compare", "1", "2", "--results-db", db, "--threshold", "-1"]) == 2)
        #expect(parallax(["results", "list", "--results-db", root.appendingPathComponent("none.sqlite").path]) == 2)

        // A merged run is recorded with its shards.
        let shard = root.appendingPathComponent("shard").path
        #expect(parallax(["bench", suite.path, "--shard", "1/1", "--out", shard, "--quiet", "--results-db", db]) == 0)
        #expect(try ResultsDatabase(path: db).runs().count == 3, "a shard alone is not recorded")
        #expect(parallax(["bench", "merge", shard, "--out", root.appendingPathComponent("merged").path, "--results-db", db]) == 0)
        #expect(try ResultsDatabase(path: db).runs().first?.shards == "1 shards")
    }

    /// A database inside --out would go with the folder at the next run's commit: refused
    /// before anything runs, for bench and bench merge.
    @Test func aDatabaseInsideOutIsRefused() throws {
        let root = Paths.temporary("results-inside-out")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let suite = root.appendingPathComponent("suite.yaml")
        try Self.suite().replacingOccurrences(of: "seeds: [1, 2, 3]", with: "seeds: [1]").write(to: suite, atomically: true, encoding: .utf8)
        let out = root.appendingPathComponent("out").path
        #expect(parallax(["bench", suite.path, "--out", out, "--quiet", "--results-db", out + "/r.sqlite"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"))
        #expect(parallax(["bench", "merge", root.path + "/shard", "--out", out, "--results-db", out + ".partial/r.sqlite"]) == 2)
    }

    @Test func aCorruptDatabaseLosesNoReportAndIsNotChanged() throws {
        let root = Paths.temporary("results-corrupt")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let db = root.appendingPathComponent("results.sqlite").path
        let junk = Data(repeating: 0x5a, count: 2048)
        FileManager.default.createFile(atPath: db, contents: junk)
        let suite = root.appendingPathComponent("suite.yaml")
        try Self.suite().replacingOccurrences(of: "seeds: [1, 2, 3]", with: "seeds: [1]").write(to: suite, atomically: true, encoding: .utf8)
        let out = root.appendingPathComponent("out")
        #expect(parallax(["bench", suite.path, "--out", out.path, "--quiet", "--results-db", db]) == 1)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path), "the report is written before recording")
        #expect(FileManager.default.contents(atPath: db) == junk)
        // Reading it: the user's file is bad input (exit 2), and it is still not changed.
        #expect(parallax(["results", "list", "--results-db", db]) == 2)
        #expect(FileManager.default.contents(atPath: db) == junk)
        #expect(parallax(["bench", suite.path, "--out", out.path, "--quiet", "--results-db", db, "--no-record"]) == 0)
    }
}

/// `parallax simulate --scene object` as a known picture: `image-track` scored by `image-anchor`.
@Suite struct ImageAnchorBenchTests {
    @Test func aTurningPictureIsScoredAgainstItsTruePose() throws {
        let root = Paths.temporary("image-anchor")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let sim = root.appendingPathComponent("turn").path
        // The TUM office frame as the picture (the last texture), the EuRoC frame on the walls.
        #expect(parallax(["simulate", "--scene", "object", "--motion", "turn", "--seconds", "0.5", "--textures", Paths.root.appendingPathComponent("datasets/euroc_v1_01_cut/mav0/cam0/data/1403715273262142976.png").path,
                          "--textures", Paths.root.appendingPathComponent("datasets/tum_rgbd_frame/rgb/1341847980.722988.png").path, "--out", sim]) == 0)
        for file in ["picture.png", "picture_pose.csv", "sensor.yaml", "groundtruth_rect.txt"] {
            #expect(FileManager.default.fileExists(atPath: sim + "/" + file), "\(file)")
        }
        let out = root.appendingPathComponent("bench").path
        #expect(parallax(["bench", "--chain", "image-track reference=[\(sim)/picture.png] width=0.4", "--dataset", sim, "--evaluate", "image-anchor",
                          "--out", out, "--quiet", "--no-record"]) == 0)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any]
        let run = try #require((report?["runs"] as? [[String: Any]])?.first)
        let evaluation = try #require((run["evaluations"] as? [[String: Any]])?.first?["result"] as? [String: Any])
        let stats = try #require(evaluation["statistics"] as? [String: Double]), metrics = try #require(evaluation["metrics"] as? [String: Double])
        // Measured: corner error rmse 0.62 px, rotation median 0.37°, position median 0.38 cm, tracked in every frame.
        #expect((stats["rmse"] ?? 99) < 1, "corner error \(stats)")
        #expect((metrics["recall"] ?? 0) > 0.95 && (metrics["rotation_median_deg"] ?? 99) < 1.5 && (metrics["position_median_cm"] ?? 99) < 2, "\(metrics)")
        // Without the truth file it says what it needs.
        try FileManager.default.removeItem(atPath: sim + "/picture_pose.csv")
        #expect(parallax(["bench", "--chain", "image-track reference=[\(sim)/picture.png] width=0.4", "--dataset", sim, "--evaluate", "image-anchor",
                          "--out", out, "--quiet", "--no-record"]) == 1)
    }
}
