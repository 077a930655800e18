import Foundation
import Testing
@testable import ParallaxApp
import Parallax
@testable import ParallaxCLI

/// `bench --shard K/N` and `bench merge`: the merged report is the unsharded one (timings
/// apart); bad shard specs, missing, foreign and unfinished shards are errors naming them; an
/// interrupted shard run again keeps its finished cases.
@Suite(.serialized) struct BenchShardTests {
    static let suiteText = """
        name: shards
        runs:
          - name: gyro-a
            simulate: {seconds: 1, seed: 1, width: 94}
            chain: "imu-integrator camera=cam0 imu=imu0"
            evaluate: gyro-rotation
          - name: gyro-b
            simulate: {seconds: 1.5, seed: 2, width: 94}
            chain: "imu-integrator camera=cam0 imu=imu0"
            evaluate: gyro-rotation
          - name: cut
            dataset: \(Paths.cut)
            chain: "stream-stats streams=cam0,imu0"
          - name: broken
            dataset: \(Paths.cut)
            chain: "imu-integrator camera=cam0 imu=imu0"
            evaluate: landmarks
        """

    func folder(_ name: String) throws -> URL {
        let folder = Paths.temporary(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// report.json without its timing fields.
    static func metrics(_ folder: URL) throws -> String {
        let data = try Data(contentsOf: folder.appendingPathComponent("report.json"))
        guard var json = try JSONSerialization.jsonObject(with: data) as? [String: Any], let runs = json["runs"] as? [[String: Any]] else { return "" }
        json["runs"] = runs.map { r in r.filter { $0.key != "timing" && $0.key != "realtimeFactor" } }
        return String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// report.md without its Speed section.
    static func markdown(_ folder: URL) throws -> String {
        let md = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        guard let start = md.range(of: "## Speed"), let end = md.range(of: "\n## ", range: start.upperBound..<md.endIndex) else { return md }
        return String(md[..<start.lowerBound] + md[end.lowerBound...])
    }

    @Test(arguments: [("4/3", "K must be 1…3"), ("0/0", "N must be 1…10000"), ("0/3", "K must be 1…3"), ("a/b", "expected K/N"), ("3", "expected K/N"), ("1/3/4", "expected K/N")])
    func aBadShardSpecIsRefusedSayingWhy(spec: String, message: String) {
        #expect { _ = try ShardSpec(parsing: spec) } throws: { "\($0)".contains(message) }
        #expect(parallax(["bench", "bench/default.yaml", "--shard", spec, "--out", "/tmp/never"]) == 2)
    }

    @Test func theAssignmentIsDeterministicBalancedAndCoversEveryCaseOnce() {
        let cases = (1...10).map { (name: "case\($0)", cost: Double($0 * $0 % 7 + 1)) }
        let shards = ShardAssignment.assign(cases, count: 3)
        // Who runs what depends on names and costs only, not on the order they are listed in.
        #expect(shards.map(Set.init) == ShardAssignment.assign(cases.reversed(), count: 3).map(Set.init))
        #expect(shards.flatMap { $0 }.sorted() == cases.map(\.name).sorted())
        let cost = Dictionary(uniqueKeysWithValues: cases.map { ($0.name, $0.cost) })
        let loads = shards.map { $0.reduce(0) { $0 + (cost[$1] ?? 0) } }
        let total = loads.reduce(0, +), biggest = cases.map(\.cost).max() ?? 0
        #expect((loads.max() ?? 0) <= total / 3 + biggest, "LPT bound: \(loads)")
        #expect(shards.allSatisfy { s in s == s.sorted { a, b in Int(a.dropFirst(4))! < Int(b.dropFirst(4))! } }, "each shard in suite order")
        #expect(ShardAssignment.assign(cases, count: 1) == [cases.map(\.name)])
        #expect(ShardAssignment.assign(Array(cases.prefix(2)), count: 4).filter(\.isEmpty).count == 2)
    }

    @Test func threeShardsMergeIntoTheUnshardedReport() throws {
        let root = try folder("shards")
        defer { try? FileManager.default.removeItem(at: root) }
        let suite = root.appendingPathComponent("suite.yaml")
        try Self.suiteText.write(to: suite, atomically: true, encoding: .utf8)
        let whole = root.appendingPathComponent("whole")
        #expect(parallax(["bench", suite.path, "--out", whole.path, "--quiet"]) == 1)  // `broken` fails
        var shards: [String] = []
        for k in 1...3 {
            let out = root.appendingPathComponent("shard-\(k)")
            let status = parallax(["bench", suite.path, "--shard", "\(k)/3", "--out", out.path, "--quiet"])
            #expect(status == 0 || status == 1)
            shards.append(out.path)
        }
        // A shard as --out would be replaced by the merge: refused, the shard kept.
        let shardFile = try String(contentsOfFile: shards[0] + "/shard.json", encoding: .utf8)
        #expect(parallax(["bench", "merge"] + shards + ["--out", shards[0]]) == 2)
        #expect(try String(contentsOfFile: shards[0] + "/shard.json", encoding: .utf8) == shardFile)
        let merged = root.appendingPathComponent("merged")
        #expect(parallax(["bench", "merge"] + shards + ["--out", merged.path]) == 1)  // the failed case fails the merge too
        // The failed case points to its shard's log; otherwise identical.
        let brokenShard = try #require(shards.first { (try? String(contentsOfFile: $0 + "/shard.json", encoding: .utf8))?.contains("\"broken\"") == true })
        let mergedJSON = try Self.metrics(merged)
        #expect(mergedJSON.contains("log: \(brokenShard)/log.txt"))
        #expect(mergedJSON.replacingOccurrences(of: " (shard ", with: "\u{0}").components(separatedBy: "\u{0}").count == 2)
        let unmarked = mergedJSON.replacingOccurrences(of: #" \(shard \d/3; log: [^)]*\)"#, with: "", options: .regularExpression)
        #expect(unmarked == (try Self.metrics(whole)))
        let log = try String(contentsOfFile: brokenShard + "/log.txt", encoding: .utf8)
        #expect(log.contains("broken: failed"))
        let markdown = try Self.markdown(merged).replacingOccurrences(of: #" \(shard \d/3; log: [^)]*\)"#, with: "", options: .regularExpression)
        #expect(markdown == (try Self.markdown(whole)))
        for plot in ["gyro-a-gyro-rotation-error.svg", "gyro-b-gyro-rotation-histogram.svg"] {
            #expect(try Data(contentsOf: merged.appendingPathComponent(plot)) == Data(contentsOf: whole.appendingPathComponent(plot)))
        }
        #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent("runs/cut.html").path))

        // A missing shard, a shard twice, a shard of another suite, of another version.
        #expect(parallax(["bench", "merge", shards[0], shards[2], "--out", merged.path]) == 1)
        #expect(parallax(["bench", "merge", "--check", shards[0], shards[2]]) == 1)
        #expect(parallax(["bench", "merge", shards[0], shards[0], shards[1], shards[2], "--out", merged.path]) == 2)
        let other = root.appendingPathComponent("other.yaml")
        try Self.suiteText.replacingOccurrences(of: "seed: 2", with: "seed: 5").write(to: other, atomically: true, encoding: .utf8)
        let foreign = root.appendingPathComponent("foreign-2")
        _ = parallax(["bench", other.path, "--shard", "2/3", "--out", foreign.path, "--quiet"])
        #expect(parallax(["bench", "merge", shards[0], foreign.path, shards[2], "--out", merged.path]) == 2)
        let versioned = try String(contentsOfFile: shards[1] + "/shard.json", encoding: .utf8)
        try versioned.replacingOccurrences(of: "\"parallaxVersion\":\"\(ParallaxCLI.version)\"", with: "\"parallaxVersion\":\"0.0.1\"")
            .write(toFile: shards[1] + "/shard.json", atomically: true, encoding: .utf8)
        #expect(parallax(["bench", "merge"] + shards + ["--out", merged.path]) == 2)
        // The merged report from before the bad merges is still there.
        #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent("report.html").path))
        // A folder holding another suite's shard is not overwritten by a shard run.
        #expect(parallax(["bench", suite.path, "--shard", "2/3", "--out", foreign.path, "--quiet"]) == 2)
    }

    @Test func anInterruptedShardRunAgainKeepsItsFinishedCases() throws {
        let root = try folder("shard-resume")
        defer { try? FileManager.default.removeItem(at: root) }
        let suite = root.appendingPathComponent("suite.yaml")
        try Self.suiteText.replacingOccurrences(of: "evaluate: landmarks", with: "evaluate: gyro-rotation").write(to: suite, atomically: true, encoding: .utf8)
        let out = root.appendingPathComponent("shard-1")
        #expect(parallax(["bench", suite.path, "--shard", "1/1", "--out", out.path, "--quiet"]) == 0)
        let first = try Self.metrics(out)
        // As a killed run leaves it: in OUT.partial, one case not finished, another interrupted.
        let partial = URL(fileURLWithPath: out.path + ".partial")
        try FileManager.default.moveItem(at: out, to: partial)
        var file = try #require(try BenchShardFile.read(from: partial))
        #expect(file.isComplete && file.cases == ["gyro-a", "gyro-b", "cut", "broken"])
        file.results.removeAll { $0.result.name == "gyro-b" }
        if let k = file.results.firstIndex(where: { $0.result.name == "cut" }) { file.results[k].result.status = "interrupted" }
        try file.write(to: partial)
        #expect(!file.isComplete && file.remaining == ["gyro-b", "cut"])
        #expect(parallax(["bench", "merge", "--check", out.path]) == 1)
        #expect(parallax(["bench", suite.path, "--shard", "1/1", "--out", out.path, "--quiet"]) == 0)
        let log = try String(contentsOf: out.appendingPathComponent("log.txt"), encoding: .utf8)
        #expect(log.contains("2 kept from an earlier run, 2 to run") && log.contains("--- resumed ---"))
        let resumed = log.components(separatedBy: "--- resumed ---").last ?? ""
        #expect(!resumed.contains("gyro-a: preparing") && !resumed.contains("broken: preparing"), "finished cases are not run again")
        #expect(resumed.contains("gyro-b: preparing") && resumed.contains("cut: preparing"), "the unfinished and interrupted ones are")
        #expect(try Self.metrics(out) == first)
        #expect(parallax(["bench", "merge", "--check", out.path]) == 0)
    }
}

@Suite struct BenchShardFileTests {
    @Test func aTamperedShardFileIsAnErrorNamingItNotATrap() throws {
        let folder = Paths.temporary("shard-file")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = BenchShardFile(suite: "s", suiteFile: "s.yaml", suiteSHA256: "x", parallaxVersion: "0.1.0", shard: ShardSpec(index: 1, count: 2),
                                  cases: ["a", "b"], positions: [0, 1], command: "parallax bench")
        try good.write(to: folder)
        #expect(try BenchShardFile.read(from: folder)?.cases == ["a", "b"])
        for (from, to) in [("\"count\":2", "\"count\":0"), ("\"index\":1", "\"index\":3"), ("\"positions\":[0,1]", "\"positions\":[0]"), ("\"format\":1", "\"format\":7")] {
            let text = try String(contentsOf: folder.appendingPathComponent("shard.json"), encoding: .utf8)
            let other = Paths.temporary("shard-file-bad")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: other) }
            #expect(text.contains(from))
            try text.replacingOccurrences(of: from, with: to).write(to: other.appendingPathComponent("shard.json"), atomically: true, encoding: .utf8)
            #expect { _ = try BenchShardFile.read(from: other) } throws: { "\($0)".contains(other.path) }
            #expect(parallax(["bench", "merge", other.path, "--out", other.appendingPathComponent("m").path]) == 2)
        }
    }
}
