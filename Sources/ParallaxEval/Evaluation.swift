import Foundation
import ParallaxFiles
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxImage
import ParallaxSim

/// What an evaluation compares: a run's outputs, the streams' metadata, and the truth the
/// dataset has (a ground-truth trajectory, ground-truth files beside the images, or — for
/// simulated data — the scene itself).
public struct EvaluationInput {
    /// Every analyzer output, in emission order.
    public var outputs: [AnyPacket]
    /// Every stream's metadata after the run (an output's camera, for instance).
    public var metadata: [String: StreamMetadata]
    /// The dataset read.
    public var dataset: any DatasetSource
    /// Its folder.
    public var datasetPath: String
    /// The simulated scene, when the data was simulated (ray-cast ground truth).
    public var scene: TexturedScene?

    public init(outputs: [AnyPacket], metadata: [String: StreamMetadata], dataset: any DatasetSource, datasetPath: String, scene: TexturedScene? = nil) {
        self.outputs = outputs
        self.metadata = metadata
        self.dataset = dataset
        self.datasetPath = datasetPath
        self.scene = scene
    }

    /// The dataset's ground-truth trajectory, or an error saying that `evaluation` needs one.
    public func requireGroundTruth(for evaluation: String) throws -> Trajectory {
        guard let gt = dataset.groundTruth else {
            throw EvaluationError.needs(evaluation: evaluation, what: "ground truth, and this dataset has none")
        }
        return gt
    }

    /// The simulated scene — in memory, or the geometry a simulated folder keeps beside its
    /// data (``SceneGeometryFile``) — or an error saying that `evaluation` needs simulated data.
    public func requireScene(for evaluation: String) throws -> (TexturedScene, Trajectory) {
        let file = URL(fileURLWithPath: datasetPath).appendingPathComponent(SceneGeometryFile.fileName).path
        let scene = try self.scene ?? (FileManager.default.fileExists(atPath: file) ? SceneGeometryFile.read(path: file) : nil)
        guard let scene, let gt = dataset.groundTruth else {
            throw EvaluationError.needs(evaluation: evaluation, what: "a simulated dataset (the scene is the ground truth)")
        }
        return (scene, gt)
    }
}

/// What an evaluation found. `statistics` and the extra `metrics` are deterministic; `series`
/// feeds the plots.
public struct EvaluationResult: Sendable, Codable, Equatable {
    /// What the main statistics measure, with unit.
    public var metric: String
    public var statistics: ErrorStatistics
    /// Further named figures (`ape_rmse_m`, `first_pose_s`, …).
    public var metrics: [String: Double] = [:]
    /// Errors over time (s since the first), for plots; not in JSON.
    public var series: [Double]?
    public var seriesTimes: [Double]?
    /// A human-readable summary of details.
    public var note: String?
    /// What makes the figures mean less than they seem (a small part of the run tracked, the
    /// estimator starting again in new frames), shown beside them in the bench's summary.
    public var caution: String?
    /// Images to look at (an error map per pair, …) by name; the bench writes them beside its
    /// report as `<run>-<evaluation>-<name>.png`. Not in JSON.
    public var images: [String: ImageBuffer<UInt8>]?
    /// Plots (SVG documents) by name, beyond the error plots every series gets; the bench
    /// writes them as `<run>-<evaluation>-<name>.svg`. Not in JSON.
    public var plots: [String: String]?

    public init(metric: String, statistics: ErrorStatistics, metrics: [String: Double] = [:], note: String? = nil) {
        self.metric = metric
        self.statistics = statistics
        self.metrics = metrics
        self.note = note
    }

    enum CodingKeys: String, CodingKey { case metric, statistics, metrics, note, caution }
}

/// Why an evaluation could not run.
public enum EvaluationError: Error, Equatable, Sendable, CustomStringConvertible {
    case needs(evaluation: String, what: String)
    case unknown(name: String, suggestion: String?, known: [String])
    case nothingToEvaluate(evaluation: String, reason: String)

    public var description: String {
        switch self {
        case let .needs(evaluation, what): return "evaluation \(evaluation) needs \(what)"
        case let .unknown(name, suggestion, known):
            return "unknown evaluation '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "") + " (known: \(known.joined(separator: ", ")))"
        case let .nothingToEvaluate(evaluation, reason): return "evaluation \(evaluation): \(reason)"
        }
    }
}

/// A ground-truth comparison of a run, chosen by name in bench suites (`evaluate: trajectory`)
/// and on the command line (`parallax bench --evaluate trajectory`).
public protocol Evaluation: Sendable {
    /// The registry name.
    static var name: String { get }
    /// One line: what is compared with what.
    static var summary: String { get }
    init()
    /// Compares; throws ``EvaluationError`` when the data lacks what is needed.
    func evaluate(_ input: EvaluationInput) throws -> EvaluationResult
}

/// Evaluations by name.
public struct EvaluationRegistry: Sendable {
    private var types: [String: any Evaluation.Type] = [:]

    public init() {}

    /// Registers `type` under its name.
    public mutating func register(_ type: any Evaluation.Type) { types[type.name] = type }

    /// Registered names, sorted.
    public var names: [String] { types.keys.sorted() }

    /// The evaluation type registered as `name`.
    public func type(named name: String) -> (any Evaluation.Type)? { types[name] }

    /// One line per evaluation, for help texts.
    public var summaries: [(name: String, summary: String)] { names.compactMap { n in types[n].map { (n, $0.summary) } } }

    /// The evaluation called `name`, or an error with a did-you-mean.
    public func make(_ name: String) throws -> any Evaluation {
        guard let type = types[name] else {
            throw EvaluationError.unknown(name: name, suggestion: Spelling.closest(to: name, in: names), known: names)
        }
        return type.init()
    }

    /// Runs the evaluation called `name` over `input`. A result that compared nothing (no value
    /// in its statistics) is ``EvaluationError/nothingToEvaluate(evaluation:reason:)`` whatever
    /// the evaluation returned: an evaluation that evaluated nothing fails with its reason and is
    /// never reported (or recorded) as rmse 0 over n = 0.
    public func evaluate(_ name: String, _ input: EvaluationInput) throws -> EvaluationResult {
        let result = try make(name).evaluate(input)
        guard result.statistics.count > 0 else {
            throw EvaluationError.nothingToEvaluate(evaluation: name, reason: result.note.map { "nothing was compared (\($0))" } ?? "nothing was compared")
        }
        return result
    }

    /// The evaluations that ship with Parallax.
    public static let standard: EvaluationRegistry = {
        var r = EvaluationRegistry()
        for t: any Evaluation.Type in [GyroRotationEvaluation.self, LandmarkEvaluation.self, MatchEvaluation.self,
                                       HomographyEvaluation.self, PoseStreamEvaluation.self, StereoEvaluation.self,
                                       DepthEvaluation.self, TrackingEvaluation.self, HeadPoseEvaluation.self, ImageAnchorEvaluation.self] {
            r.register(t)
        }
        return r
    }()
}
