import Foundation
import Testing
import ParallaxPayloads
@testable import ParallaxEval

/// The tracking evaluation's scores on hand-made sequences whose answers are known.
@Suite struct TrackingEvaluationTests {
    static let box = BoundingBox(x: 10, y: 10, width: 20, height: 20)
    static func tracked(_ b: BoundingBox) -> TrackedObject { TrackedObject(id: 1, box: b, confidence: 0.9, state: .normal) }
    static var lost: TrackedObject { TrackedObject(id: 1, box: box, confidence: 0.1, state: .notAvailable) }

    @Test func perfectHalfAndLostFrames() {
        // Frame 0 exact, frame 1 shifted by half its width (IoU 1/3), frame 2 reported lost.
        let shifted = BoundingBox(x: 20, y: 10, width: 20, height: 20)
        let s = TrackingEvaluation.score(truth: [Self.box, Self.box, Self.box], reported: [Self.tracked(Self.box), Self.tracked(shifted), Self.lost])
        #expect(s.tracking.frames == 3)
        // Success over thresholds 0, 0.05, …, 1: frame 0 passes all but 1.0 (IoU > t), frame 1 passes t < 1/3 (7 of 21).
        #expect(abs(s.tracking.successAUC - (20.0 + 7.0) / 21 / 3) < 1e-12)
        #expect(abs(s.tracking.precisionAt20 - 2.0 / 3) < 1e-12)
        #expect(s.overlapErrors.count == 3 && abs(s.overlapErrors[1] - 2.0 / 3) < 1e-12 && s.overlapErrors[2] == 1)
        #expect(s.absentFrames == 0 && s.absentReportedLost == 1 && s.lostLatencies.isEmpty && s.recoveryLatencies.isEmpty)
        // After the start: frame 1 (confidence 0.9, IoU 1/3: wrong) and frame 2 (0.1, lost, its
        // last box on the object: right) — each bin off by 0.9.
        #expect(abs(s.calibrationError - 0.9) < 1e-12)
    }

    @Test func aConfidenceThatSaysHowOftenTheBoxIsRightHasNoCalibrationError() {
        // Ten frames at confidence 0.75 (bin 0.7–0.8): three of four on the object would be 0.75.
        let miss = BoundingBox(x: 100, y: 100, width: 20, height: 20)
        var reported: [TrackedObject?] = [Self.tracked(Self.box)]
        for k in 0..<8 { reported.append(TrackedObject(id: 1, box: k < 6 ? Self.box : miss, confidence: 0.75, state: .normal)) }
        let s = TrackingEvaluation.score(truth: Array(repeating: Self.box, count: 9), reported: reported)
        #expect(abs(s.calibrationError) < 1e-12)
    }

    @Test func latenciesOfLosingAndFindingAgain() {
        // Visible 2 frames, absent 4 (still tracked for 2 of them), visible 5 (found again at the 3rd).
        let truth: [BoundingBox?] = [Self.box, Self.box, nil, nil, nil, nil, Self.box, Self.box, Self.box, Self.box, Self.box]
        let reported: [TrackedObject?] = [Self.tracked(Self.box), Self.tracked(Self.box), Self.tracked(Self.box), Self.tracked(Self.box),
                                          Self.lost, Self.lost, Self.lost, Self.tracked(BoundingBox(x: 80, y: 80, width: 20, height: 20)),
                                          Self.tracked(Self.box), Self.tracked(Self.box), nil]
        let s = TrackingEvaluation.score(truth: truth, reported: reported)
        #expect(s.absentFrames == 4 && s.absentReportedLost == 0.5)
        #expect(s.lostLatencies == [2] && s.recoveryLatencies == [2])
        #expect(s.tracking.frames == 7)
        // Never lost during an absence, never found after: the run's length + 1.
        let never = TrackingEvaluation.score(truth: [Self.box, nil, nil, Self.box], reported: [Self.tracked(Self.box), Self.tracked(Self.box), Self.tracked(Self.box), Self.lost])
        #expect(never.lostLatencies == [3] && never.recoveryLatencies == [2])
    }
}
