import Foundation
import ParallaxCore
import ParallaxGeometry
import ParallaxMath

/// A simulated sensor sequence along a spline: IMU, rendered camera frames with exact depth,
/// depth maps at their own rate, and ground truth, deterministic by seed.
public struct SequenceSimulator: Sendable {
    /// What to simulate.
    public struct Configuration: Sendable {
        /// Camera model and its pose on the body `T_BC`.
        public var camera: CameraCalibration
        /// Optional second camera (stereo pair), rendered at the same times as `cam1`.
        public var stereoCamera: CameraCalibration?
        /// Camera rate (Hz); default 20.
        public var cameraRateHz = 20.0
        /// Depth map rate (Hz), 0 for none; default 5.
        public var depthRateHz = 5.0
        /// IMU model and rate.
        public var imu: IMUSimulator
        /// Gaussian pixel noise (gray levels, σ); default 2.
        public var pixelNoise = 2.0
        /// Length (s) and seed.
        public var duration = 10.0
        public var seed: UInt64 = 1

        public init(camera: CameraCalibration, imu: IMUSimulator) {
            self.camera = camera
            self.imu = imu
        }
    }

    public let spline: SE3Spline
    public let scene: TexturedScene
    public let configuration: Configuration

    public init(spline: SE3Spline, scene: TexturedScene, configuration: Configuration) {
        self.spline = spline
        self.scene = scene
        self.configuration = configuration
    }

    /// The streams ``packets()`` produces, with their sensors' descriptions: `cam0` (and
    /// `cam1` with the stereo partner), `depth0` registered to `cam0`, `imu0` with its noise.
    public var streams: [StreamDescription] {
        let c = configuration
        var cameras = ["cam0": c.camera]
        if let right = c.stereoCamera { cameras["cam1"] = right }
        let partners = StereoPartner.pairs(cameras)
        var out = [StreamDescription(StreamKey<IMUSample>("imu0"),
                                     metadata: StreamMetadata(imu: IMUCalibration(rateHz: c.imu.rateHz, noise: c.imu.noise))),
                   StreamDescription(StreamKey<CameraFrame>("cam0"), metadata: StreamMetadata(camera: c.camera, stereo: partners["cam0"]))]
        if let right = c.stereoCamera {
            out.append(StreamDescription(StreamKey<CameraFrame>("cam1"), metadata: StreamMetadata(camera: right, stereo: partners["cam1"])))
        }
        if c.depthRateHz > 0 {
            out.append(StreamDescription(StreamKey<DepthMap>("depth0"), metadata: StreamMetadata(depth: DepthSensor(kind: .depth, camera: c.camera))))
        }
        return out
    }

    /// The sequence as packets in timestamp order (streams `cam0`, `cam1` when stereo, `depth0`, `imu0`), and the
    /// ground truth `T_WB` at every IMU sample. Times start at the spline's first valid time.
    public func packets() throws -> (packets: [AnyPacket], groundTruth: Trajectory) {
        let c = configuration
        let t0 = spline.validRange.lowerBound
        let duration = min(c.duration, spline.validRange.upperBound - t0)
        var packets: [AnyPacket] = []
        let imu = c.imu.simulate(spline, from: t0, duration: duration, seed: c.seed)
        for s in imu { packets.append(AnyPacket(stream: "imu0", timestamp: s.timestamp, payload: s.measurement)) }
        let gt = Trajectory(poses: imu.map { StampedPose(time: $0.timestamp.seconds, timestamp: $0.timestamp, pose: spline.pose(at: $0.timestamp.seconds)) },
                            name: "groundtruth")
        let bearings = try TexturedScene.bearings(for: c.camera.model)
        let stereoBearings = try c.stereoCamera.map { try TexturedScene.bearings(for: $0.model) }
        var rng = SeededGenerator(seed: c.seed &+ 0x5EED)
        let frames = Int((duration * c.cameraRateHz).rounded(.down)) + 1
        let depthEvery = c.depthRateHz > 0 ? max(1, Int((c.cameraRateHz / c.depthRateHz).rounded())) : 0
        for k in 0..<frames {
            let t = t0 + Double(k) / c.cameraRateHz
            let stamp = Timestamp(seconds: t)
            let worldFromBody = spline.pose(at: t)
            let worldFromCamera = worldFromBody * c.camera.bodyFromSensor
            let (rendered, depth) = scene.render(camera: c.camera.model, bearings: bearings, worldFromCamera: worldFromCamera)
            let image = PixelNoise.add(to: rendered, sigma: c.pixelNoise, using: &rng)
            packets.append(AnyPacket(stream: "cam0", timestamp: stamp, payload: CameraFrame(cameraID: "cam0", image: image)))
            if let right = c.stereoCamera, let rb = stereoBearings {
                let rendered1 = scene.render(camera: right.model, bearings: rb, worldFromCamera: worldFromBody * right.bodyFromSensor).image
                let image1 = PixelNoise.add(to: rendered1, sigma: c.pixelNoise, using: &rng)
                packets.append(AnyPacket(stream: "cam1", timestamp: stamp, payload: CameraFrame(cameraID: "cam1", image: image1)))
            }
            if depthEvery > 0 && k % depthEvery == 0 {
                packets.append(AnyPacket(stream: "depth0", timestamp: stamp, payload: DepthMap(sensorID: "depth0", kind: .depth, values: depth)))
            }
        }
        // Stable: equal stamps keep IMU before camera before depth.
        return (packets.sortedByTime(), gt)
    }
}
