import Foundation
import Parallax
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
///     # calibration: {cam0: mav0/cam0/sensor.yaml, imu0: imu.yaml}   # next to a dataset: files replacing or
///                                             # supplying streams' calibrations, as --calibration STREAM=FILE
///                                             # (camchain.yaml#cam1 names an entry; paths relative to the suite file)
///     evaluate: gyro-rotation                 # one name or a list: gyro-rotation, trajectory, landmarks and matches
///                                             # (simulated only), homography (image folders with H_a_b); none or [] for no evaluation
/// ```
/// A run whose dataset folder does not exist is skipped with a note (e.g. `../shared` data on a
/// user's machine).
public struct BenchSuite {
    public struct Run {
        public var name: String
        public var dataset: String?
        /// A trajectory file replacing the dataset's ground truth (`groundtruth:`), absolute.
        public var groundTruth: String? = nil
        /// Calibration files for the dataset's streams (`calibration:`), files absolute.
        public var calibrations: [CalibrationOverride] = []
        /// The simulated sequence (`simulate:`), when the case has no dataset.
        public var simulate: Scenario?
        public var chain: String
        /// Options of the chain's analyzers set from the command line (`--set`), for a case
        /// given by `--chain`.
        public var overrides: [OptionOverride] = []
        /// Evaluation names (``EvaluationRegistry``), in order.
        public var evaluate: [String]
        public var line: Int
        /// The suite's estimate of this case's cost (`cost:`, seconds on some machine; only
        /// ratios matter), for balancing shards; `nil`: estimated from the data.
        public var cost: Double? = nil
        /// Cases made from one run by `seeds:` share its name as their group (results are
        /// compared over the group's seeds); `nil`: the case is its own group.
        public var group: String? = nil

        /// The chain as reports and the results database name it: the chain, then its `--set`s
        /// (`chains/vio-mono.yaml --set klt.max_features=300`) and its calibration files
        /// (`--calibration cam0=/data/cam0.yaml`).
        public var chainDescription: String {
            ([chain] + overrides.map { "--set \($0)" }
                + calibrations.map { "--calibration \($0.stream)=\($0.file)" + ($0.entry.map { "#\($0)" } ?? "") }).joined(separator: " ")
        }
    }

    public var name: String
    public var runs: [Run]
    public var file: String

    /// A suite named `name` of `runs`, read from `file`.
    public init(name: String, runs: [Run], file: String) {
        self.name = name
        self.runs = runs
        self.file = file
    }

