import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxGeometry
import ParallaxMath

/// `head-pose` (AFLW2000-3D, `parallax simulate --scene face`): each face's reported pose
/// (``FacePoses`` on `faceN/pose`) against the dataset's truth for `faceN`, as head-pose
/// benchmarks score it: the mean absolute error of pitch, yaw and roll (degrees, ``HeadAngles``'
/// convention, differences wrapped to ±180°) over the frames with truth; a frame without a pose
/// is counted (`no_pose`), not scored. The main statistics are of the per-frame mean of the three
/// errors. The signed means (`bias_pitch_deg`, `bias_yaw_deg`, `bias_roll_deg`: estimate − truth)
/// show a bias that the absolute errors hide. Also: the rotation angle between reported and true head rotation (`geodesic_*`),
/// poses more than 90° off (`flipped`, a mirrored solution), and where the truth has them
/// (simulated faces), the head position error (mm) and each eye's line-of-sight error (degrees,
/// frames where the eyes were measured).
///
/// Faces found in pixels (`face-landmarks`' ``DetectedFaces`` in the outputs): each true face is
/// the detected face whose box overlaps the box of its true landmarks most (IoU ≥ 0.25; none:
/// not found, no pose), scored by its pose (the ``FacePose`` with its id) and its landmarks: the
/// mean landmark distance over √(w·h) of the true landmarks' box (`landmark_nme_box`), and
/// `faces_found`.
public struct HeadPoseEvaluation: Evaluation {
    public static let name = "head-pose"
    public static let summary = "head pitch/yaw/roll vs the truth: MAE per axis (°), flips, position and gaze errors (AFLW2000-3D, simulated faces)"
    public init() {}

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        guard let truthSource = input.dataset.provider((any FaceTruthProviding).self), !truthSource.faceTruth.isEmpty else {
            throw EvaluationError.needs(evaluation: Self.name, what: "faces with true poses (AFLW2000-3D, or parallax simulate --scene face)")
        }
        // Outputs grouped by their stream's first component: `face0/pose` is face0's,
        // `cam0/faces` (detections) and `cam0/pose` (their poses) are cam0's.
        func group(_ stream: String) -> String { String(stream.split(separator: "/").first ?? Substring(stream)) }
        var poses: [String: [Timestamp: [FacePose]]] = [:]
        var detections: [Timestamp: [(group: String, face: DetectedFace)]] = [:]
        for p in input.outputs {
            if let found = p.payload as? DetectedFaces { detections[p.timestamp, default: []] += found.faces.map { (group(p.stream), $0) } }
            if let found = p.payload as? FacePoses { poses[group(p.stream), default: [:]][p.timestamp, default: []] += found.faces }
        }
        let reported = poses.mapValues { $0.compactMapValues(\.first) }
        guard !poses.isEmpty || !detections.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "no face poses or detected faces in the outputs (run face-landmarks or face-pose)")
        }
        // Faces found in pixels (face-landmarks): each true face is the detected face whose box
        // overlaps its true landmarks' box most (IoU ≥ 0.25); its landmarks are scored too.
        var landmarkErrors: [Double] = [], found = 0, truthWithLandmarks = 0
        func matched(_ truth: FaceTruth) -> FacePose? {
            guard !detections.isEmpty, let points = truth.landmarks, !points.isEmpty else { return nil }
            truthWithLandmarks += 1
            let box = BoundingBox.enclosing(points)
            guard let best = (detections[truth.timestamp] ?? []).max(by: { $0.face.box.iou(box) < $1.face.box.iou(box) }), best.face.box.iou(box) >= 0.25 else { return nil }
            found += 1
            if best.face.landmarks.points.count == points.count {
                let scale = (box.width * box.height).squareRoot()
                landmarkErrors.append(zip(best.face.landmarks.points, points).map { ($0 - $1).norm }.reduce(0, +) / Double(points.count) / scale)
            }
            // Its pose: the one with its id among the poses of its own group (ids of other
            // streams may coincide).
            return poses[best.group]?[truth.timestamp]?.first { $0.faceID == best.face.id }
        }
        var pitch: [Double] = [], yaw: [Double] = [], roll: [Double] = [], mean: [Double] = [], geodesic: [Double] = []
        var signed: (pitch: [Double], yaw: [Double], roll: [Double]) = ([], [], [])
        var position: [Double] = [], gaze: [Double] = []
        var noPose = 0, flipped = 0, frames = 0
        var estimated: [HeadAngles] = []
        var times: [Double] = []
        let t0 = truthSource.faceTruth.values.compactMap { $0.first?.timestamp }.min() ?? Timestamp(nanoseconds: 0)
        for face in truthSource.faceTruth.keys.sorted() {
            let poses = reported[face]
            guard poses != nil || !detections.isEmpty else { continue }
            for truth in truthSource.faceTruth[face] ?? [] {
                frames += 1
                guard let pose = detections.isEmpty ? poses?[truth.timestamp] : matched(truth) else { noPose += 1; continue }
                estimated.append(pose.angles)
                guard let angles = truth.angles else { continue }
                let e = (HeadAngles.difference(pose.angles.pitch, angles.pitch), HeadAngles.difference(pose.angles.yaw, angles.yaw),
                         HeadAngles.difference(pose.angles.roll, angles.roll))
                pitch.append(abs(e.0)); yaw.append(abs(e.1)); roll.append(abs(e.2))
                signed.pitch.append(e.0); signed.yaw.append(e.1); signed.roll.append(e.2)
                mean.append((abs(e.0) + abs(e.1) + abs(e.2)) / 3)
                times.append(truth.timestamp.seconds(since: t0))
                let angle = (angles.cameraFromHead.inverse * pose.angles.cameraFromHead).angle * 180 / .pi
                geodesic.append(angle)
                if angle > 90 { flipped += 1 }
                if let anchor = truth.anchor {
                    position.append((pose.anchor.cameraFromHead.translation - anchor.cameraFromHead.translation).norm * 1000)
                    if pose.eyesMeasured {
                        for (a, b) in [(pose.anchor.leftEye, anchor.leftEye), (pose.anchor.rightEye, anchor.rightEye)] {
                            let da = a.rotation * Vector3(0, 0, 1), db = b.rotation * Vector3(0, 0, 1)
                            gaze.append(acos(max(-1, min(1, da.dot(db)))) * 180 / .pi)
                        }
                    }
                }
            }
        }
        func average(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.reduce(0, +) / Double(v.count) }
        var result: EvaluationResult
        var note: String
        if !mean.isEmpty {
            result = EvaluationResult(metric: "head angle error, mean of |pitch|, |yaw|, |roll| (°)", statistics: ErrorStatistics(mean))
            result.series = mean
            result.seriesTimes = times
            result.metrics = ["mae_pitch_deg": average(pitch), "mae_yaw_deg": average(yaw), "mae_roll_deg": average(roll), "mae_deg": average(mean),
                              "geodesic_mean_deg": average(geodesic), "geodesic_max_deg": geodesic.max() ?? 0, "flipped": Double(flipped),
                              "bias_pitch_deg": average(signed.pitch), "bias_yaw_deg": average(signed.yaw), "bias_roll_deg": average(signed.roll)]
            note = String(format: "MAE pitch %.2f°, yaw %.2f°, roll %.2f°, mean %.2f° over %d of %d frames; %d flipped (> 90°); signed mean pitch %+.2f°, yaw %+.2f°, roll %+.2f°",
                          average(pitch), average(yaw), average(roll), average(mean), mean.count, frames, flipped,
                          average(signed.pitch), average(signed.yaw), average(signed.roll))
        } else if !landmarkErrors.isEmpty {
            // Landmarks without poses (iBUG .pts folders): the landmark error is the score, and
            // the estimated angles are listed to be looked at.
            result = EvaluationResult(metric: "landmark error, mean distance / √(w·h) of the true landmarks' box", statistics: ErrorStatistics(landmarkErrors))
            note = "poses (pitch, yaw, roll °): " + estimated.prefix(12).map { String(format: "(%.0f, %.0f, %.0f)", $0.pitch, $0.yaw, $0.roll) }.joined(separator: " ")
                + (estimated.count > 12 ? " …" : "")
        } else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "no reported pose or found face at a frame with truth (\(frames) frames, \(noPose) without a pose)")
        }
        result.metrics["frames"] = Double(frames)
        result.metrics["no_pose"] = Double(noPose)
        if !position.isEmpty {
            result.metrics["position_mean_mm"] = average(position)
            note += String(format: "; position %.1f mm", average(position))
        }
        if truthWithLandmarks > 0 {
            result.metrics["faces_found"] = Double(found)
            note += String(format: "; faces found %d of %d", found, truthWithLandmarks)
            if !landmarkErrors.isEmpty {
                result.metrics["landmark_nme_box"] = average(landmarkErrors)
                note += String(format: ", landmark error %.2f %% of the box (√(w·h) of the true landmarks)", 100 * average(landmarkErrors))
            }
        }
        if !gaze.isEmpty {
            result.metrics["gaze_mean_deg"] = average(gaze)
            note += String(format: "; line of sight %.2f°", average(gaze))
        }
        result.note = note
        return result
    }
}
