import Foundation
import Parallax
import ParallaxFetch

/// `--shard K/N`: the K-th of N shares of a suite's cases (1 ≤ K ≤ N).
public struct ShardSpec: Equatable, Codable, CustomStringConvertible {
    /// The most shards a suite is split into.
    public static let maximumCount = 10_000
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) { self.index = index; self.count = count }

    /// Why a `K/N` text is not a shard.
    public struct ParseError: Error, CustomStringConvertible, BadInput {
        public let description: String
    }

    /// Parses `K/N`; the error says what is wrong with it.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ParseError(description: "--shard '\(text)': expected K/N, two whole numbers such as 2/3")
        }
        guard (1...Self.maximumCount).contains(n) else { throw ParseError(description: "--shard '\(text)': N must be 1…\(Self.maximumCount) shards, not \(n)") }
        guard (1...n).contains(k) else { throw ParseError(description: "--shard '\(text)': K must be 1…\(n) (shards count from 1), not \(k)") }
        index = k
        count = n
    }

    public var description: String { "\(index)/\(count)" }
}

/// Which cases each shard runs: deterministic for a suite (case names and estimated costs),
/// whatever the machine. Cases are taken from the most to the least costly (ties by name) and
/// each goes to the shard with the least estimated cost so far (ties: the lowest index) — the
/// longest-processing-time rule, within 4/3 of the best balance.
public enum ShardAssignment {
    /// The case names of each of `count` shards (index 0 = shard 1), each in suite order.
    public static func assign(_ cases: [(name: String, cost: Double)], count: Int) -> [[String]] {
        var load = [Double](repeating: 0, count: count)
        var owner: [String: Int] = [:]
        for c in cases.sorted(by: { $0.cost != $1.cost ? $0.cost > $1.cost : $0.name < $1.name }) {
            let k = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 } ?? 0
            load[k] += c.cost
            owner[c.name] = k
        }
        return (0..<count).map { k in cases.map(\.name).filter { owner[$0] == k } }
    }

    /// A case's estimated cost: the suite's `cost:` when given; else seconds × pixels for a
    /// simulated case (rendering and processing grow with both), and the size of a dataset
    /// folder (MB / 10, at least 1) — what a case reads is a fair proxy for what it computes.
    public static func estimatedCost(_ run: BenchSuite.Run) -> Double {
        if let cost = run.cost { return cost }
        if let s = run.simulate {
            let pixels = Double(s.width * s.width) / (376.0 * 376.0)
            return max(1, s.seconds * (s.scene == .face ? 0.05 : pixels * (s.stereo ? 2 : 1)))
        }
        guard let dataset = run.dataset else { return 1 }
        return max(1, Double(folderBytes(dataset)) / 1e7)
    }

    /// Bytes of the files under `path` (a file's own size; 0 when absent).
    public static func folderBytes(_ path: String) -> Int64 {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { return 0 }
        guard isFolder.boolValue else { return FileDigest.size(of: path) }
        var total: Int64 = 0
        guard let files = fm.enumerator(atPath: path) else { return 0 }
        for case let file as String in files { total += FileDigest.size(of: (path as NSString).appendingPathComponent(file)) }
        return total
    }
}