    /// `pipeline` with each `python:FILE` (`python:FILE:INSTANCE`) naming its file by `absolute`:
    /// a suite's relative paths are relative to the suite file, as its datasets and chain files are.
    static func resolvingPythonFiles(in pipeline: String, absolute: (String) -> String) -> String {
        pipeline.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
            guard token.hasPrefix("python:") else { return String(token) }
            var file = String(token.dropFirst("python:".count)), instance = ""
            if let colon = file.lastIndex(of: ":"), !file[colon...].contains("/") {
                instance = String(file[colon...])
                file = String(file[..<colon])
            }
            return file.isEmpty ? String(token) : "python:" + absolute(file) + instance
        }.joined(separator: " ")
    }

    /// A suite of one run from the command line (`--chain`, `--dataset`, `--evaluate a,b`,
    /// `--set`s as `overrides`).
    public static func oneCase(chain: String, dataset: String, evaluate: String, groundTruth: String? = nil, overrides: [OptionOverride] = [],
                               evaluations: EvaluationRegistry = .standard) throws -> BenchSuite {
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
        return BenchSuite(name: "command line", runs: [Run(name: name, dataset: dataset, groundTruth: groundTruth, simulate: nil, chain: chain, overrides: overrides,
                                                           evaluate: names, line: 0)],
                          file: "(command line)")
    }

    /// The suite file as written: decoded by ``YAMLDecoding`` (every key known, every error
    /// located), then checked and resolved by ``load(_:evaluations:)``.
    struct File: Decodable {
        var name: String?
        var runs: [Entry]
        enum CodingKeys: String, YAMLKnownKeys { case name, runs }
    }

    /// One run as written.
    struct Entry: Decodable {
        var name: String
        var chain: String
        var dataset: String?
        var groundtruth: String?
        var calibration: CalibrationText?
        var simulate: Scenario?
        var evaluate: [String]
        var seeds: [Int]?
        var cost: Double?
        var line: Int

        enum CodingKeys: String, YAMLKnownKeys { case calibration, chain, cost, dataset, evaluate, groundtruth, name, seeds, simulate }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            line = decoder.yamlLine ?? 1
            name = try c.decode(String.self, forKey: .name)
            chain = try c.decode(String.self, forKey: .chain)
            // A case's name names its files and page in the report (``OutputPath/fileName(_:)``):
            // one that cannot be a file name is refused before anything runs.
            if let problem = OutputPath.componentProblem(name) {
                throw decoder.yamlProblem("run name '\(name)' \(problem): a case's name names its page and plots in the report; rename it", at: CodingKeys.name)
            }
            dataset = try c.decodeIfPresent(String.self, forKey: .dataset)
            groundtruth = try c.decodeIfPresent(String.self, forKey: .groundtruth)
            if groundtruth != nil, dataset == nil {
                throw decoder.yamlProblem("groundtruth must be a trajectory file, next to a dataset", at: CodingKeys.groundtruth)
            }
            calibration = try c.decodeIfPresent(CalibrationText.self, forKey: .calibration)
            if calibration != nil, dataset == nil {
                throw decoder.yamlProblem("calibration names files for a dataset's streams: give it next to a dataset", at: CodingKeys.calibration)
            }
            if dataset == nil {
                guard c.contains(.simulate) else { throw decoder.yamlProblem("needs 'dataset' or 'simulate'") }
                simulate = try c.decode(Scenario.self, forKey: .simulate)
            } else if c.contains(.simulate) {
                throw decoder.yamlProblem("has both 'dataset' and 'simulate': give one", at: CodingKeys.simulate)
            }
            // One evaluation or a list; `none` (or []) for none.
            if let one = try? c.decodeIfPresent(String.self, forKey: .evaluate) {
                evaluate = [one]
            } else {
                evaluate = try c.decodeIfPresent([String].self, forKey: .evaluate) ?? []
            }
            evaluate.removeAll { $0 == "none" }
            cost = try c.decodeIfPresent(Double.self, forKey: .cost)
            if let cost, !(cost.isFinite && cost > 0 && cost <= 1e9) {
                throw decoder.yamlProblem("cost must be a number > 0 (seconds; only ratios matter)", at: CodingKeys.cost)
            }
            if c.contains(.seeds) {
                let seeds = try c.decode([Int].self, forKey: .seeds)
                guard simulate != nil, !seeds.isEmpty, seeds.allSatisfy({ $0 >= 0 }), Set(seeds).count == seeds.count else {
                    throw decoder.yamlProblem("seeds must be a list of different whole numbers ≥ 0, for a simulated run", at: CodingKeys.seeds)
                }
                self.seeds = seeds
            }
        }
    }

    /// A case's `calibration:` as written: `{STREAM: FILE, …}` in the order given, each with its line.
    struct CalibrationText: Decodable {
        var entries: [(stream: String, file: String, line: Int)] = []

        struct Key: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            for key in c.allKeys {
                let value = try c.superDecoder(forKey: key)
                let file = try c.decode(String.self, forKey: key)
                guard !key.stringValue.isEmpty, !file.isEmpty else { throw value.yamlProblem("expected STREAM: FILE (cam0: mav0/cam0/sensor.yaml)") }
                entries.append((key.stringValue, file, value.yamlLine ?? decoder.yamlLine ?? 1))
            }
        }
    }

    /// Reads the suite file at `path`: every key known, every value checked (evaluations by
    /// `evaluations`), paths taken from the suite's folder, `seeds:` expanded into one case per
    /// seed; an error names the file, line and column and the case.
    public static func load(_ path: String, evaluations: EvaluationRegistry = .standard) throws -> BenchSuite {
        guard let text = FileContents.string(atPath: path) else {
            throw ChainError.syntax(message: "cannot read suite file '\(path)'", location: nil)
        }
        let base = URL(fileURLWithPath: path).absoluteURL.deletingLastPathComponent()
        let file = try YAMLDecoding.decode(File.self, from: text, file: path)
        func absolute(_ p: String) -> String { p.hasPrefix("/") ? p : base.appendingPathComponent(p).standardized.path }
        func refuse(_ message: String, line: Int) -> any Error { ChainError.syntax(message: message, location: ChainLocation(file: path, line: line, column: 1)) }
        // A suite without cases would report nothing and pass: a file emptied by mistake.
        guard !file.runs.isEmpty else { throw refuse("the suite has no runs: list at least one case under runs:", line: 1) }
        var runs: [Run] = []
        for entry in file.runs {
            for e in entry.evaluate {
                do { _ = try evaluations.make(e) } catch { throw refuse("run '\(entry.name)': \(error)", line: entry.line) }
            }
            var run = Run(name: entry.name, dataset: entry.dataset.map(absolute), simulate: entry.simulate?.resolvingPaths(against: base),
                          chain: entry.chain.hasSuffix(".yaml") || entry.chain.hasSuffix(".yml") ? absolute(entry.chain)
                            : Self.resolvingPythonFiles(in: entry.chain, absolute: absolute),
                          evaluate: entry.evaluate, line: entry.line)
            run.groundTruth = entry.groundtruth.map(absolute)
            run.calibrations = entry.calibration?.entries.map { stream, text, line in
                let (file, part) = CalibrationOverride.splitEntry(text)
                return CalibrationOverride(stream: stream, file: absolute(file), entry: part, given: "\(path):\(line): run '\(entry.name)': calibration \(stream): \(text)")
            } ?? []
            do { try CalibrationOverride.checkDistinct(run.calibrations) } catch { throw refuse("\(error)", line: entry.line) }
            run.cost = entry.cost
            // One case per seed, `NAME-seedS`, grouped under NAME.
            let cases: [Run] = entry.seeds.map { seeds in
                seeds.map { seed in
                    var one = run
                    one.name = "\(entry.name)-seed\(seed)"
                    one.group = entry.name
                    one.simulate?.seed = UInt64(seed)
                    return one
                }
            } ?? [run]
            for one in cases {
                guard !runs.contains(where: { $0.name == one.name }) else {
                    throw refuse("run name '\(one.name)' is given twice (names identify cases in reports, shards and the results database)", line: entry.line)
                }
                runs.append(one)
            }
        }
        // Names that differ only in characters a file name cannot keep would share a page and
        // plots: refused before anything runs.
        if let group = OutputPath.collisions(runs.map(\.name)).first {
            let line = runs.first { $0.name == group[1] }?.line ?? 1
            throw refuse("run names \(group.map { "'\($0)'" }.joined(separator: " and ")) would share the report's page and plots "
                         + "'\(OutputPath.fileName(group[0]))' (file names keep letters, digits, '-', '_' and '.'); rename one", line: line)
        }
        return BenchSuite(name: file.name ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, runs: runs, file: path)
    }
}
