import ParallaxPayloads
import ParallaxMath
import ParallaxBus

/// `gyro-rotation`: each ``FrameRotation`` (from `imu-integrator`) against the ground-truth
/// rotation between the same two frames; error angle in degrees.
public struct GyroRotationEvaluation: Evaluation {
    public static let name = "gyro-rotation"
    public static let summary = "gyro rotation between frames vs the ground-truth rotation (deg)"
    public init() {}

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        let gt = try input.requireGroundTruth(for: Self.name)
        var errors: [Double] = [], times: [Double] = [], rotations = 0
        for p in input.outputs {
            guard let r = p.payload as? FrameRotation else { continue }
            rotations += 1
            let t1 = p.timestamp.seconds
            guard let a = gt.pose(at: t1 - r.interval), let b = gt.pose(at: t1) else { continue }
            let truth = a.rotation.inverse * b.rotation
            errors.append((SO3.exp(r.rotationVector).inverse * truth).angle * 180 / .pi)
            times.append(t1)
        }
        // Nothing compared is a failure with its reason, never rmse 0 over n = 0.
        guard !errors.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: rotations == 0
                ? "no frame rotation in the outputs (run imu-integrator)"
                : "none of the \(rotations) frame rotation(s) falls in the ground truth's time span")
        }
        var result = EvaluationResult(metric: "gyro rotation between frames vs ground truth (deg)", statistics: ErrorStatistics(errors))
        let t0 = times.first ?? 0
        result.series = errors
        result.seriesTimes = times.map { $0 - t0 }
        return result
    }
}
