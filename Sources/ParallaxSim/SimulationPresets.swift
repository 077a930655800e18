import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath

/// Ready-made simulations, so the bench, the tests and users simulate the same sequences.
public enum SimulationPresets {
    /// EuRoC's cam0 (intrinsics and radial-tangential distortion scaled from its 752 px width to
    /// `width`, 20 Hz, looking along body x) and ADIS16448 IMU noise (EuRoC's `sensor.yaml`,
    /// 200 Hz), on the built-in orbit through an 8 × 6 × 3.5 m room textured with `textures`
    /// (a seeded noise texture when empty). No depth stream.
    /// With `stereo`, a second camera `cam1` with EuRoC cam1's intrinsics, 11 cm to the first's right.
    /// With `following`, the body moves along that spline instead (e.g. fitted to a real
    /// ground truth), in a room around its path (``room(around:textures:)``).
    /// With `cameras` (one calibration, or two for a stereo pair), those cameras replace the
    /// built-in ones, mounted as their `T_BS` says: a trajectory recorded with a real rig is seen
    /// as that rig saw it (EuRoC's cam0 looks along body z; body x is up there). `width` and
    /// `stereo` are then unused: the cameras' files say.
    public static func eurocOrbit(seconds: Double, seed: UInt64, width: Int = 376, still: Double = 0, stereo: Bool = false,
                                  following: SE3Spline? = nil, cameras: [CameraCalibration] = [], textures: [ImageBuffer<UInt8>]) -> SequenceSimulator {
        let s = Double(width) / 752
        let camera = cameras.first ?? eurocCamera(width: width)
        let surfaces = self.surfaces(textures, seed: seed)
        let spline = following ?? SyntheticMotion.orbit(seconds: seconds, still: still)
        let scene = following.map { room(around: $0, textures: surfaces) }
            ?? TexturedScene.room(min: Vector3(-4, -3, 0), max: Vector3(4, 3, 3.5), textures: surfaces)
        var config = SequenceSimulator.Configuration(camera: camera, imu: IMUSimulator(noise: euRoCIMUNoise, rateHz: 200))
        config.duration = seconds
        config.seed = seed
        config.depthRateHz = 0
        if cameras.count > 1 {
            config.stereoCamera = cameras[1]
        } else if stereo {
            // Camera x is body −y: the partner sits 11 cm along it.
            config.stereoCamera = CameraCalibration(
                model: CameraModel(width: camera.model.width, height: camera.model.height,
                                   intrinsics: PinholeIntrinsics(fx: 457.587 * s, fy: 456.134 * s, cx: (379.999 + 0.5) * s - 0.5, cy: (255.238 + 0.5) * s - 0.5),
                                   distortion: .radialTangential(k1: -0.28368365, k2: 0.07451284, p1: -0.00010473, p2: -3.555907e-05)),
                bodyFromSensor: SE3(rotation: camera.bodyFromSensor.rotation, translation: Vector3(0, -0.11, 0)),
                rateHz: 20, comment: "simulated, EuRoC cam1 intrinsics scaled to \(width) px, 11 cm right of cam0")
        }
        return SequenceSimulator(spline: spline, scene: scene, configuration: config)
    }

    /// The built-in rig's cam0: EuRoC cam0's intrinsics and radial-tangential distortion scaled
    /// from its 752 px width to `width`, 20 Hz, looking along body x.
    public static func eurocCamera(width: Int) -> CameraCalibration {
        let s = Double(width) / 752
        return CameraCalibration(
            model: CameraModel(width: width, height: Int((480 * s).rounded()),
                               intrinsics: PinholeIntrinsics(fx: 458.654 * s, fy: 457.296 * s, cx: (367.215 + 0.5) * s - 0.5, cy: (248.375 + 0.5) * s - 0.5),
                               distortion: .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05)),
            bodyFromSensor: SE3(rotation: SO3(Matrix3(rows: Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, -1, 0))), translation: .zero),
            rateHz: 20, comment: "simulated, EuRoC cam0 intrinsics scaled to \(width) px, looking along body x")
    }

    /// The room's surface images: `textures`, or a seeded 256 × 256 noise texture when empty.
    public static func surfaces(_ textures: [ImageBuffer<UInt8>], seed: UInt64) -> [ImageBuffer<UInt8>] {
        guard textures.isEmpty else { return textures }
        var rng = SeededGenerator(seed: seed)
        return [ImageBuffer<UInt8>(width: 256, height: 256, samples: (0..<65536).map { _ in UInt8(truncatingIfNeeded: rng.next()) })]
    }

    /// A room around a path: its bounding box grown by 1.5 m on every side but the floor, which
    /// lies at z = 0 or 0.5 m below the lowest point.
    public static func room(around spline: SE3Spline, textures: [ImageBuffer<UInt8>]) -> TexturedScene {
        let positions = stride(from: spline.validRange.lowerBound, through: spline.validRange.upperBound, by: 0.05).map { spline.pose(at: $0).translation }
        var lo = Vector3(repeating: .infinity), hi = Vector3(repeating: -.infinity)
        for p in positions {
            lo = Vector3(min(lo.x, p.x), min(lo.y, p.y), min(lo.z, p.z))
            hi = Vector3(max(hi.x, p.x), max(hi.y, p.y), max(hi.z, p.z))
        }
        lo -= Vector3(1.5, 1.5, 0)
        hi += Vector3(1.5, 1.5, 1.5)
        return TexturedScene.room(min: Vector3(lo.x, lo.y, min(0, lo.z - 0.5)), max: hi, textures: textures)
    }

    /// EuRoC's ADIS16448 noise densities, as in its `imu0/sensor.yaml`.
    public static let euRoCIMUNoise = IMUNoiseModel(gyroscopeNoiseDensity: 1.6968e-04, gyroscopeRandomWalk: 1.9393e-05,
                                                    accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3)
}
