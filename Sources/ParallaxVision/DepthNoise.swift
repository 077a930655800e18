/// Axial noise of a depth sensor: the standard deviation (m) of a depth measurement at range
/// `z` (m), `σ(z) = base + quadratic · (z − offset)²`.
///
/// ``kinect`` is the structured-light model measured by Nguyen, Izadi and Lovell ("Modeling
/// Kinect Sensor Noise for Improved 3D Reconstruction and Tracking", 3DIMPVT 2012) for surfaces
/// seen at 10°–60°: 1.2 mm + 1.9 mm/m² · (z − 0.4 m)², about 1.5 mm at 1 m, 7 mm at 2 m and
/// 14 mm at 3 m. Plane detection sets its inlier distance from it, `measure` its uncertainty, and
/// the simulator adds it to exact depth when asked.
public struct DepthNoise: Sendable, Equatable, Codable {
    /// σ at `offset` (m).
    public var base: Double
    /// Growth (m per m²).
    public var quadratic: Double
    /// Range of least noise (m).
    public var offset: Double

    public init(base: Double, quadratic: Double, offset: Double) {
        self.base = base
        self.quadratic = quadratic
        self.offset = offset
    }

    /// The Kinect (structured light) model of Nguyen et al. 2012.
    public static let kinect = DepthNoise(base: 0.0012, quadratic: 0.0019, offset: 0.4)
    /// No noise (exact depth).
    public static let none = DepthNoise(base: 0, quadratic: 0, offset: 0)

    /// σ (m) at range `z` (m).
    @inline(__always)
    public func sigma(_ z: Double) -> Double {
        let u = z - offset
        return base + quadratic * u * u
    }

    /// The least-squares weight of a point at range `z` (m): 1/σ², σ at least 0.1 mm (so exact
    /// depth weighs every point alike).
    @inline(__always)
    public func weight(_ z: Double) -> Double {
        let s = max(1e-4, sigma(z))
        return 1 / (s * s)
    }
}
