import ParallaxBus
import ParallaxPayloads
import ParallaxMath

/// Integrates the gyroscope between consecutive camera frames (the rotation the camera
/// should see), using every IMU sample between them, linearly interpolated at the frame
/// times, midpoint rule on SO(3). The IMU input looks ahead (`.between(through: .firstAfter)`):
/// each frame also receives the first sample after it, so both ends are interpolated, never
/// extrapolated. Emits nothing for the first frame or when IMU does not cover the interval
/// (warns once). A gyroscope bias is subtracted from every sample: given (`gyro_bias`), or
/// estimated as the mean rate over the first `bias_from_still_s` seconds of a recording that
/// starts still (frames in that interval give no rotation: their samples estimate the bias).
///
/// Example chain: `imu-integrator camera=cam0 imu=imu0`
public struct IMUIntegrator: Analyzer {
    public static let name = "imu-integrator"
    public static let summary = "Gyroscope rotation between consecutive camera frames (midpoint rule, interpolated at frame times)"

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream whose frames delimit the intervals") public var camera = "cam0"
        @Parameter("IMU stream (gyro in rad/s)") public var imu = "imu0"
        @Parameter("gyroscope bias subtracted from every sample (rad/s; x, y, z in the IMU frame)") public var gyroBias: [Double] = [0, 0, 0]
        @Parameter("estimate the gyroscope bias as the mean rate over this first stretch of IMU data, which must be still (s); 0: use gyro_bias",
                   range: 0...3600) public var biasFromStillS = 0.0
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let imu: InputPort<IMUSample>
    private let rotation: OutputPort<FrameRotation>
    private var previousFrame: Timestamp?
    /// Samples kept across frames: the last one at or before the previous frame, then newer.
    private var window: [Packet<IMUSample>] = []
    private var warnedGap = false
    /// The bias subtracted (rad/s); nil while it is still being estimated.
    private var bias: Vector3?
    /// Still-interval estimate: sum of rates, sample count, first sample time.
    private var stillSum = Vector3.zero, stillCount = 0, stillStart: Timestamp?
    private let stillSeconds: Double

    public init(options: Options) throws {
        guard options.gyroBias.count == 3, options.gyroBias.allSatisfy(\.isFinite) else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "gyro_bias", reason: "expected three finite numbers [x, y, z] in rad/s")
        }
        stillSeconds = options.biasFromStillS
        bias = stillSeconds > 0 ? nil : Vector3(options.gyroBias[0], options.gyroBias[1], options.gyroBias[2])
        frames = .each(options.camera)
        imu = .between(options.imu, through: .firstAfter)
        rotation = OutputPort("\(options.camera)/gyro-rotation")
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        // The rotations are in the IMU's frame and delimit this camera's frames: forward both
        // calibrations, so that a consumer (klt's rotation-aided tracking) can move them into the camera.
        context.describe(rotation, as: StreamMetadata(camera: context.metadata(of: frames).camera, imu: context.metadata(of: imu).imu))
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        let t1 = input.timestamp
        // The first sample after the previous frame comes again in this call: append only what is new.
        let newest = window.last?.timestamp
        let fresh = input.between(imu).filter { p in newest.map { p.timestamp > $0 } ?? true }
        window += fresh
        if bias == nil {
            for p in fresh {
                let start = stillStart ?? p.timestamp
                stillStart = start
                guard p.timestamp.seconds(since: start) <= stillSeconds else {
                    bias = stillSum * (1 / Double(stillCount))   // the first sample always counts
                    break
                }
                stillSum = stillSum + p.payload.gyroscope
                stillCount += 1
            }
        }
        defer {
            previousFrame = t1
            // Keep the last sample at or before t1 for the next interval's start.
            if let keep = window.lastIndex(where: { $0.timestamp <= t1 }) { window.removeFirst(keep) }
        }
        guard let t0 = previousFrame, let bias else { return }
        guard let first = window.first, first.timestamp <= t0, let last = window.last, last.timestamp >= t1 else {
            if !warnedGap { context.warn("IMU does not cover \(t0.nanoseconds)…\(t1.nanoseconds) ns; no rotation for such frames"); warnedGap = true }
            return
        }
        var r = SO3.identity
        var count = 0
        for k in 0..<(window.count - 1) {
            let a = window[k], b = window[k + 1]
            let lo = max(a.timestamp, t0), hi = min(b.timestamp, t1)
            guard hi > lo else { continue }
            let span = Double(b.timestamp.nanoseconds - a.timestamp.nanoseconds)
            func omega(_ t: Timestamp) -> Vector3 {
                let s = span > 0 ? Double(t.nanoseconds - a.timestamp.nanoseconds) / span : 0
                return a.payload.gyroscope + (b.payload.gyroscope - a.payload.gyroscope) * s - bias
            }
            let mid = (omega(lo) + omega(hi)) * 0.5
            r = r * SO3.exp(mid * hi.seconds(since: lo))
            if b.timestamp <= t1, b.timestamp > t0 { count += 1 }
        }
        let phi = r.log
        context.emit(FrameRotation(rotationVector: phi, angle: phi.norm, samples: count, interval: t1.seconds(since: t0)),
                     on: rotation, at: t1)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        if bias == nil, stillCount > 0 {
            context.warn("the IMU data ended within the \(stillSeconds) s still interval: no bias estimate, no rotations")
        }
    }
}
