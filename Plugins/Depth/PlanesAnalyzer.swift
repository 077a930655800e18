import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxVision

/// Planes in depth (ARKit's plane detection, `ARPlaneAnchor`): each depth map's planes
/// (``PlaneDetector``: RANSAC on the points with noise-scaled inlier distances and normal
/// agreement, the connected region of support, a weighted least-squares refit by LAPACK's
/// eigen-solver), each with its outline (principal axes, extent, convex boundary, area), its
/// alignment against gravity and a classification (floor, table, ceiling, wall).
///
/// Up comes from the `up` option (a vector in the depth camera's frame), else from an IMU
/// stream (the mean specific force between depth maps: up when the sensor moves slowly), else
/// from a pose stream (world +z up, as EuRoC's and `vio`'s worlds); without any, alignment
/// and classification are `unknown` / `none`.
///
/// With a pose stream (`poses=`: `vio/pose`, or a dataset's `groundtruth`), planes are given in
/// the world frame and kept across frames (``PlaneTracker``): a plane seen again keeps its id,
/// its normal and offset average what was seen, and its boundary grows with what comes into
/// view. A depth map without a pose within `pose_tolerance_ms` is skipped with a warning.
///
/// Example chain: `planes depth=depth up=0,-1,0`.
public struct PlanesAnalyzer: Analyzer {
    public static let name = "planes"
    public static let summary = "Planes in each depth map (RANSAC + LAPACK refit), with extent, boundary, horizontal/vertical alignment and floor/table/wall class"

    public struct Options: AnalyzerOptions {
        @Parameter("depth stream (DepthMap)") public var depth = "depth"
        @Parameter("up in the depth camera's frame (x right, y down, z forward), e.g. 0,-1,0; empty: from imu or poses") public var up: [Double] = []
        @Parameter("IMU stream whose mean specific force between depth maps gives up; none") public var imu: String? = nil
        @Parameter("pose stream (T_WB; world z up) giving up; none") public var poses: String? = nil
        @Parameter("largest time between a depth map and its pose (ms)", range: 0...1000) public var poseToleranceMs = 20.0
        /// The detection's own options (step, max_planes, sigmas, noise, …: ``PlaneDetector/Settings``).
        public var detector = PlaneDetector.Settings()
        @Parameter("tolerance of horizontal and vertical (deg)", range: 0...45) public var alignmentTolerance = 10.0
        @Parameter("planes whose normal is less sure than this (σ, deg) are not reported yet", range: 0...90) public var maxNormalUncertainty = 0.25
        public init() {}
    }

