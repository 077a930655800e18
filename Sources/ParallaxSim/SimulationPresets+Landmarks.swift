import ParallaxMath

extension SimulationPresets {
    /// `count` points (world, m) spread over the built-in orbit's room (8 × 6 × 3.5 m: walls at
    /// x = ±4 and y = ±3, floor at z = 0, ceiling at z = 3.5), in turn on each of its six
    /// surfaces: the landmarks whose exact projections stand in for feature tracks in tests of
    /// the estimators without images.
    public static func roomLandmarks(seed: UInt64, count: Int = 900) -> [Vector3] {
        var rng = SeededGenerator(seed: seed)
        func u(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(rng.next() % 1_000_000) / 1_000_000 }
        return (0..<max(count, 0)).map { k in
            switch k % 6 {
            case 0: return Vector3(-4, u(-3, 3), u(0, 3.5))
            case 1: return Vector3(4, u(-3, 3), u(0, 3.5))
            case 2: return Vector3(u(-4, 4), -3, u(0, 3.5))
            case 3: return Vector3(u(-4, 4), 3, u(0, 3.5))
            case 4: return Vector3(u(-4, 4), u(-3, 3), 0)
            default: return Vector3(u(-4, 4), u(-3, 3), 3.5)
            }
        }
    }
}
