import ParallaxInertial
import ParallaxMath

extension DynamicInitializer {
    /// How much the specific force changes over `from…to` beyond noise and gyro-bias drift
    /// (m/s²): each sample is rotated into the IMU frame at `from` by the integrated gyro and
    /// averaged over 50 ms blocks (so the accelerometer's white noise mostly cancels); a
    /// straight line in time is fitted per axis (a constant gyro bias turns gravity at a
    /// constant rate), and the RMS of the blocks' distances from it is returned. Near zero for
    /// any motion at constant velocity, rotating or not; large for a shaking hand.
    static func excitation(_ imu: [IMUMeasurement], from: Double, to: Double) -> Double {
        let inside = imu.filter { $0.time >= from && $0.time <= to }
        guard inside.count >= 2 else { return 0 }
        var rotation = SO3.identity
        var blocks: [(time: Double, force: Vector3, count: Int)] = []
        for (k, m) in inside.enumerated() {
            if k > 0 { rotation = rotation * SO3.exp(inside[k - 1].gyroscope * (m.time - inside[k - 1].time)) }
            let block = Int(((m.time - from) / 0.05).rounded(.down))
            if blocks.count <= block {
                blocks.append((m.time, rotation * m.accelerometer, 1))
            } else {
                blocks[blocks.count - 1].force += rotation * m.accelerometer
                blocks[blocks.count - 1].count += 1
                blocks[blocks.count - 1].time += m.time
            }
        }
        let points = blocks.map { (t: $0.time / Double($0.count), f: $0.force / Double($0.count)) }
        guard points.count >= 3 else { return 0 }
        // Least-squares line f(t) = a + b·t per axis.
        let n = Double(points.count)
        let meanT = points.reduce(0) { $0 + $1.t } / n
        let meanF = points.reduce(Vector3.zero) { $0 + $1.f } / n
        let stt = points.reduce(0) { $0 + ($1.t - meanT) * ($1.t - meanT) }
        guard stt > 0 else { return 0 }
        let slope = points.reduce(Vector3.zero) { $0 + ($1.f - meanF) * ($1.t - meanT) } / stt
        let squares = points.reduce(0.0) { total, p in
            let r = p.f - meanF - slope * (p.t - meanT)
            return total + r.dot(r)
        }
        return (squares / n).squareRoot()
    }
}
