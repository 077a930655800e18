import Foundation
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxVision

/// The world-map side of the estimator (ARKit's `ARWorldMap`, docs/world-maps.md): keyframes
/// with the ORB descriptors of the tracked features and the filter's triangulations of them
/// (``MapBuilder``); with a loaded map, relocalization into it (``MapLocalizer``: descriptor
/// matching, gravity-aware PnP + RANSAC), after which the filter runs in the map's frame and
/// the tracked features matched to map points update it as known points
/// (``updateWithMapPoints(_:_:)``).
struct WorldMapping {
    /// The map as odometry goes; `nil` when the estimator builds none.
    private(set) var builder: MapBuilder?
    /// The loaded map's matcher.
    let localizer: MapLocalizer?
    /// The measurement model of the updates by map points.
    let model: FeatureUpdate
    /// Frames between searches for more map points once relocalized.
    let searchInterval: Int
    /// Smallest σ of a map point's position in the updates by map points (m).
    let pointSigma: Double
    /// Most map points in one update.
    let maxFeaturesPerUpdate: Int
    /// Whether the filter runs in the loaded map's frame.
    private(set) var relocalized = false
    /// Tracked features matched to map points: feature id → point index.
    var anchors: [UInt64: Int] = [:]
    private var framesSinceMapSearch = 0
    /// A reset without a loaded map starts a new frame the map so far is not in: it stops growing.
    private(set) var mapFrozen = false
    private(set) var relocalizationCount = 0
    /// Map-point rows used in all.
    var mapUpdates = 0
    static let extractor = ORBExtractor()

    /// The world map of `settings` (none unless ``VIOSettings/mapping``), relocalizing into
    /// `map` when one is given.
    init(_ settings: VIOSettings, model: FeatureUpdate, map: WorldMap?) {
        self.model = model
        searchInterval = settings.mapSearchInterval
        pointSigma = settings.mapPointSigma
        maxFeaturesPerUpdate = settings.maxFeaturesPerUpdate
        guard settings.mapping else {
            localizer = nil
            return
        }
        if let map {
            var l = MapLocalizer(map: map)
            l.minInliers = settings.relocalizationMinInliers
            localizer = l
        } else {
            localizer = nil
        }
        builder = MapBuilder(minDistance: settings.keyframeDistance, minAngleDegrees: settings.keyframeAngle,
                             maxPointSigma: settings.mapPointMaxSigma, base: map)
    }

    /// Whether the filter's frame is the map's: always without a loaded map (until a reset
    /// froze it), with one only once relocalized.
    var mapFrameIsValid: Bool { builder != nil && !mapFrozen && (localizer == nil || relocalized) }

    /// Whether a map was loaded and the filter is not yet in its frame: no pose is given.
    var isRelocalizing: Bool { localizer != nil && !relocalized }

    /// The filter triangulated feature `id` at `position` (m) with σ `sigma` (m): a point for
    /// the map, while the filter's frame is the map's.
    mutating func record(point position: Vector3, sigma: Double, of id: UInt64) {
        if mapFrameIsValid { builder?.record(point: position, sigma: sigma, of: id) }
    }

    /// After the frame's updates: relocalizes (or looks for more map points every
    /// ``searchInterval`` frames), then adds a keyframe when the camera has moved enough. The
    /// `image` is described only in frames that need its descriptors. Returns the
    /// relocalization, when it happened in this frame.
    mutating func work(_ f: inout MSCKF, frame: VIOFeatureFrame, image: ImageBuffer<UInt8>, time t: Double, camera: CameraModel,
                       landmarks: Set<UInt64>, database: inout FeatureDatabase) throws -> VIOEvent? {
        guard builder != nil, !f.clones.isEmpty else { return nil }
        var descriptors = FrameDescriptors(image: image, features: frame.features)
        let event = try relocalize(&f, frame: frame, descriptors: &descriptors, time: t, camera: camera, landmarks: landmarks, database: &database)
        addKeyframe(f, frame: frame, descriptors: &descriptors, time: t)
        return event
    }

    /// The ORB descriptors of a frame's features, computed when first asked for.
    private struct FrameDescriptors {
        let image: ImageBuffer<UInt8>
        let features: [VIOFeature]
        private var described: [BinaryDescriptor?]?

        init(image: ImageBuffer<UInt8>, features: [VIOFeature]) {
            self.image = image
            self.features = features
        }

        mutating func get() -> [BinaryDescriptor?] {
            if let described { return described }
            let d = WorldMapping.extractor.describe(GrayImage(image.luma), at: features.map(\.pixel))
            described = d
            return d
        }
    }

