import Foundation
import Parallax
import Yams
import ParallaxFiles

/// A benchmark suite: runs of a chain over a dataset, each evaluated against ground truth.
///
/// ```yaml
/// name: default
/// runs:
///   - name: gyro-simulated
///     simulate: {seconds: 10, seed: 1, width: 376, still: 0, textures: [a.png]}   # or  dataset: path/to/folder
///                                             # (still: seconds at rest before the orbit starts;
///                                             #  trajectory: a TUM/EuRoC/KITTI file to follow instead of the orbit;
///                                             #  stereo: true renders cam1 as well;
///                                             #  cameras: [cam0/sensor.yaml, cam1/sensor.yaml] replaces the
///                                             #  built-in rig (EuRoC sensor files, mounted by their T_BS; two: a pair))
///                                             # (paths relative to the suite file; no textures: seeded noise)
///     chain: "imu-integrator camera=cam0 imu=imu0"
///     evaluate: gyro-rotation                 # one name or a list: gyro-rotation, trajectory, landmarks and matches
///                                             # (simulated only), homography (image folders with H_a_b); none or [] for no evaluation
/// ```
/// A run whose dataset folder does not exist is skipped with a note (e.g. `../shared` data on a
/// user's machine).
package struct BenchSuite {
    package struct Run {
        var name: String
        var dataset: String?
        /// A trajectory file replacing the dataset's ground truth (`groundtruth:`), absolute.
        var groundTruth: String? = nil
        /// Simulated sequence: length (s), seed, image width (px; height and intrinsics scale with
        /// it), rest before the built-in orbit (s), a stereo pair, texture images for the room
        /// (absolute paths; empty: a seeded noise texture), and a trajectory file to follow instead
        /// of the orbit (absolute path).
        var simulate: Simulation?
        struct Simulation {
            var seconds: Double
            var seed: UInt64
            var width: Int
            var still: Double
            var stereo: Bool
            var textures: [String]
            var trajectory: String?
            /// EuRoC camera `sensor.yaml` files (absolute) replacing the built-in camera, or pair.
            var cameras: [String] = []
            /// `room` (the textured room, camera and IMU) or `face` (face landmarks with pose and
            /// gaze truth, ``FaceSimulator``).
            var scene = "room"
            /// Face landmark noise σ (px), `scene: face`.
            var landmarkNoise = 1.0
        }
        package var chain: String
        /// Evaluation names (``EvaluationRegistry``), in order.
        var evaluate: [String]
        var line: Int
        /// The suite's estimate of this case's cost (`cost:`, seconds on some machine; only
        /// ratios matter), for balancing shards; `nil`: estimated from the data.
        var cost: Double? = nil
        /// Cases made from one run by `seeds:` share its name as their group (results are
        /// compared over the group's seeds); `nil`: the case is its own group.
        var group: String? = nil
    }

    package var name: String
    package var runs: [Run]
    package var file: String

    /// A suite of one run from the command line (`--chain`, `--dataset`, `--evaluate a,b`).
    static func oneCase(chain: String, dataset: String, evaluate: String, groundTruth: String? = nil, evaluations: EvaluationRegistry = .standard) throws -> BenchSuite {
        let names = evaluate.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "none" }
        for n in names {
            do { _ = try evaluations.make(n) } catch { throw ChainError.syntax(message: "--evaluate: \(error)", location: nil) }
        }
        guard FileManager.default.fileExists(atPath: dataset) else {
            throw ChainError.syntax(message: "--dataset: '\(dataset)' does not exist", location: nil)
        }
        let name = URL(fileURLWithPath: dataset).standardized.lastPathComponent
        if let groundTruth, !FileManager.default.fileExists(atPath: groundTruth) {
            throw ChainError.syntax(message: "--groundtruth: '\(groundTruth)' does not exist", location: nil)
        }
        return BenchSuite(name: "command line", runs: [Run(name: name, dataset: dataset, groundTruth: groundTruth, simulate: nil, chain: chain, evaluate: names, line: 0)],
                          file: "(command line)")
    }

    package static func load(_ path: String, evaluations: EvaluationRegistry = .standard) throws -> BenchSuite {
        guard let text = FileContents.string(atPath: path) else {
            throw ChainError.syntax(message: "cannot read suite file '\(path)'", location: nil)
        }
        let base = URL(fileURLWithPath: path).absoluteURL.deletingLastPathComponent()
        func loc(_ n: Node?) -> ChainLocation { ChainLocation(file: path, line: n?.mark?.line ?? 1, column: n?.mark?.column ?? 1) }
        let doc: Node?
        do { doc = try YAMLText.compose(text) } catch {
            throw ChainError.syntax(message: "malformed YAML: \(error.message)", location: ChainLocation(file: path, line: error.line ?? 1, column: error.column ?? 1))
        }
        guard let map = doc?.mapping, let list = map["runs"]?.sequence else {
            throw ChainError.syntax(message: "expected a mapping with a 'runs' list", location: loc(doc))
        }
        /// Unknown keys are errors with a did-you-mean: a typo must not turn a case off in silence.
        func checkKeys(_ m: Node.Mapping, _ known: [String], _ what: String) throws {
            for (k, _) in m {
                guard let key = k.string, !known.contains(key) else { continue }
                let hint = Spelling.closest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? ""
                throw ChainError.syntax(message: "\(what): unknown key '\(key)'\(hint) (known: \(known.joined(separator: ", ")))", location: loc(k))
            }
        }
        try checkKeys(map, ["name", "runs"], "suite")
        var runs: [Run] = []
        for item in list {
            guard let m = item.mapping, let name = m["name"]?.string, let chain = m["chain"]?.string else {
                throw ChainError.syntax(message: "each run needs 'name' and 'chain'", location: loc(item))
            }
            try checkKeys(m, ["chain", "cost", "dataset", "evaluate", "groundtruth", "name", "seeds", "simulate"], "run '\(name)'")
            // A case's name names its files and page in the report (``OutputPath/fileName(_:)``):
            // one that cannot be a file name is refused before anything runs.
            if let problem = OutputPath.componentProblem(name) {
                throw ChainError.syntax(message: "run name '\(name)' \(problem): a case's name names its page and plots in the report; rename it", location: loc(m["name"]))
            }
            guard !runs.contains(where: { $0.name == name }) else {
                throw ChainError.syntax(message: "run name '\(name)' is given twice (names identify cases in reports, shards and the results database)", location: loc(m["name"]))
            }
            let evaluate = (m["evaluate"]?.sequence?.compactMap(\.string) ?? m["evaluate"]?.string.map { [$0] } ?? []).filter { $0 != "none" }
            for e in evaluate {
                do { _ = try evaluations.make(e) } catch {
                    throw ChainError.syntax(message: "run '\(name)': \(error)", location: loc(m["evaluate"]))
                }
            }
            var run = Run(name: name, dataset: nil, simulate: nil, chain: chain, evaluate: evaluate, line: item.mark?.line ?? 1)
            if let c = m["cost"] {
                guard let v = c.float, v.isFinite, v > 0, v <= 1e9 else {
                    throw ChainError.syntax(message: "run '\(name)': cost must be a number > 0 (seconds; only ratios matter)", location: loc(c))
                }
                run.cost = v
            }
            if let g = m["groundtruth"] {
                guard let file = g.string, m["dataset"] != nil else {
                    throw ChainError.syntax(message: "run '\(name)': groundtruth must be a trajectory file, next to a dataset", location: loc(g))
                }
                run.groundTruth = file.hasPrefix("/") ? file : base.appendingPathComponent(file).standardized.path
            }
            if let d = m["dataset"]?.string {
                run.dataset = d.hasPrefix("/") ? d : base.appendingPathComponent(d).standardized.path
            } else if let s = m["simulate"]?.mapping {
                try checkKeys(s, ["cameras", "landmark_noise", "scene", "seconds", "seed", "stereo", "still", "textures", "trajectory", "width"], "run '\(name)' simulate")
                let scene = s["scene"]?.string ?? "room"
                guard ["room", "face"].contains(scene) else {
                    throw ChainError.syntax(message: "run '\(name)' simulate: scene must be room or face, got '\(scene)'", location: loc(s["scene"] ?? item))
                }
                if scene == "face" {
                    for key in ["stereo", "still", "textures", "trajectory", "width"] where s[key] != nil {
                        throw ChainError.syntax(message: "run '\(name)' simulate: \(key) is for the room scene, not scene: face", location: loc(s[key] ?? item))
                    }
                } else if let node = s["landmark_noise"] {
                    throw ChainError.syntax(message: "run '\(name)' simulate: landmark_noise is for scene: face", location: loc(node))
                }
                let textures = (s["textures"]?.sequence ?? []).compactMap(\.string).map { $0.hasPrefix("/") ? $0 : base.appendingPathComponent($0).standardized.path }
                /// A number in `range`, or an error naming the run, key and range (a negative seed trapped).
                func number(_ key: String, _ fallback: Double, _ range: ClosedRange<Double>, _ unit: String) throws -> Double {
                    guard let node = s[key] else { return fallback }
                    guard let v = node.float, v.isFinite, range.contains(v) else {
                        throw ChainError.syntax(message: "run '\(name)' simulate: \(key) must be a number in \(range.lowerBound)…\(range.upperBound) \(unit)",
                                                location: loc(node))
                    }
                    return v
                }
                let seed = try number("seed", 1, 0...1e15, ""), width = try number("width", 376, 32...4096, "px")
                guard seed == seed.rounded(), width == width.rounded() else {
                    throw ChainError.syntax(message: "run '\(name)' simulate: seed and width must be whole numbers", location: loc(item))
                }
                let trajectory = s["trajectory"]?.string.map { $0.hasPrefix("/") ? $0 : base.appendingPathComponent($0).standardized.path }
                let still = try number("still", 0, 0...86_400, "s")
                if trajectory != nil, still > 0, let node = s["still"] {
                    throw ChainError.syntax(message: "run '\(name)' simulate: still is for the built-in orbit, not with a trajectory", location: loc(node))
                }
                let cameras = (s["cameras"]?.sequence ?? []).compactMap(\.string).map { $0.hasPrefix("/") ? $0 : base.appendingPathComponent($0).standardized.path }
                if let node = s["cameras"] {
                    guard (1...2).contains(cameras.count), cameras.count == node.sequence?.count else {
                        throw ChainError.syntax(message: "run '\(name)' simulate: cameras must list one or two camera sensor.yaml files", location: loc(node))
                    }
                    if let w = s["width"] {
                        throw ChainError.syntax(message: "run '\(name)' simulate: width comes from the cameras' files; leave it out", location: loc(w))
                    }
                }
                let stereo = s["stereo"]?.bool ?? (cameras.count == 2)
                if !cameras.isEmpty, stereo != (cameras.count == 2), let node = s["cameras"] {
                    throw ChainError.syntax(message: "run '\(name)' simulate: a stereo pair needs two cameras, a single camera one", location: loc(node))
                }
                run.simulate = .init(seconds: try number("seconds", 10, 0.5...86_400, "s"), seed: UInt64(seed), width: Int(width), still: still,
                                     stereo: stereo, textures: textures, trajectory: trajectory, cameras: cameras, scene: scene,
                                     landmarkNoise: try number("landmark_noise", 1, 0...100, "px"))
            } else {
                throw ChainError.syntax(message: "run '\(name)' needs 'dataset' or 'simulate'", location: loc(item))
            }
            if !chain.hasSuffix(".yaml"), !chain.hasSuffix(".yml") {
                run.chain = chain
            } else {
                run.chain = chain.hasPrefix("/") ? chain : base.appendingPathComponent(chain).standardized.path
            }
            if let node = m["seeds"] {
                // One case per seed, `NAME-seedS`, grouped under NAME.
                let seeds = node.sequence?.compactMap { $0.int } ?? []
                guard run.simulate != nil, !seeds.isEmpty, seeds.count == node.sequence?.count, seeds.allSatisfy({ $0 >= 0 }), Set(seeds).count == seeds.count else {
                    throw ChainError.syntax(message: "run '\(name)': seeds must be a list of different whole numbers ≥ 0, for a simulated run", location: loc(node))
                }
                for seed in seeds {
                    var one = run
                    one.name = "\(name)-seed\(seed)"
                    one.group = name
                    one.simulate?.seed = UInt64(seed)
                    guard !runs.contains(where: { $0.name == one.name }) else {
                        throw ChainError.syntax(message: "run name '\(one.name)' is given twice", location: loc(node))
                    }
                    runs.append(one)
                }
                continue
            }
            runs.append(run)
        }
        // Names that differ only in characters a file name cannot keep would share a page and
        // plots: refused before anything runs.
        if let group = OutputPath.collisions(runs.map(\.name)).first {
            let line = runs.first { $0.name == group[1] }?.line ?? 1
            throw ChainError.syntax(message: "run names \(group.map { "'\($0)'" }.joined(separator: " and ")) would share the report's page and plots "
                                    + "'\(OutputPath.fileName(group[0]))' (file names keep letters, digits, '-', '_' and '.'); rename one",
                                    location: ChainLocation(file: path, line: line, column: 1))
        }
        return BenchSuite(name: map["name"]?.string ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, runs: runs, file: path)
    }
}
