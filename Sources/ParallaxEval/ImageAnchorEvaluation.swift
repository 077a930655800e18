import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxGeometry
import ParallaxMath

/// `image-anchor` (`parallax simulate --scene object`, whose folder holds the picture's true
/// pose per frame, ``PictureTruthFile``): `image-track`'s anchor of the picture against the
/// truth, per frame. The main statistics are the corner error (px: the mean distance of the
/// four reported corners from the true corners projected with the camera's calibration) over
/// the frames where at least half the picture is visible and it is tracked. Also: the rotation
/// error (° between reported and true `T_CP`) and position error (cm), the share of those
/// frames tracked (`recall`), frames tracked while the picture is fully out of view or hidden
/// (`tracked_when_hidden`), and the longest wait (frames) from the picture being half visible
/// again to its being tracked (`refind_frames_max`). For pictures anchored in the world
/// (`image-detect`, anchors with `T_WI`): the error of the anchor seen from the camera while the
/// picture is out of view (`anchored_position_median_cm`, `…_p90_cm`, `anchored_rotation_median_deg`,
/// over `anchored_frames`): that it stays where it is once it has left the view.
public struct ImageAnchorEvaluation: Evaluation {
    public static let name = "image-anchor"
    public static let summary = "known pictures vs their true pose: corner error (px), rotation (°) and position (cm) errors, recall, re-finding (simulated --scene object)"
    public init() {}

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        let truthFile = (input.datasetPath as NSString).appendingPathComponent(PictureTruthFile.fileName)
        guard FileManager.default.fileExists(atPath: truthFile) else {
            throw EvaluationError.needs(evaluation: Self.name, what: "a picture's true pose per frame (\(PictureTruthFile.fileName): parallax simulate --scene object)")
        }
        let truth = try PictureTruthFile.read(truthFile)
        let camera = input.dataset.streams.first { $0.type == PayloadType(CameraFrame.self) }?.metadata.camera?.model
        guard let camera else { throw EvaluationError.needs(evaluation: Self.name, what: "the camera's calibration (sensor.yaml beside the sequence)") }
        var reported: [Timestamp: ImageAnchor] = [:]
        for p in input.outputs {
            if let anchors = p.payload as? ImageAnchors, let first = anchors.anchors.first { reported[p.timestamp] = first }
        }
        guard !reported.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "no image anchors in the outputs (run image-track reference=DATASET/picture.png width=…)")
        }
        var corners: [Double] = [], rotations: [Double] = [], positions: [Double] = [], times: [Double] = []
        var visibleFrames = 0, trackedVisible = 0, hiddenFrames = 0, trackedHidden = 0
        var waiting: Int?, longestWait = 0, wasVisible = false
        var anchoredPositions: [Double] = [], anchoredRotations: [Double] = []
        let t0 = truth.first?.timestamp ?? Timestamp(nanoseconds: 0)
        for row in truth {
            let anchor = reported[row.timestamp]
            let tracked = anchor?.isTracked == true
            let visible = row.visibleFraction >= 0.5
            if row.visibleFraction == 0 { hiddenFrames += 1; if tracked { trackedHidden += 1 } }
            if visible && !wasVisible { waiting = 0 }
            wasVisible = visible
            if row.visibleFraction == 0, let anchor, anchor.worldFromImage != nil, !tracked {
                anchoredPositions.append((anchor.pose.translation - row.cameraFromPicture.translation).norm * 100)
                anchoredRotations.append((anchor.pose * row.cameraFromPicture.inverse).rotation.angle * 180 / .pi)
            }
            guard visible else { waiting = nil; continue }
            visibleFrames += 1
            if tracked {
                if let w = waiting { longestWait = max(longestWait, w) }
                waiting = nil
            } else if let w = waiting { waiting = w + 1 }
            guard tracked, let anchor, anchor.corners.count == 4 else { continue }
            trackedVisible += 1
            let hx = row.width / 2, hy = row.height / 2
            let true4 = [Vector3(-hx, -hy, 0), Vector3(hx, -hy, 0), Vector3(hx, hy, 0), Vector3(-hx, hy, 0)].compactMap { camera.project(row.cameraFromPicture * $0) }
            guard true4.count == 4 else { continue }
            corners.append(zip(anchor.corners, true4).map { ($0 - $1).norm }.reduce(0, +) / 4)
            rotations.append((anchor.pose * row.cameraFromPicture.inverse).rotation.angle * 180 / .pi)
            positions.append((anchor.pose.translation - row.cameraFromPicture.translation).norm * 100)
            times.append(row.timestamp.seconds(since: t0))
        }
        if let w = waiting { longestWait = max(longestWait, w) }
        guard !corners.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "the picture was never tracked while half visible (\(visibleFrames) such frames)")
        }
        let percentile = ErrorStatistics.percentile
        var result = EvaluationResult(metric: "corner error (px)", statistics: ErrorStatistics(corners))
        result.series = corners
        result.seriesTimes = times
        let recall = Double(trackedVisible) / Double(max(1, visibleFrames))
        result.metrics = ["recall": recall, "rotation_median_deg": percentile(rotations, 0.5), "rotation_p90_deg": percentile(rotations, 0.9),
                          "rotation_max_deg": rotations.max() ?? 0, "position_median_cm": percentile(positions, 0.5), "position_p90_cm": percentile(positions, 0.9),
                          "position_max_cm": positions.max() ?? 0, "tracked_when_hidden": Double(trackedHidden), "hidden_frames": Double(hiddenFrames),
                          "refind_frames_max": Double(longestWait)]
        if !anchoredPositions.isEmpty {
            result.metrics["anchored_frames"] = Double(anchoredPositions.count)
            result.metrics["anchored_position_median_cm"] = percentile(anchoredPositions, 0.5)
            result.metrics["anchored_position_p90_cm"] = percentile(anchoredPositions, 0.9)
            result.metrics["anchored_rotation_median_deg"] = percentile(anchoredRotations, 0.5)
        }
        result.note = String(format: "tracked in %.0f %% of %d half-visible frames; rotation median %.2f°, p90 %.2f°; position median %.2f cm, p90 %.2f cm; tracked in %d of %d hidden frames; re-found after at most %d frame(s)",
                             100 * recall, visibleFrames, percentile(rotations, 0.5), percentile(rotations, 0.9), percentile(positions, 0.5), percentile(positions, 0.9),
                             trackedHidden, hiddenFrames, longestWait)
        if !anchoredPositions.isEmpty {
            result.note = (result.note ?? "") + String(format: "; out of view, anchored: position median %.2f cm, p90 %.2f cm, rotation median %.2f° over %d frames",
                                  percentile(anchoredPositions, 0.5), percentile(anchoredPositions, 0.9), percentile(anchoredRotations, 0.5), anchoredPositions.count)
        }
        return result
    }
}
