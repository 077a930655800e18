import Foundation
import Parallax
import ParallaxFetch

extension BenchShardFile {
    /// The shard file to continue: the one an interrupted run left in `OUT.partial`, or a
    /// finished one in `OUT`, when it is of this suite, version and shard; else a new one. A
    /// folder holding another suite's or shard's file is refused (exit 2). Also the earlier log.
    public static func resume(suite spec: BenchSuite, path: String, shard: ShardSpec, out: String) throws(AppFailure) -> (BenchShardFile, String) {
        let suiteSHA: String
        do { suiteSHA = try FileDigest.sha256(of: path) } catch { throw .badInput(error) }
        let assignment = ShardAssignment.assign(spec.runs.map { ($0.name, ShardAssignment.estimatedCost($0)) }, count: shard.count)[shard.index - 1]
        let positions = assignment.map { name in spec.runs.firstIndex { $0.name == name } ?? 0 }
        let fresh = BenchShardFile(suite: spec.name, suiteFile: path, suiteSHA256: suiteSHA, parallaxVersion: ParallaxVersion.current, shard: shard,
                                   cases: assignment, positions: positions, command: CommandLine.arguments.joined(separator: " "))
        for folder in [out + ".partial", out].map({ URL(fileURLWithPath: $0) }) {
            let existing: BenchShardFile?
            do { existing = try BenchShardFile.read(from: folder) } catch { throw .badInput(error) }
            guard let existing else { continue }
            guard existing.suiteSHA256 == suiteSHA, existing.shard == shard, existing.parallaxVersion == ParallaxVersion.current, existing.cases == assignment else {
                throw AppFailure("'\(folder.path)' holds shard \(existing.shard) of suite '\(existing.suite)' (\(existing.suiteFile), Parallax \(existing.parallaxVersion)), not shard \(shard) of this suite file and version: choose another --out or remove it",
                           status: .badInput)
            }
            var kept = fresh
            kept.results = existing.results.filter { $0.result.status != "interrupted" }
            let log = (try? String(contentsOf: folder.appendingPathComponent("log.txt"), encoding: .utf8)) ?? ""
            return (kept, log)
        }
        return (fresh, "")
    }
}
