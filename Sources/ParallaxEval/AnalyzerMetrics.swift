import Foundation
import ParallaxPayloads
import ParallaxMath

/// Accuracy metrics of the non-trajectory analyzers, in one place, with the definitions the
/// benchmarks of each field use.
public enum AnalyzerMetrics {
    /// Endpoint errors ‖(u, v) − (u*, v*)‖ (px) of sparse flow against ground truth; pairs
    /// whose ground truth is unknown (nil) are skipped. Statistics as ``ErrorStatistics``.
    public static func endpointErrors(predicted: [Vector2], groundTruth: [Vector2?]) -> [Double] {
        zip(predicted, groundTruth).compactMap { p, g in g.map { (p - $0).norm } }
    }

    /// Fraction of endpoint errors below `threshold` px (e.g. 0.5).
    public static func fraction(_ errors: [Double], below threshold: Double) -> Double {
        errors.isEmpty ? 0 : Double(errors.filter { $0 < threshold }.count) / Double(errors.count)
    }

    /// An axis-aligned box in pixels (the shared ``BoundingBox`` payload).
    public typealias Box = BoundingBox

    /// OTB one-pass evaluation of a tracker.
    public struct TrackingScore: Sendable, Codable, Equatable {
        /// Area under the success curve: mean over IoU thresholds 0, 0.05, …, 1 of the fraction
        /// of frames with IoU > threshold.
        public var successAUC: Double
        /// The success curve: at each of ``successThresholds``, the fraction of frames with IoU
        /// above it (OTB's success plot).
        public var successRates: [Double]
        /// Fraction of frames whose centre error is ≤ 20 px.
        public var precisionAt20: Double
        public var frames: Int
    }

    /// OTB's IoU thresholds of the success curve: 0, 0.05, …, 1.
    public static let successThresholds = (0...20).map { Double($0) / 20 }

    /// Scores predicted boxes against ground truth, frame by frame. A lost target (nil
    /// prediction) counts as IoU 0 and infinite centre error.
    public static func tracking(predicted: [Box?], groundTruth: [Box]) -> TrackingScore {
        let n = min(predicted.count, groundTruth.count)
        guard n > 0 else { return TrackingScore(successAUC: 0, successRates: successThresholds.map { _ in 0 }, precisionAt20: 0, frames: 0) }
        let ious = (0..<n).map { predicted[$0]?.iou(groundTruth[$0]) ?? 0 }
        let centers = (0..<n).map { i in predicted[i].map { ($0.center - groundTruth[i].center).norm } ?? .infinity }
        let success = successThresholds.map { t in Double(ious.filter { $0 > t }.count) / Double(n) }
        return TrackingScore(successAUC: success.reduce(0, +) / Double(success.count), successRates: success,
                             precisionAt20: Double(centers.filter { $0 <= 20 }.count) / Double(n), frames: n)
    }

    /// Head-pose angles (deg).
    public struct EulerAngles: Sendable, Codable, Equatable {
        public var pitch: Double, yaw: Double, roll: Double
        public init(pitch: Double, yaw: Double, roll: Double) { self.pitch = pitch; self.yaw = yaw; self.roll = roll }
    }

    /// Mean absolute error per axis and their mean (deg), differences wrapped to (−180, 180].
    public static func headPoseMAE(predicted: [EulerAngles], groundTruth: [EulerAngles]) -> (pitch: Double, yaw: Double, roll: Double, mean: Double) {
        let n = Double(min(predicted.count, groundTruth.count))
        guard n > 0 else { return (0, 0, 0, 0) }
        func wrap(_ d: Double) -> Double { var a = d.truncatingRemainder(dividingBy: 360); if a > 180 { a -= 360 }; if a <= -180 { a += 360 }; return abs(a) }
        var p = 0.0, y = 0.0, r = 0.0
        for (a, b) in zip(predicted, groundTruth) {
            p += wrap(a.pitch - b.pitch); y += wrap(a.yaw - b.yaw); r += wrap(a.roll - b.roll)
        }
        return (p / n, y / n, r / n, (p + y + r) / (3 * n))
    }

    /// Dense depth/disparity accuracy over pixels with valid ground truth.
    public struct DepthScore: Sendable, Codable, Equatable {
        /// Fraction of valid-GT pixels whose error exceeds the threshold, or whose prediction is
        /// invalid (Middlebury's convention), per threshold.
        public var badFractions: [Double]
        public var thresholds: [Double]
        /// Mean |prediction − GT| over pixels where both are valid.
        public var averageAbsoluteError: Double
        /// Valid-GT pixels, and how many of them have no prediction.
        public var validPixels: Int
        public var missingPredictions: Int
    }

    /// Bad-pixel rates (e.g. thresholds [1, 2] px for Middlebury's bad-1.0 and bad-2.0).
    /// NaN marks invalid pixels in both inputs; sizes must match.
    public static func depth(predicted: [Float], groundTruth: [Float], thresholds: [Double]) -> DepthScore {
        precondition(predicted.count == groundTruth.count, "depth metrics need equally sized maps")
        var bad = [Int](repeating: 0, count: thresholds.count)
        var valid = 0, missing = 0, sum = 0.0, both = 0
        for (p, g) in zip(predicted, groundTruth) where !g.isNaN {
            valid += 1
            guard !p.isNaN else {
                missing += 1
                for k in bad.indices { bad[k] += 1 }
                continue
            }
            let e = Double(abs(p - g))
            sum += e
            both += 1
            for (k, t) in thresholds.enumerated() where e > t { bad[k] += 1 }
        }
        return DepthScore(badFractions: bad.map { valid > 0 ? Double($0) / Double(valid) : 0 }, thresholds: thresholds,
                          averageAbsoluteError: both > 0 ? sum / Double(both) : 0, validPixels: valid, missingPredictions: missing)
    }
}
