import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxDatasets

/// `trajectory`: an estimator's ``Pose`` stream (the first pose stream among the outputs, e.g.
/// `vio/pose`) against the dataset's ground truth, as evo computes it: APE after position+yaw
/// alignment (the VIO standard; the main statistic) and after SE(3) alignment, RPE over 10
/// frames, time to the first `normal` pose, and the position NEES where the estimator reports a
/// covariance (consistency: ≈ 3 for a consistent filter; see ``positionNEES(_:covariances:reference:)``).
public struct PoseStreamEvaluation: Evaluation {
    public static let name = "trajectory"
    public static let summary = "pose stream vs ground truth: APE (pos+yaw and SE3 aligned), RPE, NEES, time to first pose (m, deg, s)"
    public init() {}

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        let gt = try input.requireGroundTruth(for: Self.name)
        guard let stream = input.outputs.first(where: { $0.payload is Pose })?.stream else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "the chain emitted no pose stream")
        }
        // A pose `notAvailable` between `normal` ones is a reset: the estimator starts again in a
        // new frame (a new gauge: position and yaw fixed afresh), so each stretch is aligned on
        // its own and the errors pooled.
        var segments: [Segment] = [Segment(estimate: Trajectory(poses: [], name: stream))]
        var firstNormal: Timestamp?
        var frames = 0
        for p in input.outputs where p.stream == stream {
            guard let pose = p.payload as? Pose else { continue }
            frames += 1
            if pose.trackingState == .notAvailable, segments[segments.count - 1].estimate.count > 0 {
                segments.append(Segment(estimate: Trajectory(poses: [], name: stream)))
            }
            guard pose.trackingState == .normal else { continue }
            firstNormal = firstNormal ?? p.timestamp
            segments[segments.count - 1].estimate.poses.append(StampedPose(time: p.timestamp.seconds, timestamp: p.timestamp, pose: pose.worldFromBody))
            if let c = pose.covariance, c.rows >= 3, c.columns >= 3 { segments[segments.count - 1].covariances[p.timestamp] = c }
        }
        let total = segments.reduce(0) { $0 + $1.estimate.count }
        let restarts = max(0, segments.filter { $0.estimate.count > 0 }.count - 1)
        var options = TrajectoryEvaluation.Options()
        options.rpeDelta = 10
        // Stretches too short for the RPE's 10 frames are left out (and counted) when a longer one exists.
        let long = segments.filter { $0.estimate.count > Int(options.rpeDelta) }
        if !long.isEmpty {
            segments = long
        } else if let longest = segments.max(by: { $0.estimate.count < $1.estimate.count }) {
            segments = [longest]
        }
        let short = total - segments.reduce(0) { $0 + $1.estimate.count }
        // A run too short for 10 frames apart (a 3 s clip that starts late: 10 poses) gets its
        // RPE over what it has, said in its name, rather than no evaluation at all.
        if let fewest = segments.map(\.estimate.count).min(), fewest <= Int(options.rpeDelta) { options.rpeDelta = Double(max(1, fewest - 1)) }
        guard let firstSegment = segments.first, firstSegment.estimate.count >= 3 else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "'\(stream)' has \(total) pose(s) in state normal; 3 are needed")
        }
        // The stamps here are the dataset's own (no unit to mistake, unlike two files given to
        // `eval`): a truth covering part of the run is scored where it exists, and said.
        options.minimumOverlap = 0
        var scores: [Score] = []
        var se3DegenerateStretches = 0
        func evaluate(_ estimate: Trajectory, _ alignment: TrajectoryAlignment.Mode) throws -> (TrajectoryEvaluation, TrajectoryEvaluation.Series) {
            options.alignment = alignment
            do {
                return try TrajectoryEvaluation.evaluate(reference: gt, estimate: estimate, options: options)
            } catch let TrajectoryEvaluation.EvaluationError.noRelativePairs(_, _, _, _, poses) where poses >= 2 {
                // The truth covers fewer of the poses than the RPE's frames apart: over what it covers.
                options.rpeDelta = Double(poses - 1)
                return try TrajectoryEvaluation.evaluate(reference: gt, estimate: estimate, options: options)
            }
        }
        var neesUnanchored = false
        for segment in segments {
            let (posyaw, series) = try evaluate(segment.estimate, .posyaw)
            var (se3, se3Series) = (posyaw, series)
            do {
                (se3, se3Series) = try evaluate(segment.estimate, .se3)
            } catch TrajectoryEvaluation.EvaluationError.alignment {
                // A stretch standing still (or on a line) leaves the SE3 alignment's rotation
                // free: its position+yaw alignment stands in, the rotation said undetermined.
                se3.alignmentRotationUncertaintyDegrees = 180
                se3DegenerateStretches += 1
            }
            let nees = Self.positionNEES(segment.estimate, covariances: segment.covariances, reference: gt)
            // Covariances given, yet no NEES: the truth does not reach the pose the estimator's gauge is at.
            if nees.isEmpty, !segment.covariances.isEmpty { neesUnanchored = true }
            scores.append(Score(posyaw: posyaw, series: series, se3: se3, se3Errors: se3Series.apeTranslation, nees: nees))
        }
        let rpe = Int(options.rpeDelta)
        guard let firstScore = scores.first else { throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "'\(stream)' has no stretch to align") }
        let rest = scores.dropFirst()
        let posyaw = Score.pooled(firstScore.posyaw, rest.map(\.posyaw), errors: scores.flatMap(\.series.apeTranslation))
        let se3 = Score.pooled(firstScore.se3, rest.map(\.se3), errors: scores.flatMap(\.se3Errors))
        var series = firstScore.series
        for more in rest { series.append(more.series) }
        let estimateCount = segments.reduce(0) { $0 + $1.estimate.count }
        let nees = scores.flatMap(\.nees)
        let meanNEES = nees.isEmpty ? nil : nees.reduce(0, +) / Double(nees.count)
        // Time to the first pose counts from the first sensor reading (a camera frame, an IMU
        // sample), not from the ground truth, which may start earlier or later.
        let datasetStart = input.dataset.listing.stamps.filter { $0.key != DatasetStreams.groundTruth }.values.compactMap { $0.min() }.min()
        var result = EvaluationResult(metric: "APE translation after position+yaw alignment (m)", statistics: posyaw.apeTranslation)
        result.metrics = [
            "ape_posyaw_rmse_m": posyaw.apeTranslation.rmse,
            "ape_se3_rmse_m": se3.apeTranslation.rmse,
            "rpe\(rpe)_translation_rmse_m": posyaw.rpeTranslation.rmse,
            "rpe\(rpe)_rotation_rmse_deg": posyaw.rpeRotationDegrees.rmse,
            "poses": Double(estimateCount),
            "pairs": Double(posyaw.pairs),
        ]
        // A rotation APE after an alignment whose rotation the motion does not determine (a
        // platform standing still, a straight line) measures the alignment: left out, and said.
        if se3.alignmentRotationDetermined { result.metrics["ape_rotation_se3_rmse_deg"] = se3.apeRotationDegrees.rmse }
        if let first = firstNormal, let start = datasetStart { result.metrics["first_pose_s"] = first.seconds(since: start) }
        if let meanNEES { result.metrics["nees_position_mean"] = meanNEES }
        result.series = series.apeTranslation
        result.seriesTimes = series.times
        // The aligned estimate over the truth, from above and axis by axis (position+yaw aligned).
        result.plots = [
            "path": SVGPlot.path(reference: series.referencePositions, estimate: series.alignedPositions,
                                 title: "\(stream) over the ground truth, from above (position+yaw aligned)"),
            "position": SVGPlot.positionAxes(times: series.times, reference: series.referencePositions, estimate: series.alignedPositions,
                                             title: "\(stream): position per axis (truth lighter)"),
            "attitude": SVGPlot.attitudeAxes(times: series.times, reference: series.referenceRotations, estimate: series.alignedRotations,
                                             title: "\(stream): roll, pitch, yaw (truth lighter)"),
        ]
        let rotation = se3.alignmentRotationDetermined
            ? String(format: "%.2f°", se3.apeRotationDegrees.rmse)
            : String(format: "rotation undetermined by the motion (the alignment could turn %.0f°; the truth spans %.4g m)",
                     se3.alignmentRotationUncertaintyDegrees, se3.referenceExtent)
        var note = String(format: "%@: %d poses, APE pos+yaw %.4f m, SE3 %.4f m / %@, RPE(%d) %.4f m / %.3f°", stream, estimateCount,
                          posyaw.apeTranslation.rmse, se3.apeTranslation.rmse, rotation, rpe,
                          posyaw.rpeTranslation.rmse, posyaw.rpeRotationDegrees.rmse)
        if let first = result.metrics["first_pose_s"] { note += String(format: ", first pose at %.2f s", first) }
        if let meanNEES { note += String(format: ", position NEES %.2f (3 = consistent)", meanNEES) }
        if neesUnanchored {
            note += meanNEES == nil ? ", no position NEES (the truth does not cover the pose where the estimator fixed its position and yaw)"
                : " (stretches whose gauge pose the truth does not cover left out)"
        }
        if posyaw.pairs < estimateCount { note += ", truth for \(posyaw.pairs) of \(estimateCount) poses" }
        if scores.count > 1 {
            let starts = segments.dropFirst().compactMap { $0.estimate.poses.first?.timestamp }
                .map { t in datasetStart.map { String(format: "%.2f s", t.seconds(since: $0)) } ?? "\(t.nanoseconds) ns" }
            note += "; \(scores.count) stretches: the estimator started again in a new frame at \(starts.joined(separator: ", ")), each stretch aligned on its own"
            result.metrics["stretches"] = Double(scores.count)
        }
        if short > 0 { note += "; \(short) pose(s) in stretches too short to align left out" }
        if se3DegenerateStretches > 0 {
            note += "; \(se3DegenerateStretches) stretch(es) on a line or standing still, where an SE3 alignment is undetermined: their SE3 figures are position+yaw aligned, their rotation left out of the SE3 rotation where another stretch determines it"
        }
        // Figures over a small part of the run describe that part only: said first.
        result.metrics["tracked_fraction"] = frames > 0 ? Double(total) / Double(frames) : 0
        var cautions: [String] = []
        if frames > 0, Double(total) < 0.5 * Double(frames) {
            let tracked = String(format: "only %d of %d frames tracked (%.0f %%)", total, frames, 100 * Double(total) / Double(frames))
            note = tracked + ": " + note
            cautions.append(tracked)
        }
        if restarts > 0 { cautions.append("the estimator started again in a new frame \(restarts) time(s); \(scores.count) stretch(es) long enough to align, each on its own") }
        result.caution = cautions.isEmpty ? nil : cautions.joined(separator: "; ")
        result.note = note
        return result
    }

    /// One stretch of the estimate in one frame (between resets) and its covariances.
    struct Segment {
        var estimate: Trajectory
        var covariances: [Timestamp: Matrix] = [:]
    }

    /// A stretch's evaluations: position+yaw aligned (with its series) and SE3 aligned (with its
    /// per-pose position errors), and its NEES values.
    struct Score {
        var posyaw: TrajectoryEvaluation
        var series: TrajectoryEvaluation.Series
        var se3: TrajectoryEvaluation
        var se3Errors: [Double]
        var nees: [Double]

        /// The stretches' evaluations as one: APE statistics of all the per-pose `errors`, the
        /// other RMSEs pooled by their counts, the rotation APE over the stretches whose
        /// alignment determines it (undetermined only where none does), pairs summed.
        static func pooled(_ first: TrajectoryEvaluation, _ rest: [TrajectoryEvaluation], errors: [Double]) -> TrajectoryEvaluation {
            guard !rest.isEmpty else { return first }
            var whole = first
            let parts = [first] + rest
            func rms(_ s: [ErrorStatistics]) -> ErrorStatistics {
                let n = s.reduce(0) { $0 + $1.count }
                var e = ErrorStatistics([])
                e.count = n
                e.rmse = n == 0 ? 0 : (s.reduce(0) { $0 + Double($1.count) * $1.rmse * $1.rmse } / Double(n)).squareRoot()
                return e
            }
            // The rotation over the stretches whose alignment determines it (a stretch standing
            // still beside a moving one would leave the whole undetermined), else over all.
            let determined = parts.filter(\.alignmentRotationDetermined)
            let rotated = determined.isEmpty ? parts : determined
            whole.apeTranslation = ErrorStatistics(errors)
            whole.apeRotationDegrees = rms(rotated.map(\.apeRotationDegrees))
            whole.rpeTranslation = rms(parts.map(\.rpeTranslation))
            whole.rpeRotationDegrees = rms(parts.map(\.rpeRotationDegrees))
            whole.pairs = parts.reduce(0) { $0 + $1.pairs }
            whole.alignmentRotationUncertaintyDegrees = rotated.map(\.alignmentRotationUncertaintyDegrees).max() ?? 0
            whole.referenceExtent = rotated.map(\.referenceExtent).min() ?? 0
            return whole
        }
    }

    /// Position NEES `dᵀ Σ⁻¹ d` of each estimate that carries a covariance `Σ` (its top-left 3×3
    /// block, world frame), in the estimator's own gauge: a visual-inertial estimator cannot observe
    /// its position and yaw, so it fixes them where it starts, and its covariance measures how
    /// far it has drifted since. The estimate is therefore aligned to the reference at that pose
    /// (the one whose position covariance is smallest, the earliest of equals: the first pose,
    /// unless the estimator reports poses from before its gauge, as `vio` does for a camera
    /// stamping early), by the position and the yaw rotation (about the vertical) that take it
    /// onto the reference there (as OpenVINS's simulations start the filter at the truth), and
    /// `d` is the aligned error rotated back into the estimator's frame. A whole-trajectory
    /// alignment would instead spread the drift over the run, leaving errors at the start, where
    /// the filter rightly claims to know its position to a fraction of a millimetre. Estimates
    /// with no reference within 20 ms, or a singular block, are skipped.
    static func positionNEES(_ estimate: Trajectory, covariances: [Timestamp: Matrix], reference: Trajectory) -> [Double] {
        let gap = Nanoseconds(20_000_000)
        func trace(_ p: StampedPose) -> Double {
            guard let c = covariances[p.timestamp], c.rows >= 3, c.columns >= 3 else { return .infinity }
            return c[0, 0] + c[1, 1] + c[2, 2]
        }
        var gauge = estimate.poses.first
        for p in estimate.poses where trace(p) < gauge.map(trace) ?? .infinity { gauge = p }
        guard let first = gauge, let start = reference.pose(at: first.timestamp, maxGap: gap) else { return [] }
        // The yaw that best takes the estimate's attitude there onto the reference's: the angle
        // of ΔR = R_ref R_estᵀ about z.
        let delta = (start.rotation * first.pose.rotation.inverse).matrix
        let yaw = atan2(delta[1, 0] - delta[0, 1], delta[0, 0] + delta[1, 1])
        let referenceFromEstimate = SO3.exp(Vector3(0, 0, yaw))
        var nees: [Double] = []
        for p in estimate.poses {
            guard let c = covariances[p.timestamp], let truth = reference.pose(at: p.timestamp, maxGap: gap),
                  let inverse = (try? Matrix3(c.block(row: 0, column: 0, rows: 3, columns: 3)))?.inverse else { continue }
            let aligned = referenceFromEstimate * (p.pose.translation - first.pose.translation) + start.translation
            let d = referenceFromEstimate.inverse * (aligned - truth.translation)
            nees.append(d.dot(inverse * d))
        }
        return nees
    }
}
