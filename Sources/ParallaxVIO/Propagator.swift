import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

/// The IMU side of the estimator (OpenVINS's propagator): the readings still needed (times in
/// s since the first one), saturation of the accelerometer, gaps, and the propagation of the
/// filter to a frame's time.
struct Propagator {
    /// Accelerometer full scale (m/s², per axis; 0: never saturated).
    let accelerometerRange: Double
    /// The time one reading stands for (s): the IMU's sampling period.
    let samplePeriod: Double
    /// IMU measurements (time in s since `epoch`), oldest first, trimmed to what is still needed.
    private(set) var measurements: [IMUMeasurement] = []
    /// The first reading's time (ns): the zero of the estimator's times.
    private(set) var epoch: Int64?
    private var warnedNaN = false
    private var warnedBeyondScale = false
    /// Readings skipped: an accelerometer beyond twice its full scale, a gyro beyond
    /// ``gyroscopeLimit``.
    private(set) var beyondScaleCount = 0
    /// The largest angular rate read as a motion (rad/s): twice the ±4000°/s of the widest MEMS gyros.
    static let gyroscopeLimit = 140.0
    /// Times (s) of accelerometer readings at full scale, not yet propagated through.
    private var saturated: [Double] = []
    /// Readings at full scale in all.
    private(set) var saturatedCount = 0

    init(accelerometerRange: Double, imu: IMUCalibration) {
        self.accelerometerRange = accelerometerRange
        samplePeriod = imu.rateHz > 0 ? 1 / imu.rateHz : 0.005
    }

    /// `t` (ns) in s since the first reading (0 before any).
    func seconds(_ t: Int64) -> Double {
        guard let epoch else { return 0 }
        return Double(t - epoch) / 1e9
    }

    /// Takes a reading; a repeated or older one is dropped. A reading that is not finite is
    /// skipped, and the first one is returned as an event.
    mutating func append(_ s: VIOIMUSample) -> VIOEvent? {
        guard [s.gyroscope, s.accelerometer].allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
            if !warnedNaN { warnedNaN = true; return .nonFiniteIMU(time: s.time) }
            return nil
        }
        // A sensor reads no more than its full scale (saturated readings sit at it): one beyond
        // twice that is a corrupt record, not a motion (a reading of 1e4 m/s², 64× a 16 g
        // accelerometer's, was integrated as one: 49.6 m/s, the filter reset, 41 poses lost).
        // A gyro reading beyond 140 rad/s (8000°/s, twice the widest MEMS gyro's range) is one too.
        let a = s.accelerometer, w = s.gyroscope
        let worstAccelerometer = [a.x, a.y, a.z].max { abs($0) < abs($1) } ?? 0, worstGyroscope = [w.x, w.y, w.z].max { abs($0) < abs($1) } ?? 0
        if (accelerometerRange > 0 && abs(worstAccelerometer) > 2 * accelerometerRange) || abs(worstGyroscope) > Self.gyroscopeLimit {
            beyondScaleCount += 1
            if !warnedBeyondScale {
                warnedBeyondScale = true
                return .implausibleIMU(time: s.time, accelerometer: worstAccelerometer, gyroscope: worstGyroscope)
            }
            return nil
        }
        if epoch == nil { epoch = s.time }
        let m = IMUMeasurement(time: seconds(s.time), gyroscope: s.gyroscope, accelerometer: s.accelerometer)
        // The first sample after the previous frame arrives twice (look-ahead): keep one.
        if let last = measurements.last, m.time <= last.time { return nil }
        measurements.append(m)
        if accelerometerRange > 0, max(abs(a.x), abs(a.y), abs(a.z)) >= 0.995 * accelerometerRange {
            saturated.append(m.time)
            saturatedCount += 1
        }
        return nil
    }

    /// Propagates `f` to `t` (s); returns whether readings at full scale were propagated
    /// through. Saturated readings understate the specific force by an unknown amount (up to
    /// the full scale): velocity and position are widened by that much.
    mutating func propagate(_ f: inout MSCKF, to t: Double) throws -> Bool {
        let from = f.time
        try f.propagate(measurements, to: t)
        let clipped = saturated.filter { $0 > from - 1e-9 && $0 <= t }.count
        saturated.removeAll { $0 <= t }
        guard clipped > 0 else { return false }
        let span = Double(clipped) * samplePeriod
        let dv = accelerometerRange * span, dp = dv * span
        for i in 0..<3 {
            f.covariance[InertialState.Block.velocity + i, InertialState.Block.velocity + i] += dv * dv
            f.covariance[InertialState.Block.position + i, InertialState.Block.position + i] += dp * dp
        }
        return true
    }

    /// The longest stretch (s) between `from` and `to` without IMU data, the ends included (a
    /// frame time past the newest sample is a gap as long).
    func largestGap(from: Double, to: Double) -> Double? { Self.largestGap(in: measurements, from: from, to: to) }

    /// The longest stretch (s) between `from` and `to` without one of `measurements` (time order),
    /// the ends included.
    static func largestGap(in measurements: [IMUMeasurement], from: Double, to: Double) -> Double? {
        let inside = measurements.filter { $0.time >= from - 0.1 && $0.time <= to + 0.1 }
        guard let first = inside.first, let last = inside.last else { return to - from }
        let between = zip(inside, inside.dropFirst()).map { $1.time - $0.time }.max() ?? 0
        return max(between, first.time - from, to - last.time)
    }

    /// The bias-free gyro reading interpolated at `t` (rad/s, IMU frame; zero without data).
    func angularRate(at t: Double) -> Vector3 {
        guard let after = measurements.firstIndex(where: { $0.time >= t }) else { return measurements.last?.gyroscope ?? .zero }
        guard after > 0 else { return measurements[after].gyroscope }
        return IMUMeasurement.interpolated(measurements[after - 1], measurements[after], at: t).gyroscope
    }

    /// Before a start: drops what is older than `from` (s), but the reading just before it.
    mutating func keep(from: Double) {
        if let cut = measurements.firstIndex(where: { $0.time >= from }), cut > 1 { measurements.removeFirst(cut - 1) }
    }

    /// With the filter at `t` (s): keeps the last reading at or before `t` (the next interval
    /// starts there) and the `window` s of still detection before it.
    mutating func trim(before t: Double, window: Double) {
        let from = t - window - 0.05
        if let keep = measurements.lastIndex(where: { $0.time <= min(t, from) }), keep > 0 { measurements.removeFirst(keep) }
    }
}
