import ParallaxBus
import ParallaxPayloads
import ParallaxMath

/// One trajectory evaluation: association, alignment, APE and RPE, as `parallax eval` and
/// `parallax bench` report it (and as evo computes it).
public struct TrajectoryEvaluation: Sendable, Codable {
    /// How to evaluate.
    public struct Options: Sendable, Codable {
        /// Alignment before APE; default SE(3).
        public var alignment: TrajectoryAlignment.Mode = .se3
        /// Largest time difference for association (s); default 0.01 (evo's).
        public var maxTimeDifference = 0.01
        /// Added to the estimate's times before association (s).
        public var timeOffset = 0.0
        /// RPE step; default 1.
        public var rpeDelta = 1.0
        /// RPE step unit; default frames.
        public var rpeUnit: TrajectoryMetrics.DeltaUnit = .frames
        /// Smallest share (0…1) of the shorter trajectory's poses that must find a partner;
        /// default 0.5. Fewer is an error: it almost always means times in other units, a
        /// missing times file or the wrong pair of files, and the statistics would describe a
        /// small, arbitrary part of the motion. 0 accepts any overlap (as evo does).
        public var minimumOverlap = 0.5
        public init() {}
    }

    /// The alignment found (scale 1 unless Sim(3)).
    public struct Transform: Sendable, Codable {
        public var scale: Double
        /// Rotation vector (rad).
        public var rotation: Vector3
        /// Translation (m).
        public var translation: Vector3
    }

    public var reference: String
    public var estimate: String
    public var options: Options
    /// Poses read from each file, and pairs associated.
    public var referencePoses: Int
    public var estimatePoses: Int
    public var pairs: Int
    public var transform: Transform
    /// APE translation (m) and rotation (deg) after alignment.
    public var apeTranslation: ErrorStatistics
    public var apeRotationDegrees: ErrorStatistics
    /// RPE translation (m) and rotation (deg) of the aligned estimate (as evo_rpe `-a`/`-as`:
    /// rigid alignments leave it unchanged, Sim(3) scales the translations).
    public var rpeTranslation: ErrorStatistics
    public var rpeRotationDegrees: ErrorStatistics
    /// How far the alignment's rotation is from determined (deg; 0 without alignment): see
    /// ``TrajectoryAlignment/rotationUncertaintyDegrees(reference:rmse:mode:)``.
    public var alignmentRotationUncertaintyDegrees: Double
    /// Whether the alignment's rotation is determined by the motion (uncertainty at most
    /// ``TrajectoryAlignment/undeterminedRotationDegrees``); when it is not, the rotation APE
    /// measures the alignment, not the estimate.
    public var alignmentRotationDetermined: Bool { alignmentRotationUncertaintyDegrees <= TrajectoryAlignment.undeterminedRotationDegrees }
    /// The reference positions' largest distance from their centroid (m): how far the motion spans.
    public var referenceExtent: Double

    /// Per-pair data for plots (not in the JSON summary).
    public struct Series: Sendable {
        public var times: [Double]
        public var apeTranslation: [Double]
        public var referencePositions: [Vector3]
        public var alignedPositions: [Vector3]
        /// The reference's and the aligned estimate's attitudes `R_WB`, pair by pair.
        public var referenceRotations: [SO3] = []
        public var alignedRotations: [SO3] = []
        /// The estimate's stamp of each pair (to look up what the estimator said about it).
        public var estimateTimestamps: [Timestamp]

        /// Appends `other`'s pairs (a later stretch of the same run, aligned on its own; its
        /// times moved to count from this series' first pair).
        public mutating func append(_ other: Series) {
            let shift = zip(estimateTimestamps.first.map { [$0] } ?? [], other.estimateTimestamps.first.map { [$0] } ?? [])
                .map { $1.seconds(since: $0) }.first ?? 0
            times += other.times.map { $0 + shift }
            apeTranslation += other.apeTranslation
            referencePositions += other.referencePositions
            alignedPositions += other.alignedPositions
            referenceRotations += other.referenceRotations
            alignedRotations += other.alignedRotations
            estimateTimestamps += other.estimateTimestamps
        }
    }