    /// With a loaded map: until relocalized, looks for the newest clone's view in the map
    /// every frame, and once found moves the filter into the map's frame and ties the inlier
    /// features to their points; then every ``searchInterval`` frames ties more, where the
    /// view agrees with the filter.
    private mutating func relocalize(_ f: inout MSCKF, frame: VIOFeatureFrame, descriptors: inout FrameDescriptors, time t: Double, camera: CameraModel,
                                     landmarks: Set<UInt64>, database: inout FeatureDatabase) throws -> VIOEvent? {
        guard let localizer else { return nil }
        framesSinceMapSearch += 1
        guard !relocalized || framesSinceMapSearch >= searchInterval else { return nil }
        framesSinceMapSearch = 0
        let odometryCamera = f.worldFromCamera(f.clones.count - 1)
        let result = localizer.localize(pixels: frame.features.map(\.pixel), query: descriptors.get(), camera: camera, tilt: odometryCamera.rotation)
        guard case let .success(found) = result else { return nil }
        guard !relocalized else {
            // More map points, where the view agrees with the filter.
            let d = odometryCamera.inverse * found.worldFromCamera
            if d.translation.norm < 0.2 && d.rotation.angle * 180 / .pi < 3 { anchor(found, frame: frame, landmarks: landmarks, database: &database) }
            return nil
        }
        // The map frame from the odometry's: yaw and translation (both gravity-aligned).
        let r = found.worldFromCamera.rotation.matrix * odometryCamera.rotation.matrix.transposed
        let yaw = atan2(r[1, 0], r[0, 0])
        let shift = found.worldFromCamera.translation - SO3.exp(Vector3(0, 0, yaw)) * odometryCamera.translation
        try f.moveWorld(yaw: yaw, translation: shift, positionVariance: pointSigma * pointSigma / Double(found.inliers.count))
        relocalized = true
        relocalizationCount += 1
        anchor(found, frame: frame, landmarks: landmarks, database: &database)
        return .relocalized(frame: frame.time, time: t, inliers: found.inliers.count, matches: found.matches, rmsPixels: found.rmsPixels)
    }

    /// While the filter's frame is the map's: a keyframe of the newest clone's view, with the
    /// features that could be described, when the camera has moved enough since the last one.
    private mutating func addKeyframe(_ f: MSCKF, frame: VIOFeatureFrame, descriptors: inout FrameDescriptors, time t: Double) {
        guard mapFrameIsValid, var b = builder else { return }
        let worldFromCamera = f.worldFromCamera(f.clones.count - 1)
        if b.wantsKeyframe(at: worldFromCamera) {
            var kept: [(id: UInt64, pixel: Vector2, descriptor: BinaryDescriptor)] = []
            for (feature, descriptor) in zip(frame.features, descriptors.get()) {
                if let descriptor { kept.append((feature.id, feature.pixel, descriptor)) }
            }
            if !kept.isEmpty {
                b.add(MapBuilder.Keyframe(time: frame.time, worldFromCamera: worldFromCamera, features: kept), time: t, tracked: Set(frame.features.map(\.id)))
            }
        }
        builder = b
    }

    /// Ties the localization's inlier features to their map points; they leave the database
    /// (their observations now update the filter as known points). Landmarks stay landmarks.
    private mutating func anchor(_ found: MapLocalizer.Localization, frame: VIOFeatureFrame, landmarks: Set<UInt64>, database: inout FeatureDatabase) {
        for m in found.inliers {
            let id = frame.features[m.query].id
            guard !landmarks.contains(id) else { continue }
            anchors[id] = m.point
            database.remove(id)
        }
    }

    /// Forgets the anchors at a reset: with a loaded map the filter must relocalize again;
    /// without one the map so far stops growing. Returns whether it stopped now.
    mutating func reset() -> Bool {
        anchors = [:]
        if localizer != nil {
            relocalized = false
        } else if let builder, builder.keyframeCount > 0, !mapFrozen {
            mapFrozen = true
            return true
        }
        return false
    }

    /// The map status of the frame whose newest clone is in `f`, tracked `state` at `t` (s).
    func status(of f: MSCKF, time t: Double, tracking state: VIOTrackingState) -> VIOMappingStatus? {
        guard let builder else { return nil }
        return isRelocalizing ? .limited : builder.status(at: f.worldFromCamera(f.clones.count - 1), time: t, tracking: state)
    }
}
