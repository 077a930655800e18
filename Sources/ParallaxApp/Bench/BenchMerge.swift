import Foundation
import Parallax
import ParallaxFiles

/// `parallax bench merge`'s logic: the shard files of a suite read back, checked and put in
/// suite order, for one report as one unsharded run writes it.
public struct BenchMerge {
    /// A shard file with the folder it was read from.
    public struct Found {
        public var folder: String
        public var file: BenchShardFile
        public var finished: Bool
    }

    /// The shards found, in the order given.
    public let found: [Found]
    /// The first shard (the others are checked against it).
    public var first: Found { found[0] }
    /// How many shards the suite was split into.
    public var count: Int { first.file.shard.count }
    private let byIndex: [Int: Found]

    /// Reads the shard files in `folders` (or `FOLDER.partial`) and checks they are shards of
    /// one suite file, version and split, each given once.
    public init(folders: [String]) throws(AppFailure) {
        var found: [Found] = []
        for folder in folders {
            var shard: Found?
            for (path, finished) in [(folder, true), (folder + ".partial", false)] {
                do {
                    if let file = try BenchShardFile.read(from: URL(fileURLWithPath: path)) { shard = Found(folder: path, file: file, finished: finished); break }
                } catch { throw .badInput(error) }
            }
            guard let shard else {
                throw AppFailure("'\(folder)': no shard.json here or in '\(folder).partial' (not the --out of `parallax bench SUITE --shard K/N`)", status: .badInput)
            }
            found.append(shard)
        }
        guard let first = found.first else { throw AppFailure("give the shards' folders", status: .badInput) }
        for f in found.dropFirst() {
            let a = first.file, b = f.file
            guard a.suiteSHA256 == b.suiteSHA256, a.suite == b.suite else {
                throw AppFailure("'\(f.folder)' is a shard of suite '\(b.suite)' (\(b.suiteFile), SHA-256 \(b.suiteSHA256.prefix(12))…), '\(first.folder)' of '\(a.suite)' (\(a.suiteFile), \(a.suiteSHA256.prefix(12))…): shards of one suite file only",
                           status: .badInput)
            }
            guard a.parallaxVersion == b.parallaxVersion else {
                throw AppFailure("'\(f.folder)' was run by Parallax \(b.parallaxVersion), '\(first.folder)' by \(a.parallaxVersion): shards of one version only", status: .badInput)
            }
            guard a.shard.count == b.shard.count else {
                throw AppFailure("'\(f.folder)' is shard \(b.shard), '\(first.folder)' shard \(a.shard): shards of one split only", status: .badInput)
            }
        }
        let count = first.file.shard.count
        var byIndex: [Int: Found] = [:]
        for f in found {
            if let other = byIndex[f.file.shard.index] {
                throw AppFailure("shard \(f.file.shard) is given twice: '\(other.folder)' and '\(f.folder)'", status: .badInput)
            }
            byIndex[f.file.shard.index] = f
        }
        self.found = found
        self.byIndex = byIndex
    }

    /// What keeps the merge from being complete: each missing or unfinished shard (`terse`: as
    /// `--check` prints them, `missing K/N` or `unfinished K/N FOLDER`).
    public func problems(terse check: Bool) -> [String] {
        var problems: [String] = []
        for k in 1...count {
            guard let f = byIndex[k] else {
                problems.append(check ? "missing \(k)/\(count)" : "shard \(k)/\(count) is missing (not among the folders given)")
                continue
            }
            if !f.file.isComplete || !f.finished {
                let left = f.file.remaining
                problems.append(check ? "unfinished \(k)/\(count) \(f.folder)"
                                : "shard \(k)/\(count) in '\(f.folder)' is unfinished (\(left.isEmpty ? "interrupted before its report" : "not run: " + left.joined(separator: ", "))); finish it with: \(f.file.command)")
            }
        }
        return problems
    }

    /// The cases of all shards in suite order; a failed case points to its shard's log.
    public func results() throws(AppFailure) -> [BenchRunner.Result] {
        // The cases in suite order; a failed case points to its shard's log.
        var placed: [(position: Int, result: BenchRunner.Result)] = []
        for k in 1...count {
            guard let f = byIndex[k] else { continue }
            for c in f.file.results {
                var r: BenchRunner.Result
                do { r = try BenchShardFile.result(of: c, file: f.folder + "/" + BenchShardFile.fileName) } catch { throw .badInput(error) }
                guard let i = f.file.cases.firstIndex(of: r.name) else {
                    throw AppFailure("\(f.folder)/\(BenchShardFile.fileName): case '\(r.name)' is not one of the shard's", status: .badInput)
                }
                if r.status == "failed" || r.status == "invalid" {
                    r.note = (r.note.map { $0 + " " } ?? "") + "(shard \(f.file.shard); log: \(f.folder)/log.txt)"
                }
                placed.append((f.file.positions[i], r))
            }
        }
        placed.sort { $0.position < $1.position }
        guard Set(placed.map(\.position)).count == placed.count else {
            throw AppFailure("the shards share out the cases differently (a case is in two shards)", status: .badInput)
        }
        let results = placed.map(\.result)
        // Case names name pages and plots: shard files (data) are held to the suite's rule.
        if let group = OutputPath.collisions(results.map(\.name)).first {
            throw AppFailure("cases \(group.map { "'\($0)'" }.joined(separator: " and ")) of the shards would share the report's page '\(OutputPath.fileName(group[0]))'", status: .badInput)
        }
        return results
    }
}
