import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxVision

/// Finds known *static* pictures and anchors them in the world (ARKit's `detectionImages`): a
/// picture found in a frame (as `image-track` finds it: ORB matching, a robust homography, a
/// planar pose refined on the reprojection error) is placed in the world with that frame's
/// camera pose (`T_WI = T_WB · T_BC · T_CI`, the body pose from a pose stream such as `vio`'s);
/// every later sighting refines the anchor (a running mean of the placements, weighted by
/// confidence: positions averaged, rotations by their chordal mean). Once anchored the picture's
/// pose stays known when it leaves the view: each frame reports `T_CI` as the anchor seen from
/// that frame's camera, `isTracked` telling whether it is in sight.
///
/// Frames whose pose is missing or not `normal` (VIO initializing, limited, relocalizing) do not
/// place anchors; a camera pose in another world frame than the anchors' (a filter reset) is
/// not detected, so with poses from a filter that resets the anchors restart after a reset.
///
/// Example: `klt camera=cam0 ! vio ! image-detect camera=cam0 reference=[poster.png] width=0.6`
public struct ImageDetectAnalyzer: Analyzer {
    public static let name = "image-detect"
    public static let summary = "Finds known static pictures and anchors them in the world with the camera's poses: T_WI and T_CI (m), kept when out of view"

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream") public var camera = "cam0"
        @Parameter("pose stream of the body (T_WB), e.g. vio/pose or groundtruth") public var poses = "vio/pose"
        @Parameter("reference picture files (PNG, JPEG, PNM)") public var reference: [String] = []
        @Parameter("physical widths of the pictures (m): one each, or one for all") public var width: [Double] = []
        @Parameter("agreeing points needed to find or keep a picture", range: 6...10_000) public var minInliers = 15
        @Parameter("transfer error below which a point agrees (px)", range: 0.5...50) public var threshold = 3.0
        @Parameter("pictures not in view looked for per frame, in turn; 0: all, every frame", range: 0...1000) public var searchPerFrame = 1
        @Parameter("smallest confidence of a sighting that places or refines an anchor", range: 0...1) public var minConfidence = 0.5
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let posePort: InputPort<Pose>
    private let output: OutputPort<ImageAnchors>
    private let options: Options
    private var pictures: ReferencePictureSet
    private var camera: CameraCalibration?
    /// Per picture (in the order given): its anchor once placed.
    private var anchored: [WorldAnchor?]

    /// A picture's place in the world: the confidence-weighted sums of its placements and the
    /// anchor they give (recomputed when a placement joins).
    struct WorldAnchor {
        var positionSum = Vector3.zero
        var rotationSum = Matrix3.zero
        var weight = 0.0
        private(set) var worldFromImage = SE3.identity

        /// Adds the placement `placed` (`T_WI`) with weight `w` > 0; false (nothing changed)
        /// when the mean of the rotations has no nearest rotation.
        mutating func add(_ placed: SE3, weight w: Double) -> Bool {
            let rotation = rotationSum + w * placed.rotation.matrix, total = weight + w
            guard let nearest = ((1 / total) * rotation).nearestRotationByPolarIteration else { return false }
            positionSum += placed.translation * w
            rotationSum = rotation
            weight = total
            worldFromImage = SE3(rotation: SO3(nearest), translation: positionSum * (1 / total))
            return true
        }
    }

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        pictures = try ReferencePictureSet(analyzer: Self.name, reference: options.reference, width: options.width, minInliers: options.minInliers,
                                           threshold: options.threshold, searchPerFrame: options.searchPerFrame)
        self.options = options
        frames = .each(options.camera)
        posePort = .nearest(options.poses, tolerance: 1_000_000)
        output = OutputPort("\(options.camera)/detected-images")
        anchored = Array(repeating: nil, count: pictures.trackers.count)
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        try pictures.requirePictures(instance: context.instanceName)
        // Anchoring in the world needs the camera's place on the body and its intrinsics.
        camera = try context.cameraCalibration(of: frames)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames), let camera else { return }
        let gray = GrayImage(frame.image.luma)
        let observations = pictures.update(gray, camera: camera.model)
        // The camera in the world at this frame, when the pose stream has a good pose.
        let body = input.nearest(posePort).map(\.payload)
        let worldFromCamera = body.flatMap { $0.trackingState == .normal ? $0.worldFromBody * camera.bodyFromSensor : nil }
        var anchors: [ImageAnchor] = []
        for (k, (o, tracker)) in zip(observations, pictures.trackers).enumerated() {
            // A picture found at least once has a (last known) pose in the camera.
            guard let seen = o.pose else { continue }
            if o.isTracked, o.confidence > 0, o.confidence >= options.minConfidence, let worldFromCamera {
                var anchor = anchored[k] ?? WorldAnchor()
                if anchor.add(worldFromCamera * seen, weight: o.confidence) { anchored[k] = anchor }
            }
            let worldFromImage = anchored[k]?.worldFromImage
            // In sight, or not anchored yet: the frame's own (or last) pose of it; out of sight
            // and anchored: the anchor from this frame's camera when this frame has a pose.
            var pose = seen
            if !o.isTracked, let worldFromImage, let worldFromCamera { pose = worldFromCamera.inverse * worldFromImage }
            let r = tracker.reference
            anchors.append(ImageAnchor(name: r.name, pose: pose, physicalWidth: r.physicalWidth, physicalHeight: r.physicalHeight,
                                       isTracked: o.isTracked, confidence: o.confidence, corners: o.corners, worldFromImage: worldFromImage))
        }
        context.emit(ImageAnchors(anchors: anchors), on: output, at: input.timestamp)
    }
}
