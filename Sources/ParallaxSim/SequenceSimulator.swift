import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxVision

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
        /// How much later than the IMU's clock the camera stamps its frames (s; default 0): the
        /// frame taken at `t` (rendered at the spline's pose at `t`) carries `t + cameraTimeOffset`,
        /// as a camera whose exposure is stamped late. Depth maps are the camera's and share it;
        /// the ground truth stays on the IMU's clock.
        public var cameraTimeOffset = 0.0
        /// Depth map rate (Hz), 0 for none; default 5.
        public var depthRateHz = 5.0
        /// IMU model and rate.
        public var imu: IMUSimulator
        /// Gaussian pixel noise (gray levels, σ); default 2.
        public var pixelNoise = 2.0
        /// Gaussian axial noise added to the exact depth maps (σ by range; default none:
        /// exact depth; ``DepthNoise/kinect`` for a structured-light sensor).
        public var depthNoise = DepthNoise.none
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

    /// The sequence as a lazy source: frames are rendered only when asked for (on worker
    /// threads under a ``PrefetchingSource``), so long sequences need little memory.
    public func source() throws -> SimulatedSequenceSource { try SimulatedSequenceSource(self) }

    /// The whole sequence in memory, in timestamp order (streams `cam0`, `cam1` when stereo,
    /// `depth0`, `imu0`), and the ground truth `T_WB` at every IMU sample. Times start at the
    /// spline's first valid time. For short sequences; long ones: ``source()``.
    public func packets() throws -> (packets: [AnyPacket], groundTruth: Trajectory) {
        let source = try source()
        var packets: [AnyPacket] = []
        packets.reserveCapacity(source.packetCount)
        while let p = try source.next() { packets.append(p) }
        return (packets, source.groundTruth)
    }
}
