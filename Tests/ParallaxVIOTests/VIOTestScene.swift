import ParallaxBus
import ParallaxGeometry
import ParallaxMath
import ParallaxPayloads
import ParallaxSim
import ParallaxVIO

/// What the estimator's tests feed it, without the bus: the simulator's orbit through the test
/// room (EuRoC's camera at 376 px, its IMU noise at 200 Hz), the IMU readings it gives and the
/// exact projections of landmarks on the room's walls, with pixel noise, as feature tracks.
enum VIOTestScene {
    static let simulator = SimulationPresets.eurocOrbit(seconds: 9, seed: 5, width: 376, still: 1.5, textures: [])
    static let camera = simulator.configuration.camera
    static let imuNoise = simulator.configuration.imu.noise
    static let imuCalibration = IMUCalibration(rateHz: 200, noise: imuNoise)

    /// Landmarks spread over the room's walls, floor and ceiling.
    static func landmarks(seed: UInt64) -> [Vector3] { SimulationPresets.roomLandmarks(seed: seed) }

    /// A simulated run: the IMU readings, the frames' tracks (20 Hz), and the truth.
    struct Sequence {
        var imu: [VIOIMUSample]
        var frames: [VIOFeatureFrame]
        /// `T_WB` at each frame's time.
        var truth: [SE3]
        /// The simulated IMU's biases at each frame's time (gyroscope rad/s, accelerometer m/s²).
        var gyroscopeBias: [Vector3]
        var accelerometerBias: [Vector3]
    }

    /// `seconds` of the orbit (standing `still` s first), `pixelNoise` px on each observation,
    /// tracks renewed every `trackLength` frames (as real tracks end), 150 features at most per
    /// frame; no IMU data over `imuGap` (s from the start); the IMU starting with the biases
    /// `gyroscopeBias` (rad/s) and `accelerometerBias` (m/s²).
    static func sequence(seconds: Double, pixelNoise: Double, still: Double = 1.5, imuGap: ClosedRange<Double>? = nil,
                         gyroscopeBias: Vector3 = .zero, accelerometerBias: Vector3 = .zero, trackLength: Int = 15) -> Sequence {
        let spline = still == 1.5 ? simulator.spline : SimulationPresets.eurocOrbit(seconds: 9, seed: 5, width: 376, still: still, textures: []).spline
        let t0 = spline.validRange.lowerBound
        var imuModel = simulator.configuration.imu
        imuModel.initialGyroBias = gyroscopeBias
        imuModel.initialAccelerometerBias = accelerometerBias
        let samples = imuModel.simulate(spline, from: t0, duration: seconds, seed: 9)
        let imu = samples.filter { s in imuGap.map { !$0.contains(s.timestamp.seconds - t0) } ?? true }.map {
            VIOIMUSample(time: $0.timestamp.nanoseconds, gyroscope: $0.measurement.gyroscope, accelerometer: $0.measurement.accelerometer)
        }
        let points = landmarks(seed: 2)
        var rng = SeededGenerator(seed: 13)
        var live: [Int: (id: UInt64, age: Int)] = [:]
        var nextID: UInt64 = 0
        var frames: [VIOFeatureFrame] = [], truth: [SE3] = [], gyro: [Vector3] = [], accel: [Vector3] = []
        for k in 0..<Int(seconds * 20) {
            let t = t0 + Double(k) / 20
            let worldFromCamera = spline.pose(at: t) * camera.bodyFromSensor
            var features: [VIOFeature] = [], ended: [UInt64] = []
            var seen = Set<Int>()
            for (i, p) in points.enumerated() {
                let c = worldFromCamera.inverse * p
                guard c.z > 0.3, let px = camera.model.project(c), camera.model.contains(px, margin: 2) else { continue }
                var track = live[i] ?? (nextID, 0)
                if live[i] == nil { nextID += 1 }
                if track.age >= trackLength {
                    ended.append(track.id)
                    track = (nextID, 0)
                    nextID += 1
                }
                track.age += 1
                live[i] = track
                seen.insert(i)
                let noisy = px + Vector2(rng.nextGaussian(), rng.nextGaussian()) * pixelNoise
                features.append(VIOFeature(id: track.id, pixel: noisy, normalized: try? camera.model.normalized(noisy), age: track.age))
            }
            for (i, track) in live where !seen.contains(i) {
                ended.append(track.id)
                live[i] = nil
            }
            let stamp = Timestamp(seconds: t)
            frames.append(VIOFeatureFrame(time: stamp.nanoseconds, features: Array(features.sorted { $0.id < $1.id }.prefix(150)), ended: ended.sorted()))
            truth.append(spline.pose(at: t))
            let sample = samples.last { $0.timestamp <= stamp } ?? samples[0]
            gyro.append(sample.gyroBias)
            accel.append(sample.accelerometerBias)
        }
        return Sequence(imu: imu, frames: frames, truth: truth, gyroscopeBias: gyro, accelerometerBias: accel)
    }

    /// An estimator with `settings` for the scene's camera and IMU.
    static func estimator(_ settings: VIOSettings = VIOSettings()) -> VIOEstimator {
        VIOEstimator(settings: settings, sensors: VIOSensors(camera: camera, imu: imuCalibration))
    }

    /// Feeds `sequence` to `estimator` as the bus does: before each frame, the readings up to
    /// it and the first one after it. Returns the frames' estimates and the events, in order.
    static func run(_ sequence: Sequence, through estimator: inout VIOEstimator) -> (estimates: [VIOEstimate], events: [VIOEvent]) {
        var estimates: [VIOEstimate] = [], events: [VIOEvent] = []
        var next = 0
        for frame in sequence.frames {
            while next < sequence.imu.count && sequence.imu[next].time <= frame.time {
                estimator.feed(imu: sequence.imu[next])
                next += 1
            }
            if next < sequence.imu.count { estimator.feed(imu: sequence.imu[next]) }
            estimates.append(estimator.feed(tracks: frame))
            events += estimator.takeEvents()
        }
        return (estimates, events)
    }

    /// The RMS position error (m) of the estimates in state normal after aligning them to the
    /// truth by a rigid motion (Umeyama, SE3): the absolute trajectory error.
    static func ate(_ estimates: [VIOEstimate], truth: [SE3]) throws -> Double {
        let normal = estimates.indices.filter { estimates[$0].trackingState == .normal }
        let alignment = try Umeyama.align(source: normal.map { estimates[$0].worldFromBody.translation },
                                          target: normal.map { truth[$0].translation }, mode: .se3)
        return alignment.rmse
    }
}
