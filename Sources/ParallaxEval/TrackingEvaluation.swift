import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets

/// `tracking` (OTB and VOT sequences, `parallax simulate --scene object`): the boxes of object 1
/// (``TrackedObjects``, id 1) against the sequence's ground truth, as OTB's one-pass evaluation
/// scores them — success AUC over IoU thresholds 0, 0.05, …, 1 and precision at 20 px — over
/// the frames where the object is visible; a frame the tracker reports lost (or does not
/// report) counts as a miss. The main statistics are of the overlap error 1 − IoU.
///
/// And whether the confidence can be trusted, from the frames where the ground truth says the
/// object is absent (fully covered or out of view): the share of them reported lost, the frames
/// from each disappearance until the tracker says lost (`lost_latency_max_frames`; the length of
/// the absence + 1 when it never does), and from each return until it tracks the object again
/// with IoU ≥ 0.5 (`recovery_latency_max_frames`); and how well the confidence predicts a box
/// on the object (IoU ≥ 0.5, whatever the state): the expected calibration error over ten bins
/// of confidence (`confidence_ece`: Σ_bins |share right − mean confidence| · frames / all frames).
public struct TrackingEvaluation: Evaluation {
    public static let name = "tracking"
    public static let summary = "tracked boxes vs the sequence's true boxes: OTB success AUC and precision@20, lost/recovery latency (OTB/VOT/simulated)"
    public init() {}

