import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath

/// Synthesizes IMU samples along an ``SE3Spline``, deterministic by seed.
///
/// Gyro: `ω_B + b_g + n_g`; accelerometer: `R_WBᵀ (a_W − g_W) + b_a + n_a` with
/// `g_W = (0, 0, −gravity)` (z up). Discrete noise from the continuous densities of an
/// ``IMUNoiseModel`` (Kalibr convention): white `σ_d = σ_c / √Δt`, bias random walk
/// `b ← b + σ_bc √Δt · n`.
public struct IMUSimulator: Sendable {
    public var noise: IMUNoiseModel
    /// Sample rate (Hz).
    public var rateHz: Double
    /// Gravity magnitude (m/s²).
    public var gravity = 9.81
    /// Initial biases (rad/s, m/s²).
    public var initialGyroBias = Vector3.zero
    public var initialAccelerometerBias = Vector3.zero

    public init(noise: IMUNoiseModel, rateHz: Double) {
        self.noise = noise
        self.rateHz = rateHz
    }

    /// A noiseless model (for integration checks).
    public static func ideal(rateHz: Double) -> IMUSimulator {
        IMUSimulator(noise: IMUNoiseModel(gyroscopeNoiseDensity: 0, gyroscopeRandomWalk: 0, accelerometerNoiseDensity: 0, accelerometerRandomWalk: 0), rateHz: rateHz)
    }

    /// One simulated sample and the true biases at that time.
    public struct Sample: Sendable {
        public var timestamp: Timestamp
        public var measurement: IMUSample
        public var gyroBias: Vector3
        public var accelerometerBias: Vector3
    }

    /// Samples at `k / rateHz` seconds after `from` (on the spline's clock) for `duration` s.
    public func simulate(_ spline: SE3Spline, from: Double, duration: Double, seed: UInt64) -> [Sample] {
        var rng = SeededGenerator(seed: seed)
        let dt = 1 / rateHz
        let n = Int((duration * rateHz).rounded(.down)) + 1
        var bg = initialGyroBias, ba = initialAccelerometerBias
        let g = Vector3(0, 0, -gravity)
        func gaussian3(_ rng: inout SeededGenerator) -> Vector3 { Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) }
        return (0..<n).map { k in
            let t = from + Double(k) * dt
            let s = spline.evaluate(t)
            let gyro = s.angularVelocity + bg + gaussian3(&rng) * (noise.gyroscopeNoiseDensity / dt.squareRoot())
            let accel = s.pose.rotation.inverse * (s.acceleration - g) + ba + gaussian3(&rng) * (noise.accelerometerNoiseDensity / dt.squareRoot())
            let sample = Sample(timestamp: Timestamp(seconds: t), measurement: IMUSample(gyroscope: gyro, accelerometer: accel), gyroBias: bg, accelerometerBias: ba)
            bg += gaussian3(&rng) * (noise.gyroscopeRandomWalk * dt.squareRoot())
            ba += gaussian3(&rng) * (noise.accelerometerRandomWalk * dt.squareRoot())
            return sample
        }
    }
}

/// Overlapping Allan deviation of a uniformly sampled signal, the standard IMU noise check.
public enum AllanDeviation {
    /// σ_A(τ) for cluster size `m` samples (τ = m·Δt) of `values`.
    public static func overlapping(_ values: [Double], clusterSize m: Int) -> Double {
        let n = values.count
        guard m >= 1, n > 2 * m else { return .nan }
        // Cumulative sums make every cluster mean O(1).
        var cumulative = [0.0]
        cumulative.reserveCapacity(n + 1)
        for v in values { cumulative.append(cumulative.last! + v) }
        var sum = 0.0
        let terms = n - 2 * m + 1
        for k in 0..<terms {
            let a = (cumulative[k + m] - cumulative[k]) / Double(m)
            let b = (cumulative[k + 2 * m] - cumulative[k + m]) / Double(m)
            sum += (b - a) * (b - a)
        }
        return (sum / (2 * Double(terms))).squareRoot()
    }
}
