import ParallaxBus
import ParallaxPayloads
import ParallaxEval

/// How much the brightness jumps from one frame to the next (gray levels): an evaluation of the
/// plugin's own, registered by its bundle, so `bench --evaluate brightness-flicker` scores a run
/// with it and records it like any built-in evaluation.
public struct BrightnessFlicker: Evaluation {
    public static let name = "brightness-flicker"
    public static let summary = "change of a camera's mean brightness from one frame to the next (gray levels; example plugin)"
    public init() {}

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        var previous: [String: Double] = [:]
        var jumps: [Double] = [], times: [Double] = []
        for packet in input.outputs {
            guard let b = packet.payload as? Brightness else { continue }
            if let last = previous[packet.stream] {
                jumps.append(abs(b.mean - last))
                times.append(packet.timestamp.seconds)
            }
            previous[packet.stream] = b.mean
        }
        // Nothing compared is a failure with its reason, never a flicker of 0 over no frames.
        guard !jumps.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: previous.isEmpty
                ? "no brightness in the outputs (run frame-brightness)" : "every camera gave one frame: no change to measure")
        }
        var result = EvaluationResult(metric: "frame-to-frame change of mean brightness (gray levels)", statistics: ErrorStatistics(jumps))
        result.series = jumps
        result.seriesTimes = times.map { $0 - (times.first ?? 0) }
        return result
    }
}
