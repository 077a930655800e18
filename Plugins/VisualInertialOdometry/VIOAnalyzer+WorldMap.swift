import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxVision

/// The world-map side of ``VIOAnalyzer``: keyframes, relocalization into a loaded map, and the
/// updates by map points (docs/world-maps.md).
extension VIOAnalyzer {
    /// Whether the filter's frame is the map's: always without a loaded map (until a reset
    /// froze it), with one only once relocalized.
    var mapFrameIsValid: Bool { builder != nil && !mapFrozen && (localizer == nil || relocalized) }

    /// Whether a map was loaded and the filter is not yet in its frame: no pose is emitted.
    var isRelocalizing: Bool { localizer != nil && !relocalized }

    /// After the frame's updates: relocalizes (or looks for more map points every
    /// ``Options/mapSearchInterval`` frames), then adds a keyframe when the camera has moved
    /// enough. The frame is converted and described only in frames that need its descriptors.
    mutating func mapWork(_ f: inout MSCKF, tracks: FeatureTracks, frame: CameraFrame, stamp: Timestamp, time t: Double, context: inout AnalyzerContext) throws {
        guard builder != nil, let camera, !f.clones.isEmpty else { return }
        let newest = f.clones.count - 1
        var described: [BinaryDescriptor?]?
        func descriptors() -> [BinaryDescriptor?] {
            if let described { return described }
            let d = Self.extractor.describe(GrayImage(frame.image.luma), at: tracks.features.map(\.pixel))
            described = d
            return d
        }
        if let localizer {
            framesSinceMapSearch += 1
            if !relocalized || framesSinceMapSearch >= options.mapSearchInterval {
                framesSinceMapSearch = 0
                let odometryCamera = f.worldFromCamera(newest)
                let result = localizer.localize(pixels: tracks.features.map(\.pixel), query: descriptors(), camera: camera.model, tilt: odometryCamera.rotation)
                if case let .success(found) = result {
                    if !relocalized {
                        // The map frame from the odometry's: yaw and translation (both gravity-aligned).
                        let r = found.worldFromCamera.rotation.matrix * odometryCamera.rotation.matrix.transposed
                        let yaw = atan2(r[1, 0], r[0, 0])
                        let shift = found.worldFromCamera.translation - SO3.exp(Vector3(0, 0, yaw)) * odometryCamera.translation
                        try f.moveWorld(yaw: yaw, translation: shift, positionVariance: options.mapPointSigma * options.mapPointSigma / Double(found.inliers.count))
                        relocalized = true
                        relocalizationCount += 1
                        context.warn(String(format: "relocalized into %@ at %lld ns (%.3f s after the first IMU sample): %d inliers of %d matches, %.2f px RMS",
                                            options.map, stamp.nanoseconds, t, found.inliers.count, found.matches, found.rmsPixels))
                        anchor(found, tracks: tracks)
                    } else {
                        // More map points, where the view agrees with the filter.
                        let d = odometryCamera.inverse * found.worldFromCamera
                        if d.translation.norm < 0.2 && d.rotation.angle * 180 / .pi < 3 { anchor(found, tracks: tracks) }
                    }
                }
            }
        }
        guard mapFrameIsValid, var b = builder else { return }
        let worldFromCamera = f.worldFromCamera(newest)
        if b.wantsKeyframe(at: worldFromCamera) {
            let d = descriptors()
            var kept: [(id: UInt64, pixel: Vector2, descriptor: BinaryDescriptor)] = []
            for (feature, descriptor) in zip(tracks.features, d) {
                if let descriptor { kept.append((feature.id, feature.pixel, descriptor)) }
            }
            if !kept.isEmpty { b.add(MapBuilder.Keyframe(time: stamp, worldFromCamera: worldFromCamera, features: kept), time: t, tracked: Set(tracks.features.map(\.id))) }
        }
        builder = b
    }

    /// Ties the localization's inlier features to their map points; they leave the MSCKF's
    /// database (their observations now update the filter as known points).
    private mutating func anchor(_ found: MapLocalizer.Localization, tracks: FeatureTracks) {
        for m in found.inliers {
            let id = tracks.features[m.query].id
            guard !landmarkIDs.contains(id) else { continue }
            anchors[id] = m.point
            features[id] = nil
        }
    }

    /// Updates with the tracked features tied to map points (newest clone): known points, so
    /// no null-space projection; a feature whose observation fails the gate is untied.
    mutating func updateWithMapPoints(_ tracks: FeatureTracks, _ f: inout MSCKF) throws -> Int {
        guard relocalized, let map = localizer?.map, !anchors.isEmpty else { return 0 }
        let newest = f.clones.count - 1
        var blocks: [FeatureUpdate.Rows] = []
        var alive: [UInt64: Int] = [:]
        for track in tracks.features {
            guard let point = anchors[track.id], let n = track.normalized, blocks.count < options.maxFeaturesPerUpdate else { continue }
            switch update.mapPointRows([FeatureUpdate.Observation(clone: newest, normalized: n)], point: map.points[point].position,
                                       pointSigma: max(options.mapPointSigma, map.points[point].sigma), filter: f) {
            case let .success(rows):
                blocks.append(rows)
                alive[track.id] = point
            case .failure:
                continue
            }
        }
        anchors = alive
        try apply(blocks, &f)
        mapUpdates += blocks.count
        return blocks.count
    }
}
