import Testing
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath
@testable import ParallaxVIO

/// The IMU side: times from the first reading, repeats and readings that are not finite
/// dropped, gaps measured with their ends, saturated readings widening the uncertainty.
@Suite struct PropagatorTests {
    static let imu = IMUCalibration(rateHz: 200, noise: VIOTestScene.imuNoise)

    /// A level, resting reading `ms` milliseconds after 1 s (the accelerometer at `force`).
    static func reading(_ ms: Int64, force: Vector3 = Vector3(0, 0, 9.81)) -> VIOIMUSample {
        VIOIMUSample(time: 1_000_000_000 + ms * 1_000_000, gyroscope: .zero, accelerometer: force)
    }

    @Test func timesCountFromTheFirstReadingAndRepeatsAreDropped() {
        var p = Propagator(accelerometerRange: 0, imu: Self.imu)
        #expect(p.seconds(123) == 0, "no reading yet: no clock")
        for ms: Int64 in [0, 5, 5, 3, 10] { #expect(p.append(Self.reading(ms)) == nil) }
        #expect(p.measurements.map(\.time) == [0, 0.005, 0.01])
        #expect(p.seconds(1_000_000_000 + 20_000_000) == 0.02)
    }

    @Test func aReadingThatIsNotFiniteIsSkippedAndSaidOnce() {
        var p = Propagator(accelerometerRange: 0, imu: Self.imu)
        #expect(p.append(Self.reading(0)) == nil)
        #expect(p.append(Self.reading(5, force: Vector3(.nan, 0, 9.81))) == .nonFiniteIMU(time: 1_005_000_000))
        #expect(p.append(Self.reading(10, force: Vector3(0, .infinity, 9.81))) == nil)
        #expect(p.measurements.count == 1)
    }

    /// A reading beyond twice the accelerometer's full scale is a corrupt record (a 16 g sensor
    /// reading 1e4 m/s² reset the filter at 49.6 m/s): skipped, said once, counted; one at the
    /// full scale is a saturated reading, kept.
    @Test func aReadingBeyondTwiceTheFullScaleIsSkippedAndSaidOnce() {
        var p = Propagator(accelerometerRange: 156.9, imu: Self.imu)
        #expect(p.append(Self.reading(0)) == nil)
        #expect(p.append(Self.reading(5, force: Vector3(-1e4, 0, 9.81))) == .implausibleIMU(time: 1_005_000_000, accelerometer: -1e4, gyroscope: 0))
        #expect(p.append(Self.reading(10, force: Vector3(0, -1e30, 9.81))) == nil)
        #expect(p.append(Self.reading(15, force: Vector3(156.9, 0, 9.81))) == nil)
        // A gyro beyond any sensor's range (1e4 rad/s) likewise; 30 rad/s (1700°/s) is a motion.
        #expect(p.append(VIOIMUSample(time: 1_020_000_000, gyroscope: Vector3(0, 1e4, 0), accelerometer: Vector3(0, 0, 9.81))) == nil)
        #expect(p.append(VIOIMUSample(time: 1_025_000_000, gyroscope: Vector3(0, 30, 0), accelerometer: Vector3(0, 0, 9.81))) == nil)
        #expect(p.measurements.map(\.time) == [0, 0.015, 0.025])
        #expect(p.beyondScaleCount == 3 && p.saturatedCount == 1)
    }

    @Test func theLargestGapCountsTheEnds() {
        var p = Propagator(accelerometerRange: 0, imu: Self.imu)
        for ms: Int64 in [0, 5, 10, 60, 65] { _ = p.append(Self.reading(ms)) }
        #expect(abs((p.largestGap(from: 0, to: 0.065) ?? 0) - 0.05) < 1e-12, "between readings")
        #expect(abs((p.largestGap(from: 0, to: 0.14) ?? 0) - 0.075) < 1e-12, "after the newest reading")
        #expect(abs((p.largestGap(from: 0.5, to: 0.6) ?? 0) - 0.1) < 1e-12, "no reading at all")
    }

    /// Readings at the accelerometer's rails understate the specific force: velocity and
    /// position variances grow by `(range · span)²` and `(range · span²)²`, `span` the time the
    /// clipped readings stand for.
    @Test func saturatedReadingsWidenVelocityAndPosition() throws {
        func propagated(range: Double) throws -> (MSCKF, Bool) {
            var p = Propagator(accelerometerRange: range, imu: Self.imu)
            for ms in stride(from: Int64(0), through: 50, by: 5) { _ = p.append(Self.reading(ms, force: Vector3(0, 0, ms >= 20 && ms <= 30 ? 20 : 9.81))) }
            var f = MSCKF(state: InertialState(), time: 0, covariance: Matrix(rows: 15, columns: 15), calibration: .init(imuFromCamera: .identity, timeOffset: 0),
                          propagation: IMUPropagation(noise: VIOTestScene.imuNoise), normalizedNoise: 0.002)
            let clipped = try p.propagate(&f, to: 0.05)
            return (f, clipped)
        }
        let (plain, none) = try propagated(range: 0)
        let (widened, clipped) = try propagated(range: 20)
        #expect(!none && clipped)
        let span = 3 * 0.005, dv = 20 * span, dp = dv * span
        let v = InertialState.Block.velocity, x = InertialState.Block.position
        #expect(abs(widened.covariance[v, v] - plain.covariance[v, v] - dv * dv) < 1e-12)
        #expect(abs(widened.covariance[x + 2, x + 2] - plain.covariance[x + 2, x + 2] - dp * dp) < 1e-12)
        #expect(widened.state == plain.state, "the state itself is not touched")
    }

    @Test func angularRateIsInterpolatedBetweenReadings() {
        var p = Propagator(accelerometerRange: 0, imu: Self.imu)
        _ = p.append(VIOIMUSample(time: 0, gyroscope: Vector3(0, 0, 1), accelerometer: Vector3(0, 0, 9.81)))
        _ = p.append(VIOIMUSample(time: 10_000_000, gyroscope: Vector3(0, 0, 3), accelerometer: Vector3(0, 0, 9.81)))
        #expect(abs(p.angularRate(at: 0.0025).z - 1.5) < 1e-12)
        #expect(p.angularRate(at: 1) == Vector3(0, 0, 3), "past the newest: the newest")
    }
}
