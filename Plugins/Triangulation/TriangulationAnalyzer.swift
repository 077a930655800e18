import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxVision
import ParallaxGeometry
import ParallaxMath

/// Triangulates feature tracks into 3D landmarks using camera poses from a pose stream
/// (ground truth or an estimator): multi-view DLT then Gauss–Newton on inverse depth,
/// cheirality, parallax and reprojection checks, covariance from 1 px image noise. A track is
/// triangulated when it ends (and every live track at the end of the run). Poses are
/// interpolated (SE(3)) at each frame's time from the pose stream's samples around it; by the
/// time a track ends, the poses after its earlier frames have arrived.
///
/// Example chain: `klt camera=cam0 ! triangulate tracks=cam0/tracks poses=groundtruth`
public struct TriangulationAnalyzer: Analyzer {
    public static let name = "triangulate"
    public static let summary = "3D landmarks from feature tracks and camera poses (DLT + inverse-depth Gauss–Newton, with quality checks)"

    public struct Options: AnalyzerOptions {
        @Parameter("FeatureTracks stream (from klt)") public var tracks = "cam0/tracks"
        @Parameter("Pose stream giving T_WB at the frame times (the dataset's groundtruth, or vio/pose)") public var poses = "groundtruth"
        @Parameter("largest gap between the two poses a frame's pose is interpolated from (ms)", range: 0...1e6) public var poseToleranceMs = 20.0
        @Parameter("fewest frames a track needs", range: 2...100_000) public var minObservations = 3
        @Parameter("smallest angle between viewing rays (deg)", range: 0...180) public var minParallaxDegrees = 1.0
        @Parameter("largest RMS reprojection error (px)", range: 0...1e6) public var maxReprojectionErrorPx = 2.0
        @Parameter("Landmark stream") public var output = "landmarks"
        public init() {}
    }

    private let tracksPort: InputPort<FeatureTracks>
    private let posesPort: InputPort<Pose>
    private let output: OutputPort<Landmark>
    private let options: Options
    /// A frame's view of a track, resolved to a camera pose when the track is triangulated.
    private struct View { var time: Timestamp; var normalized: Vector2; var bodyFromCamera: SE3 }
    private var observations: [UInt64: [View]] = [:]
    /// Pose samples received so far (time order), trimmed to what live tracks still need.
    /// The pose samples still needed, as a trajectory (interpolated by ``Trajectory/pose(at:maxGap:)``).
    private var poseHistory = Trajectory(poses: [])
    /// The tracked camera (from the tracks stream's metadata, read in `open`).
    private var camera: CameraCalibration?
    /// Focal length (px) that converts normalized errors to pixels.
    private var focal: Double { camera?.model.intrinsics.fx ?? 1 }
    private var lastTime = Timestamp(nanoseconds: 0)
    /// Rejections by reason, reported as a warning at the end.
    private var rejected: [MultiViewTriangulation.Rejection: Int] = [:]
    /// Observations dropped because no pose bracketed their time.
    private var missingPoses = 0

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        tracksPort = .each(options.tracks)
        posesPort = .between(options.poses)
        output = OutputPort(options.output)
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        camera = try context.cameraCalibration(of: tracksPort)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let tracks = input.payload(tracksPort) else { return }
        lastTime = input.timestamp
        // Only estimates: an estimator's poses while initializing or lost carry no position.
        poseHistory.poses += input.between(posesPort).filter {
            $0.payload.trackingState != .limited(.initializing) && $0.payload.trackingState != .notAvailable
        }.map {
            StampedPose(time: $0.timestamp.seconds, timestamp: $0.timestamp, pose: $0.payload.worldFromBody)
        }
        let bodyFromCamera = camera?.bodyFromSensor ?? .identity
        for f in tracks.features {
            guard let n = f.normalized else { continue }
            observations[f.id, default: []].append(View(time: input.timestamp, normalized: n, bodyFromCamera: bodyFromCamera))
        }
        for e in tracks.ended {
            if let views = observations.removeValue(forKey: e.id) { emit(e.id, views, at: input.timestamp, &context) }
        }
        // Keep only the poses still needed: from just before the oldest live observation.
        if let oldest = observations.values.compactMap({ $0.first?.time }).min(),
           let keepFrom = poseHistory.poses.lastIndex(where: { $0.timestamp <= oldest }), keepFrom > 0 {
            poseHistory.poses.removeFirst(keepFrom)
        }
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        for (id, views) in observations.sorted(by: { $0.key < $1.key }) { emit(id, views, at: lastTime, &context) }
        observations = [:]
        if missingPoses > 0 {
            context.warn("\(missingPoses) observation(s) had no pose on '\(options.poses)' around their time; not used")
        }
        if !rejected.isEmpty {
            context.note("tracks not triangulated: " + rejected.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", "))
        }
    }

    private mutating func emit(_ id: UInt64, _ views: [View], at t: Timestamp, _ context: inout AnalyzerContext) {
        let obs = views.compactMap { v in
            poseHistory.pose(at: v.time, maxGap: Nanoseconds(options.poseToleranceMs * 1e6)).map { MultiViewTriangulation.Observation(worldFromCamera: $0 * v.bodyFromCamera, normalized: v.normalized) }
        }
        if obs.count < views.count { missingPoses += views.count - obs.count }
        guard obs.count >= options.minObservations else { rejected[.tooFewObservations, default: 0] += 1; return }
        switch MultiViewTriangulation.triangulate(obs, minParallaxDegrees: options.minParallaxDegrees,
                                                  maxRMSNormalized: options.maxReprojectionErrorPx / focal) {
        case let .success(r):
            let sigma2 = 1 / (focal * focal)  // 1 px in normalized units, squared
            let c = r.covariance
            let cov = (0..<3).flatMap { i in (0..<3).map { j in c[i, j] * sigma2 } }
            context.emit(Landmark(id: id, position: r.position, reprojectionRMSE: r.rmsNormalized * focal, observations: obs.count,
                                  parallaxDegrees: r.parallaxDegrees, depth: r.depthInFirst, covariance: cov), on: output, at: t)
        case let .failure(reason):
            rejected[reason, default: 0] += 1
        }
    }
}
