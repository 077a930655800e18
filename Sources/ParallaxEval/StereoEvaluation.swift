import Foundation
import ParallaxPayloads
import ParallaxDatasets
import ParallaxImage
import ParallaxBus

/// `stereo` (Middlebury, KITTI: datasets with disparity truth): each disparity map a run emits
/// for the truth's camera (`cam0/disparity`, ``DepthMap`` of kind pixel disparity) against the
/// truth of its frame, as the benchmarks score: over the pixels with known truth, the share
/// whose prediction is missing or off by more than 1, 2 and 4 px (bad-1.0/2.0/4.0, %, an
/// invalid prediction counting as bad) and the average error of the valid predictions (px);
/// once over all those pixels and once over the non-occluded ones, when the benchmark marks
/// them. Totals weigh every pixel alike; per pair in the note. The statistics are of the
/// absolute errors of all valid predictions (px).
///
/// Images per pair (written beside the bench report): the disparity through turbo (0 … the
/// truth's largest disparity; black: no prediction), and the error: black where the truth is
/// unknown, white where a known pixel has no prediction, else turbo of `|error|` from 0 to 4 px
/// (blue: exact, red: 4 px or more).
public struct StereoEvaluation: Evaluation {
    public static let name = "stereo"
    public static let summary = "disparity maps vs the benchmark's truth (Middlebury, KITTI): bad-1/2/4 (%), average error (px), all and non-occluded"
    public init() {}

    /// Scores of one region of one or more pairs.
    public struct Scores: Sendable, Equatable {
        /// Pixels with known truth.
        public var known = 0
        /// Of those, without a prediction.
        public var invalid = 0
        /// Of those, bad at 1, 2 and 4 px (invalid included).
        public var bad: [Int] = [0, 0, 0]
        /// Sum of the absolute errors of the valid predictions (px), and their count.
        public var errorSum = 0.0
        public var valid = 0

        public init() {}

        /// The thresholds of ``bad`` (px).
        public static let thresholds: [Float] = [1, 2, 4]

        /// Adds pixel `i`'s truth `t` and prediction `p` (either NaN: unknown / none).
        mutating func add(truth t: Float, prediction p: Float) {
            guard t.isFinite else { return }
            known += 1
            guard p.isFinite else {
                invalid += 1
                for k in bad.indices { bad[k] += 1 }
                return
            }
            let e = abs(p - t)
            valid += 1
            errorSum += Double(e)
            for (k, threshold) in Self.thresholds.enumerated() where e > threshold { bad[k] += 1 }
        }

        static func + (a: Scores, b: Scores) -> Scores {
            var s = a
            s.known += b.known
            s.invalid += b.invalid
            s.bad = zip(a.bad, b.bad).map { $0 + $1 }
            s.errorSum += b.errorSum
            s.valid += b.valid
            return s
        }

        /// bad-`threshold` in percent of the known pixels.
        public func badPercent(_ k: Int) -> Double { known > 0 ? 100 * Double(bad[k]) / Double(known) : .nan }
        public var invalidPercent: Double { known > 0 ? 100 * Double(invalid) / Double(known) : .nan }
        public var averageError: Double { valid > 0 ? errorSum / Double(valid) : .nan }
    }

    /// The scores of `prediction` against `truth` over all known pixels and over the
    /// non-occluded ones (`nil` when the truth does not mark them); the absolute errors of the
    /// valid predictions appended to `errors` (px).
    public static func score(_ prediction: ImageBuffer<Float>, truth: DisparityTruth, errors: inout [Double]) -> (all: Scores, nonOccluded: Scores?) {
        var all = Scores()
        var nonOccluded = truth.nonOccluded.map { _ in Scores() }
        for (i, t) in truth.disparity.samples.enumerated() {
            let p = prediction.samples[i]
            all.add(truth: t, prediction: p)
            if let mask = truth.nonOccluded, mask[i] { nonOccluded?.add(truth: t, prediction: p) }
            if p.isFinite && t.isFinite { errors.append(Double(abs(p - t))) }
        }
        return (all, nonOccluded)
    }

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        guard let dataset = input.dataset.provider((any DisparityTruthProviding).self) else {
            throw EvaluationError.needs(evaluation: Self.name, what: "a dataset with disparity truth (a Middlebury or KITTI stereo folder)")
        }
        let camera = dataset.disparityTruthCamera
        var total = Scores(), totalNonOccluded: Scores?
        var errors: [Double] = [], notes: [String] = []
        var images: [String: ImageBuffer<UInt8>] = [:]
        var withoutTruth = 0
        for packet in input.outputs {
            guard let map = packet.payload as? DepthMap, map.kind == .pixelDisparity, map.sensorID == camera else { continue }
            guard let truth = try dataset.disparityTruth(at: packet.timestamp) else { withoutTruth += 1; continue }
            guard map.values.width == truth.disparity.width, map.values.height == truth.disparity.height else {
                throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "the disparity of \(packet.stream) at \(packet.timestamp.nanoseconds) ns is "
                                                        + "\(map.values.width)×\(map.values.height), its truth (\(truth.file)) \(truth.disparity.width)×\(truth.disparity.height)")
            }
            let (all, nonOccluded) = Self.score(map.values, truth: truth, errors: &errors)
            total = total + all
            if let nonOccluded { totalNonOccluded = (totalNonOccluded ?? Scores()) + nonOccluded }
            let pair = ((truth.file as NSString).lastPathComponent as NSString).deletingPathExtension
            let tag = "\(notes.count)"
            notes.append(String(format: "%@ (%@): bad-2.0 %.2f %%, avg %.3f px", tag, pair, all.badPercent(1), all.averageError)
                         + (nonOccluded.map { String(format: "; non-occluded %.2f %%, %.3f px", $0.badPercent(1), $0.averageError) } ?? ""))
            let largest = truth.disparity.samples.filter(\.isFinite).max() ?? 1
            images["disparity-\(tag)"] = Colormap.turbo(map.values, range: 0...Double(max(largest, 1)))
            images["error-\(tag)"] = Self.errorImage(map.values, truth: truth.disparity)
        }
        guard total.known > 0 else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "no '\(camera)' disparity map (a stereo-depth output) met a frame with known truth"
                                                    + (withoutTruth > 0 ? " (\(withoutTruth) maps at frames without truth)" : ""))
        }
        var result = EvaluationResult(metric: "|disparity − truth| of the valid predictions (px)", statistics: ErrorStatistics(errors))
        var metrics: [String: Double] = [:]
        for (region, scores) in [("all", total), ("nonocc", totalNonOccluded)] {
            guard let scores else { continue }
            for (k, threshold) in Scores.thresholds.enumerated() { metrics["bad\(Int(threshold)).0_\(region)_percent"] = scores.badPercent(k) }
            metrics["avg_error_\(region)_px"] = scores.averageError
            metrics["invalid_\(region)_percent"] = scores.invalidPercent
        }
        result.metrics = metrics
        result.note = notes.joined(separator: "; ")
        result.images = images
        return result
    }

    /// The error image: black where the truth is unknown, white where a known pixel has no
    /// prediction, else turbo of `|prediction − truth|` over 0…4 px.
    public static func errorImage(_ prediction: ImageBuffer<Float>, truth: ImageBuffer<Float>) -> ImageBuffer<UInt8> {
        ErrorImage.render(prediction, truth: truth) { p, t in Double(abs(p - t)) / 4 }
    }
}
