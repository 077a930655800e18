import Foundation
import Parallax
import Yams

/// A benchmark suite: runs of a chain over a dataset, each evaluated against ground truth.
///
/// ```yaml
/// name: default
/// runs:
///   - name: gyro-simulated
///     simulate: {seconds: 10, seed: 1, width: 376, textures: [a.png]}   # or  dataset: path/to/folder
///                                             # (paths relative to the suite file; no textures: seeded noise)
///     chain: "imu-integrator camera=cam0 imu=imu0"
///     evaluate: gyro-rotation                 # gyro-rotation | landmarks, matches (simulated only) | homography (image folders with H_a_b) | none
/// ```
/// A run whose dataset folder does not exist is skipped with a note (e.g. `../shared` data on a
/// user's machine).
struct BenchSuite {
    struct Run {
        var name: String
        var dataset: String?
        /// Simulated sequence: length (s), seed, image width (px; height and intrinsics scale with
        /// it), texture images for the room (absolute paths; empty: a seeded noise texture).
        var simulate: (seconds: Double, seed: UInt64, width: Int, textures: [String])?
        var chain: String
        var evaluate: String
        var line: Int
    }

    var name: String
    var runs: [Run]
    var file: String

    static func load(_ path: String) throws -> BenchSuite {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ChainError.syntax(message: "cannot read suite file '\(path)'", location: nil)
        }
        let base = URL(fileURLWithPath: path).absoluteURL.deletingLastPathComponent()
        func loc(_ n: Node?) -> ChainLocation { ChainLocation(file: path, line: n?.mark?.line ?? 1, column: n?.mark?.column ?? 1) }
        let doc: Node?
        do { doc = try Yams.compose(yaml: text) } catch { throw ChainError.syntax(message: "malformed YAML: \(error)", location: loc(nil)) }
        guard let map = doc?.mapping, let list = map["runs"]?.sequence else {
            throw ChainError.syntax(message: "expected a mapping with a 'runs' list", location: loc(doc))
        }
        var runs: [Run] = []
        for item in list {
            guard let m = item.mapping, let name = m["name"]?.string, let chain = m["chain"]?.string else {
                throw ChainError.syntax(message: "each run needs 'name' and 'chain'", location: loc(item))
            }
            var run = Run(name: name, dataset: nil, simulate: nil, chain: chain, evaluate: m["evaluate"]?.string ?? "none", line: item.mark?.line ?? 1)
            if let d = m["dataset"]?.string {
                run.dataset = d.hasPrefix("/") ? d : base.appendingPathComponent(d).standardized.path
            } else if let s = m["simulate"]?.mapping {
                let textures = (s["textures"]?.sequence ?? []).compactMap(\.string).map { $0.hasPrefix("/") ? $0 : base.appendingPathComponent($0).standardized.path }
                run.simulate = (s["seconds"]?.float ?? 10, UInt64(s["seed"]?.int ?? 1), s["width"]?.int ?? 376, textures)
            } else {
                throw ChainError.syntax(message: "run '\(name)' needs 'dataset' or 'simulate'", location: loc(item))
            }
            guard ["gyro-rotation", "landmarks", "matches", "homography", "none"].contains(run.evaluate) else {
                throw ChainError.syntax(message: "run '\(name)': unknown evaluation '\(run.evaluate)' (gyro-rotation, landmarks, matches, homography, none)",
                                        location: loc(m["evaluate"]))
            }
            if !chain.hasSuffix(".yaml"), !chain.hasSuffix(".yml") {
                run.chain = chain
            } else {
                run.chain = chain.hasPrefix("/") ? chain : base.appendingPathComponent(chain).standardized.path
            }
            runs.append(run)
        }
        return BenchSuite(name: map["name"]?.string ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, runs: runs, file: path)
    }
}
