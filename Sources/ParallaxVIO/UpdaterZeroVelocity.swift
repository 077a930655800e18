import ParallaxInertial
import ParallaxMath

/// Zero-velocity updates (OpenVINS's `UpdaterZeroVelocity`): while the platform stands still —
/// the IMU still over ``window`` and the features moving at most ``maxDisparityPx`` over it — a
/// pseudo-measurement `v = 0` holds it in place: a still camera gives no parallax, so vision
/// alone cannot stop the drift. Both tests are needed: a slow steady turn or a slow walk looks
/// still to the IMU.
struct UpdaterZeroVelocity {
    /// Whether the updates are made at all.
    let enabled: Bool
    /// IMU data still for this long counts as standing still (s).
    let window: Double
    /// Largest median feature motion over ``window`` (px).
    let maxDisparityPx: Double
    /// Largest σ of the specific force's norm (m/s²) and gyro deviation from its mean (rad/s).
    let maxAccelerationStd: Double
    let maxRotationRate: Double
    /// σ of the measurement (m/s).
    let velocityNoise: Double
    /// Updates made.
    private(set) var count = 0

    init(_ settings: VIOSettings) {
        enabled = settings.zupt
        window = settings.zuptWindow
        maxDisparityPx = settings.zuptMaxDisparityPx
        maxAccelerationStd = settings.zuptMaxAccelerationStd
        maxRotationRate = settings.zuptMaxRotationRate
        velocityNoise = settings.zuptVelocityNoise
    }

    /// Whether the platform stands still at `t` (s): the IMU still over the last ``window``
    /// seconds and the features' median motion over it at most ``maxDisparityPx``.
    func isStandingStill(at t: Double, views: RecentViews, imu measurements: [IMUMeasurement]) -> Bool {
        guard enabled else { return false }
        // The images must have seen most of the window (not the first frame after a gap alone).
        guard let motion = views.motion(over: window, at: t, minimumSpan: 0.75 * window), motion <= maxDisparityPx else { return false }
        var detector = StaticInitializer()
        detector.window = window
        let recent = measurements.filter { $0.time <= t && $0.time >= t - window - 0.01 }
        // Biases are known here: judge the variation, not the level.
        detector.maxGyroscopeBias = .infinity
        detector.maxAccelerationStd = maxAccelerationStd
        detector.maxRotationRate = maxRotationRate
        if case .success = detector.initialize(recent) { return true }
        return false
    }

    /// The zero-velocity pseudo-measurement: `v = 0`.
    mutating func update(_ f: inout MSCKF) throws {
        var h = Matrix(rows: 3, columns: f.dimension)
        for i in 0..<3 { h[i, InertialState.Block.velocity + i] = 1 }
        let v = f.state.velocity
        try f.update(h: h, r: [-v.x, -v.y, -v.z], variance: velocityNoise * velocityNoise)
        count += 1
    }
}