    /// IoU a tracked box needs to count as having the object again after an absence.
    public static let recoveredIoU = 0.5

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        guard let truthSource = input.dataset.provider((any BoxTruthProviding).self) else {
            throw EvaluationError.needs(evaluation: Self.name, what: "a tracking sequence with true boxes (OTB, VOT, or parallax simulate --scene object)")
        }
        let truth = truthSource.boxTruth
        var reported: [Timestamp: TrackedObject] = [:]
        var streams = Set<String>()
        for p in input.outputs {
            guard let objects = p.payload as? TrackedObjects else { continue }
            streams.insert(p.stream)
            if let first = objects.objects.first(where: { $0.id == 1 }) { reported[p.timestamp] = first }
        }
        guard streams.count <= 1 else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "several streams of tracked objects (\(streams.sorted().joined(separator: ", "))); run one tracker")
        }
        guard !reported.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "no tracked object 1 in the outputs (run track-object)")
        }
        let score = Self.score(truth: truth.map(\.box), reported: truth.map { reported[$0.timestamp] })
        guard score.tracking.frames > 0 else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "the sequence has no frame with a true box")
        }
        var result = EvaluationResult(metric: "overlap error 1 − IoU", statistics: ErrorStatistics(score.overlapErrors))
        let t0 = truth.first?.timestamp ?? Timestamp(nanoseconds: 0)
        result.series = score.overlapErrors
        result.seriesTimes = truth.compactMap { $0.box == nil ? nil : $0.timestamp.seconds(since: t0) }
        result.metrics = ["success_auc": score.tracking.successAUC, "precision_at_20px": score.tracking.precisionAt20,
                          "frames_scored": Double(score.tracking.frames), "absent_frames": Double(score.absentFrames),
                          "absent_reported_lost": score.absentReportedLost, "lost_latency_max_frames": Double(score.lostLatencies.max() ?? 0),
                          "recovery_latency_max_frames": Double(score.recoveryLatencies.max() ?? 0),
                          "confidence_ece": score.calibrationError]
        let absence = score.absentFrames == 0 ? "the object never absent"
            : String(format: "%d absent frame(s), %.0f %% reported lost; lost after %@ frame(s), tracking again after %@ frame(s) per absence",
                     score.absentFrames, 100 * score.absentReportedLost,
                     score.lostLatencies.map(String.init).joined(separator: ", ").ifEmpty("—"),
                     score.recoveryLatencies.map(String.init).joined(separator: ", ").ifEmpty("—"))
        result.note = String(format: "success AUC %.3f, precision@20 %.3f over %d visible frames; ", score.tracking.successAUC,
                             score.tracking.precisionAt20, score.tracking.frames) + absence
        result.plots = ["success": SVGPlot.plot([SVGPlot.Series(label: String(format: "AUC %.3f", score.tracking.successAUC), color: "#1f77b4",
                                                                points: Array(zip(AnalyzerMetrics.successThresholds, score.tracking.successRates)))],
                                                title: "Success plot (OTB one-pass)", xLabel: "overlap threshold (IoU)", yLabel: "success rate",
                                                spanning: [(0, 0), (1, 1)])]
        return result
    }

    /// What ``score(truth:reported:)`` finds.
    public struct Score: Sendable, Equatable {
        public var tracking: AnalyzerMetrics.TrackingScore
        /// 1 − IoU per visible frame (1 where the object is reported lost).
        public var overlapErrors: [Double]
        public var absentFrames: Int
        /// Share of the absent frames reported lost (1 when there are none).
        public var absentReportedLost: Double
        /// Per absence: frames from its first until the first reported lost (its length + 1 if none).
        public var lostLatencies: [Int]
        /// Per return after an absence: frames until tracked with IoU ≥ 0.5 (the visible run's
        /// length + 1 if never).
        public var recoveryLatencies: [Int]
        /// Expected calibration error of the confidence as the chance that the box is on the
        /// object (IoU ≥ 0.5), over the frames after the first reported one, ten bins.
        public var calibrationError: Double
    }

    /// Scores one object: per frame its true box (`nil`: absent) and what the tracker reported
    /// (`nil`: nothing that frame).
    public static func score(truth: [BoundingBox?], reported: [TrackedObject?]) -> Score {
        let n = min(truth.count, reported.count)
        var predicted: [BoundingBox?] = [], groundTruth: [BoundingBox] = []
        var absent = 0, absentLost = 0
        var lost: [Int] = [], recovered: [Int] = []
        var k = 0
        func tracks(_ i: Int) -> BoundingBox? { reported[i].flatMap { $0.state == .normal ? $0.box : nil } }
        while k < n {
            // A run of frames that are all visible or all absent.
            let visible = truth[k] != nil
            var end = k
            while end < n, (truth[end] != nil) == visible { end += 1 }
            if visible {
                for i in k..<end {
                    predicted.append(tracks(i))
                    if let g = truth[i] { groundTruth.append(g) }
                }
                if k > 0 {
                    let first = (k..<end).first { i in tracks(i).map { b in truth[i].map { b.iou($0) >= recoveredIoU } ?? false } ?? false }
                    recovered.append(first.map { $0 - k } ?? end - k + 1)
                }
            } else {
                absent += end - k
                absentLost += (k..<end).filter { tracks($0) == nil }.count
                if k > 0 { lost.append(((k..<end).first { tracks($0) == nil }).map { $0 - k } ?? end - k + 1) }
            }
            k = end
        }
        let ious = zip(predicted, groundTruth).map { p, g in p?.iou(g) ?? 0 }
        // Calibration: every reported frame but the first (the start box, confidence 1 by definition).
        var bins = [(count: Int, right: Int, confidence: Double)](repeating: (0, 0, 0), count: 10)
        var calibrated = 0
        for i in 0..<n {
            guard let r = reported[i] else { continue }
            calibrated += 1
            guard calibrated > 1 else { continue }
            let b = min(9, max(0, Int(r.confidence * 10)))
            let right = truth[i].map { r.box.iou($0) >= recoveredIoU } ?? false
            bins[b].count += 1
            bins[b].right += right ? 1 : 0
            bins[b].confidence += r.confidence
        }
        let binned = bins.reduce(0) { $0 + $1.count }
        let ece = binned == 0 ? 0 : bins.filter { $0.count > 0 }.reduce(0.0) { total, b in
            total + abs(Double(b.right) / Double(b.count) - b.confidence / Double(b.count)) * Double(b.count)
        } / Double(binned)
        return Score(tracking: AnalyzerMetrics.tracking(predicted: predicted, groundTruth: groundTruth), overlapErrors: ious.map { 1 - $0 },
                     absentFrames: absent, absentReportedLost: absent == 0 ? 1 : Double(absentLost) / Double(absent),
                     lostLatencies: lost, recoveryLatencies: recovered, calibrationError: ece)
    }
}

private extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}