    /// Why a pair of trajectories cannot be evaluated (bad input), naming both.
    public enum EvaluationError: Error, CustomStringConvertible {
        /// The associated poses cannot be aligned (too few, collinear, …).
        case alignment(reference: String, estimate: String, mode: TrajectoryAlignment.Mode, reason: String)
        /// No RPE pair is `delta` apart: every RPE statistic would be an empty zero.
        case noRelativePairs(reference: String, estimate: String, delta: Double, unit: TrajectoryMetrics.DeltaUnit, poses: Int)

        public var description: String {
            switch self {
            case let .alignment(r, e, mode, reason):
                return "cannot align \(e) to \(r) (--align \(mode.rawValue)): \(reason)"
            case let .noRelativePairs(r, e, delta, unit, poses):
                return "no RPE pair of \(e) and \(r) is \(delta) \(unit == .frames ? "frame(s)" : "m") apart "
                    + "(\(poses) associated poses): the RPE delta is too large"
            }
        }
    }

    /// The largest distance of `points` from their centroid (m; 0 when empty).
    static func extent(_ points: [Vector3]) -> Double {
        guard !points.isEmpty else { return 0 }
        let mu = points.reduce(.zero, +) / Double(points.count)
        return points.map { ($0 - mu).norm }.max() ?? 0
    }

    /// Evaluates `estimate` against `reference`; also returns the per-pair series.
    public static func evaluate(reference: Trajectory, estimate: Trajectory, options: Options = Options()) throws -> (TrajectoryEvaluation, Series) {
        let (r, e) = try Association.associate(reference: reference, estimate: estimate,
                                               maxDifference: options.maxTimeDifference, offset: options.timeOffset)
        let shorter = min(reference.count, estimate.count)
        if shorter > 0, Double(r.count) < options.minimumOverlap * Double(shorter) {
            throw Association.AssociationError.smallOverlap(reference: reference.name, estimate: estimate.name, pairs: r.count, of: shorter,
                                                            minimum: options.minimumOverlap, maxDifference: options.maxTimeDifference)
        }
        let aligned: Trajectory, s: Sim3
        do { (aligned, s) = try TrajectoryAlignment.align(e, to: r, mode: options.alignment) } catch {
            throw EvaluationError.alignment(reference: reference.name, estimate: estimate.name, mode: options.alignment, reason: "\(error)")
        }
        let ape = TrajectoryMetrics.absolute(reference: r, estimate: aligned)
        let rpe = TrajectoryMetrics.relative(reference: r, estimate: aligned, delta: options.rpeDelta, unit: options.rpeUnit)
        guard !rpe.translation.isEmpty else {
            throw EvaluationError.noRelativePairs(reference: reference.name, estimate: estimate.name, delta: options.rpeDelta,
                                                  unit: options.rpeUnit, poses: r.count)
        }
        let result = TrajectoryEvaluation(
            reference: reference.name, estimate: estimate.name, options: options,
            referencePoses: reference.count, estimatePoses: estimate.count, pairs: r.count,
            transform: Transform(scale: s.scale, rotation: s.rotation.log, translation: s.translation),
            apeTranslation: ErrorStatistics(ape.translation), apeRotationDegrees: ErrorStatistics(ape.rotationDegrees),
            rpeTranslation: ErrorStatistics(rpe.translation), rpeRotationDegrees: ErrorStatistics(rpe.rotationDegrees),
            alignmentRotationUncertaintyDegrees: TrajectoryAlignment.rotationUncertaintyDegrees(
                reference: r.positions, rmse: ErrorStatistics(ape.translation).rmse, mode: options.alignment),
            referenceExtent: Self.extent(r.positions))
        let t0 = r.poses.first?.time ?? 0
        var series = Series(times: r.times.map { $0 - t0 }, apeTranslation: ape.translation,
                            referencePositions: r.positions, alignedPositions: aligned.positions,
                            estimateTimestamps: e.poses.map(\.timestamp))
        series.referenceRotations = r.poses.map(\.pose.rotation)
        series.alignedRotations = aligned.poses.map(\.pose.rotation)
        return (result, series)
    }
}
