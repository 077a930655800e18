import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxVision

/// A ``SequenceSimulator``'s sequence as a lazy packet source: IMU samples and ground truth are
/// computed up front (small), camera frames and depth maps are rendered only when the bus (or a
/// writer) asks for them — as deferred work, so ``PrefetchingSource`` renders several at once on
/// worker threads. A 141 s sequence is never held in memory.
///
/// Every frame's pixel noise has its own seed (derived from the sequence seed and the frame
/// number), so frames are identical whichever thread renders them and in whatever order.
/// Order: by time; at equal times IMU, then `cam0`, `cam1`, `depth0`.
public final class SimulatedSequenceSource: DeferredPacketSource {
    public let streams: [StreamDescription]
    /// `T_WB` at every IMU sample.
    public let groundTruth: Trajectory
    /// Packets the whole sequence will produce.
    public let packetCount: Int

    private let simulator: SequenceSimulator
    private let imu: [IMUSimulator.Sample]
    private let bearings: [Vector3]
    private let stereoBearings: [Vector3]?
    private let t0: Double
    private let frames: Int
    private let depthEvery: Int
    private var imuIndex = 0
    private var frameIndex = 0
    /// Which packet of the current frame time comes next: 0 cam0, 1 cam1, 2 depth0.
    private var part = 0

    init(_ simulator: SequenceSimulator) throws {
        self.simulator = simulator
        let c = simulator.configuration
        t0 = simulator.spline.validRange.lowerBound
        let duration = min(c.duration, simulator.spline.validRange.upperBound - t0)
        imu = c.imu.simulate(simulator.spline, from: t0, duration: duration, seed: c.seed)
        groundTruth = Trajectory(poses: imu.map { StampedPose(time: $0.timestamp.seconds, timestamp: $0.timestamp,
                                                               pose: simulator.spline.pose(at: $0.timestamp.seconds)) },
                                 name: "groundtruth")
        bearings = try TexturedScene.bearings(for: c.camera.model)
        stereoBearings = try c.stereoCamera.map { try TexturedScene.bearings(for: $0.model) }
        frames = Int((duration * c.cameraRateHz).rounded(.down)) + 1
        depthEvery = c.depthRateHz > 0 ? max(1, Int((c.cameraRateHz / c.depthRateHz).rounded())) : 0
        streams = simulator.streams
        packetCount = imu.count + frames * (c.stereoCamera == nil ? 1 : 2) + (depthEvery > 0 ? (frames + depthEvery - 1) / depthEvery : 0)
    }

    /// The camera frames' times, in order (what `cam0`'s packets carry: the time each was
    /// taken plus the configuration's ``SequenceSimulator/Configuration/cameraTimeOffset``).
    public var frameTimes: [Timestamp] {
        (0..<frames).map { stamp(ofFrameTakenAt: t0 + Double($0) / simulator.configuration.cameraRateHz) }
    }

    /// The stamp of a frame taken at `t` (s): `t` plus the camera's time offset, both rounded to
    /// nanoseconds apart, so every frame is later by exactly the same offset.
    func stamp(ofFrameTakenAt t: Double) -> Timestamp {
        Timestamp(nanoseconds: Timestamp(seconds: t).nanoseconds + Timestamp(seconds: simulator.configuration.cameraTimeOffset).nanoseconds)
    }

    /// The pixel-noise seed of frame `k` (`camera` 0 or 1).
    static func noiseSeed(_ seed: UInt64, frame k: Int, camera: UInt64) -> UInt64 {
        (seed &+ 0x5EED) &* 0x2545_F491_4F6C_DD1D &+ UInt64(k) &* 0x9E37_79B9_7F4A_7C15 &+ camera &* 0xD1B5_4A32_D192_ED03
    }

    public func nextDeferred() throws -> DeferredPacket? {
        let c = simulator.configuration
        while frameIndex < frames {
            let k = frameIndex
            // Taken at `t` (the pose rendered), stamped on the camera's clock.
            let t = t0 + Double(k) / c.cameraRateHz
            let stamp = stamp(ofFrameTakenAt: t)
            if imuIndex < imu.count, imu[imuIndex].timestamp <= stamp {
                defer { imuIndex += 1 }
                return .ready(AnyPacket(stream: "imu0", timestamp: imu[imuIndex].timestamp, payload: imu[imuIndex].measurement))
            }
            let sim = simulator, bearings = self.bearings
            switch part {
            case 0:
                part = 1
                return .work {
                    let rendered = sim.scene.render(camera: c.camera.model, bearings: bearings, worldFromCamera: sim.spline.pose(at: t) * c.camera.bodyFromSensor).image
                    var rng = SeededGenerator(seed: Self.noiseSeed(c.seed, frame: k, camera: 0))
                    return AnyPacket(stream: "cam0", timestamp: stamp, payload: CameraFrame(cameraID: "cam0", image: PixelNoise.add(to: rendered, sigma: c.pixelNoise, using: &rng)))
                }
            case 1:
                part = 2
                guard let right = c.stereoCamera, let rb = stereoBearings else { continue }
                return .work {
                    let rendered = sim.scene.render(camera: right.model, bearings: rb, worldFromCamera: sim.spline.pose(at: t) * right.bodyFromSensor).image
                    var rng = SeededGenerator(seed: Self.noiseSeed(c.seed, frame: k, camera: 1))
                    return AnyPacket(stream: "cam1", timestamp: stamp, payload: CameraFrame(cameraID: "cam1", image: PixelNoise.add(to: rendered, sigma: c.pixelNoise, using: &rng)))
                }
            default:
                part = 0
                frameIndex += 1
                guard depthEvery > 0, k % depthEvery == 0 else { continue }
                return .work {
                    var depth = sim.scene.render(camera: c.camera.model, bearings: bearings, worldFromCamera: sim.spline.pose(at: t) * c.camera.bodyFromSensor).depth
                    if c.depthNoise != .none {
                        var rng = SeededGenerator(seed: Self.noiseSeed(c.seed, frame: k, camera: 2))
                        depth = c.depthNoise.added(to: depth, using: &rng)
                    }
                    return AnyPacket(stream: "depth0", timestamp: stamp, payload: DepthMap(sensorID: "depth0", kind: .depth, values: depth))
                }
            }
        }
        guard imuIndex < imu.count else { return nil }
        defer { imuIndex += 1 }
        return .ready(AnyPacket(stream: "imu0", timestamp: imu[imuIndex].timestamp, payload: imu[imuIndex].measurement))
    }
}