    private let depthPort: InputPort<DepthMap>
    private let imuPort: InputPort<IMUSample>?
    private let posePort: InputPort<Pose>?
    private let planesPort: OutputPort<DetectedPlanes>
    private let options: Options
    private let detector: PlaneDetector
    private var input: DepthInput?
    /// R_BC (the depth camera in the body) and R_BI (the IMU in the body).
    private var bodyFromCamera = SE3.identity, bodyFromIMU = SO3.identity
    private var warnings = RepeatedWarnings()
    /// The planes kept across frames, when poses are given.
    private var tracker: PlaneTracker?

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        guard options.up.isEmpty || (options.up.count == 3 && options.up.allSatisfy(\.isFinite) && Vector3(options.up[0], options.up[1], options.up[2]).norm > 0) else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "up", reason: "must be three finite numbers, not all zero (x,y,z in the camera frame), got \(options.up)")
        }
        guard options.detector.minDistance <= options.detector.maxDistance else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "min_distance", reason: "must not exceed max_distance (\(options.detector.maxDistance) m)")
        }
        self.options = options
        depthPort = .each(options.depth)
        imuPort = options.imu.map { .between($0) }
        posePort = options.poses.map { .nearest($0, tolerance: Int64(options.poseToleranceMs * 1_000_000)) }
        planesPort = OutputPort("\(options.depth)/planes")
        detector = PlaneDetector(settings: options.detector)
        tracker = options.poses == nil ? nil : PlaneTracker()
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        let depthInput = try DepthInput(stream: options.depth, metadata: context.metadata(of: depthPort), registeredTo: nil, analyzer: context.instanceName)
        input = depthInput
        bodyFromCamera = depthInput.calibration.bodyFromSensor
        if let imuPort { bodyFromIMU = context.metadata(of: imuPort).imu?.bodyFromSensor.rotation ?? .identity }
    }

    public mutating func process(_ packet: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let map = packet.payload(depthPort), let input,
              let depth = input.depth(of: map, at: packet.timestamp, warnings: &warnings, context: &context) else { return }
        if !depth.contains(where: { $0 > 0 && $0.isFinite }) {
            warnings.note("no valid depth", "'\(options.depth)' at \(packet.timestamp.nanoseconds) ns has no valid depth: no planes", context: &context)
        }
        // With poses: everything in the world frame (T_WC = T_WB · T_BC).
        var worldFromCamera: SE3?
        if let posePort {
            guard let pose = packet.nearest(posePort)?.payload else {
                warnings.note("no pose", "no '\(posePort.key.name)' pose within \(options.poseToleranceMs) ms of '\(options.depth)' at \(packet.timestamp.nanoseconds) ns: skipped", context: &context)
                return
            }
            worldFromCamera = pose.worldFromBody * bodyFromCamera
        }
        let up = upDirection(packet, worldFromCamera: worldFromCamera)
        let found = detector.detect(depth: depth, rays: input.rays)
        // Each plane in the output frame: the camera's, or the world's (then joined to the kept planes).
        let toOutput = worldFromCamera ?? .identity
        let upOut = up.map { toOutput.rotation * $0 }
        var frames: [(plane: Plane, outline: PlaneOutline, rms: Double, points: Int, moments: PlaneMoments, sigma: Double)] = []
        for d in found {
            let plane = d.plane.moved(by: toOutput)
            guard let outline = PlaneOutline(points: d.points.map { toOutput * $0 }, plane: plane, major: toOutput.rotation * d.major) else { continue }
            frames.append((plane, outline, d.rms, d.pixels.count, d.moments.moved(by: toOutput), d.normalSigma))
        }
        var anchors: [PlaneAnchor] = []
        let maxSigma = options.maxNormalUncertainty * .pi / 180
        if tracker != nil {
            let observations = frames.map { PlaneTracker.Observation(plane: $0.plane, centroid: $0.outline.centroid, boundary: $0.outline.boundary, points: $0.points, moments: $0.moments) }
            let joined = tracker?.update(observations) ?? []
            for (k, f) in frames.enumerated() {
                guard let track = tracker?.tracks[joined[k]], track.normalSigma <= maxSigma,
                      let outline = PlaneOutline(points: track.boundary, plane: track.plane) else { continue }
                anchors.append(anchor(id: track.id, plane: track.plane, outline: outline, rms: f.rms, points: f.points, up: upOut, sigma: track.normalSigma))
            }
        } else {
            for (k, f) in frames.enumerated() where f.sigma <= maxSigma {
                anchors.append(anchor(id: UInt64(k + 1), plane: f.plane, outline: f.outline, rms: f.rms, points: f.points, up: upOut, sigma: f.sigma))
            }
        }
        if let upOut { Self.classify(&anchors, up: upOut, camera: toOutput.translation) }
        context.emit(DetectedPlanes(frame: worldFromCamera == nil ? "camera" : "world", planes: anchors), on: planesPort, at: packet.timestamp)
    }

    /// An anchor with its alignment against `up` (classified later, with the frame's others).
    private func anchor(id: UInt64, plane: Plane, outline: PlaneOutline, rms: Double, points: Int, up: Vector3?, sigma: Double) -> PlaneAnchor {
        let tilt = up.map { acos(min(1, max(-1, plane.normal.dot($0)))) * 180 / .pi }
        let tol = options.alignmentTolerance
        let alignment: PlaneAnchor.Alignment = tilt.map { t in
            t <= tol || t >= 180 - tol ? .horizontal : abs(t - 90) <= tol ? .vertical : .slanted
        } ?? .unknown
        return PlaneAnchor(id: id, alignment: alignment, classification: .none, normal: plane.normal, offset: plane.offset,
                           center: outline.centroid, width: outline.width, length: outline.length, majorAxis: outline.major,
                           boundary: outline.boundary, area: outline.area, rms: rms, points: points, tiltDegrees: tilt,
                           normalUncertaintyDegrees: sigma * 180 / .pi)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "depth maps", context: &context)
    }

    /// Up (unit) in the depth camera's frame at this depth map, or `nil` when nothing says:
    /// the option, else the IMU, else the camera's pose (`worldFromCamera`, world z up).
    private func upDirection(_ packet: AnalyzerInput, worldFromCamera: SE3?) -> Vector3? {
        if options.up.count == 3 { return Vector3(options.up[0], options.up[1], options.up[2]).normalized }
        let cameraFromBody = bodyFromCamera.rotation.inverse
        if let imuPort, case let samples = packet.between(imuPort), !samples.isEmpty {
            var mean = Vector3.zero
            for s in samples { mean += s.payload.accelerometer }
            let a = cameraFromBody * (bodyFromIMU * mean)
            if a.norm > 0, a.x.isFinite, a.y.isFinite, a.z.isFinite { return a.normalized }
        }
        return worldFromCamera.map { $0.rotation.inverse * Vector3(0, 0, 1) }
    }

    /// Classifies the planes of one frame by alignment, facing and height along `up` above the
    /// camera at `camera` (rules in ``PlaneAnchor/Classification``).
    static func classify(_ planes: inout [PlaneAnchor], up: Vector3, camera: Vector3) {
        let height = planes.map { up.dot($0.center - camera) }
        let upward = planes.indices.filter { planes[$0].alignment == .horizontal && planes[$0].normal.dot(up) > 0 }
        let floor = upward.filter { height[$0] <= -0.5 }.min { height[$0] < height[$1] }
        for i in planes.indices {
            switch planes[i].alignment {
            case .vertical: planes[i].classification = .wall
            case .horizontal:
                if planes[i].normal.dot(up) < 0 {
                    planes[i].classification = height[i] > 0 ? .ceiling : .none
                } else if i == floor {
                    planes[i].classification = .floor
                } else if let f = floor {
                    planes[i].classification = height[i] >= height[f] + 0.3 ? .table : .none
                } else {
                    planes[i].classification = height[i] > -0.5 ? .table : .none
                }
            default: planes[i].classification = .none
            }
        }
    }
}
