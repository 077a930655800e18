import ParallaxMath

/// Initializes an inertial state from a still IMU: gravity fixes roll and pitch (yaw is
/// arbitrary: 0), the mean gyroscope reading is its bias, position and velocity are zero.
///
/// A window counts as still when the specific force varies less than
/// ``maxAccelerationStd`` and the rotation rate less than ``maxRotationRate`` about their means,
/// the mean rotation rate (taken as the bias) is below ``maxGyroscopeBias`` — a steady turn is
/// not stillness — and the mean specific force is within ``gravityTolerance`` of `g`.
public struct StaticInitializer: Sendable {
    /// Seconds of IMU data the decision needs.
    public var window = 1.0
    /// Largest standard deviation of the specific force's norm in the window (m/s²).
    public var maxAccelerationStd = 0.15
    /// Largest deviation of any gyro sample from the window's mean (rad/s).
    public var maxRotationRate = 0.1
    /// Largest plausible gyroscope bias (rad/s): a larger mean rate is motion.
    public var maxGyroscopeBias = 0.2
    /// Largest difference between the mean specific force's norm and `gravity` (m/s²).
    public var gravityTolerance = 0.5
    /// Gravity magnitude (m/s²).
    public var gravity = 9.81

    public init() {}

    /// Why a window is not (yet) usable.
    public enum Refusal: Sendable, Equatable {
        /// Less than ``window`` seconds of data.
        case tooShort
        /// The platform moves (the measured variation exceeds the limits).
        case moving
        /// The mean specific force is not `g` (saturated or miscalibrated accelerometer, or in free fall).
        case notGravity(measured: Double)
    }

    /// The state at the last measurement's time, from the measurements of the last ``window``
    /// seconds, or why not.
    public func initialize(_ measurements: [IMUMeasurement]) -> Result<InertialState, StaticInitializerRefusal> {
        guard let last = measurements.last, let first = measurements.first, last.time - first.time >= window else {
            return .failure(StaticInitializerRefusal(.tooShort))
        }
        let recent = measurements.filter { $0.time >= last.time - window }
        let n = Double(recent.count)
        let meanF = recent.reduce(Vector3.zero) { $0 + $1.accelerometer } / n
        let meanW = recent.reduce(Vector3.zero) { $0 + $1.gyroscope } / n
        let norms = recent.map { $0.accelerometer.norm }
        let meanNorm = norms.reduce(0, +) / n
        let stdNorm = (norms.reduce(0) { $0 + ($1 - meanNorm) * ($1 - meanNorm) } / n).squareRoot()
        let maxGyro = recent.map { ($0.gyroscope - meanW).norm }.max() ?? 0
        guard stdNorm <= maxAccelerationStd, maxGyro <= maxRotationRate, meanW.norm <= maxGyroscopeBias else { return .failure(StaticInitializerRefusal(.moving)) }
        guard abs(meanF.norm - gravity) <= gravityTolerance, meanF.norm.isFinite else {
            return .failure(StaticInitializerRefusal(.notGravity(measured: meanF.norm)))
        }
        return .success(InertialState(rotation: Self.levelRotation(up: meanF), gyroscopeBias: meanW))
    }

    /// The error covariance (15 × 15, ``InertialState``'s error order) of a still start `state`:
    /// gravity fixes the tilt to about 0.6° (σ² 1e-4 rad² across the vertical, in the IMU frame of
    /// the right perturbation); yaw about the vertical and the position are the gauge the filter
    /// fixes at its start (σ² 1e-9 and 1e-8, only to stay positive definite); velocity σ 1 cm/s,
    /// gyro bias σ 3 mrad/s (the window's mean), accelerometer bias σ 0.1 m/s² (not observed still).
    public static func covariance(of state: InertialState) -> Matrix {
        var p = Matrix(rows: InertialState.errorDimension, columns: InertialState.errorDimension)
        let up = state.rotation.inverse * Vector3(0, 0, 1)
        let u = [up.x, up.y, up.z]
        for i in 0..<3 { for j in 0..<3 { p[i, j] = 1e-4 * ((i == j ? 1 : 0) - u[i] * u[j]) + 1e-9 * u[i] * u[j] } }
        typealias B = InertialState.Block
        for (block, variance) in [(B.position, 1e-8), (B.velocity, 1e-4), (B.gyroscopeBias, 1e-5), (B.accelerometerBias, 1e-2)] {
            for i in 0..<3 { p[block + i, block + i] = variance }
        }
        return p
    }

    /// `R_WI` with yaw 0 that maps the measured "up" direction (the specific force at rest, in
    /// `I`) to the world's +z.
    public static func levelRotation(up: Vector3) -> SO3 {
        let z = up.normalized
        // The world x axis seen in I: the IMU's x axis with its z component removed (or y, when x is vertical).
        var x = Vector3(1, 0, 0) - z * z.x
        if x.norm < 1e-6 { x = Vector3(0, 1, 0) - z * z.y }
        x = x.normalized
        let y = z.cross(x)
        // Rows are the world axes in I: R_WI maps I to W.
        return SO3(Matrix3(rows: x, y, z))
    }
}

/// ``StaticInitializer/Refusal`` as an error value.
public struct StaticInitializerRefusal: Error, Sendable, Equatable {
    public let reason: StaticInitializer.Refusal
    public init(_ reason: StaticInitializer.Refusal) { self.reason = reason }
}
