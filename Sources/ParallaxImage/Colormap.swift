/// False-colour maps for images that are not intensities (depth, disparity, error maps).
public enum Colormap {
    /// Turbo (Google's improved rainbow), from its published polynomial approximation: `t` in
    /// [0, 1] (clamped) to RGB 0…255.
    public static func turbo(_ t: Double) -> (r: UInt8, g: UInt8, b: UInt8) {
        let x = min(1, max(0, t))
        let x2 = x * x, x3 = x2 * x, x4 = x3 * x, x5 = x4 * x
        let r = 0.13572138 + 4.61539260 * x - 42.66032258 * x2 + 132.13108234 * x3 - 152.94239396 * x4 + 59.28637943 * x5
        let g = 0.09140261 + 2.19418839 * x + 4.84296658 * x2 - 14.18503333 * x3 + 4.27729857 * x4 + 2.82956604 * x5
        let b = 0.10667330 + 12.64194608 * x - 60.58204836 * x2 + 110.36276771 * x3 - 89.90310912 * x4 + 27.34824973 * x5
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return (byte(r), byte(g), byte(b))
    }

    /// Viridis (matplotlib's perceptually uniform dark blue → green → yellow), linear between
    /// five of its stops: `t` in [0, 1] (clamped; NaN → 0) to RGB 0…255.
    public static func viridis(_ t: Double) -> (r: UInt8, g: UInt8, b: UInt8) {
        let stops: [(Double, Double, Double)] = [(68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)]
        let x = min(1, max(0, t.isFinite ? t : 0)) * Double(stops.count - 1)
        let i = min(stops.count - 2, Int(x)), u = x - Double(i)
        let a = stops[i], b = stops[i + 1]
        func byte(_ lo: Double, _ hi: Double) -> UInt8 { UInt8((lo + (hi - lo) * u).rounded()) }
        return (byte(a.0, b.0), byte(a.1, b.1), byte(a.2, b.2))
    }

    /// The range a stream of false-colour images is painted over: the 1st to 99th percentile
    /// of `values`' finite ones (a few stray far values would otherwise paint everything else
    /// one colour); `nil` when they do not span a range.
    public static func percentileRange(_ values: [Float]) -> ClosedRange<Double>? {
        let finite = values.filter(\.isFinite).sorted()
        guard !finite.isEmpty else { return nil }
        let lo = Double(finite[finite.count / 100]), hi = Double(finite[(finite.count - 1) * 99 / 100])
        return hi > lo ? lo...hi : nil
    }

    /// A colour map by name.
    public enum Map: String, Sendable, Codable, CaseIterable {
        case turbo, viridis

        /// `t` in [0, 1] to RGB.
        public func color(_ t: Double) -> (r: UInt8, g: UInt8, b: UInt8) {
            self == .turbo ? Colormap.turbo(t) : Colormap.viridis(t)
        }
    }

    /// An RGB image of `values` through ``turbo(_:)``, `range` mapped to 0…1 (default: the
    /// finite values' minimum and maximum). Non-finite values (invalid pixels) are black.
    public static func turbo(_ values: ImageBuffer<Float>, range: ClosedRange<Double>? = nil) -> ImageBuffer<UInt8> {
        image(values, map: .turbo, range: range)
    }

    /// An RGB image of `values` through `map`, `range` mapped to 0…1 (values beyond clamped;
    /// default: the finite values' minimum and maximum). Non-finite values are black.
    public static func image(_ values: ImageBuffer<Float>, map: Map, range: ClosedRange<Double>? = nil) -> ImageBuffer<UInt8> {
        var lo = Double.infinity, hi = -Double.infinity
        if let range {
            lo = range.lowerBound
            hi = range.upperBound
        } else {
            for v in values.samples where v.isFinite { lo = min(lo, Double(v)); hi = max(hi, Double(v)) }
        }
        let span = hi > lo ? hi - lo : 1
        var rgb = [UInt8](repeating: 0, count: values.width * values.height * 3)
        for (i, v) in values.samples.enumerated() where v.isFinite {
            let c = map.color((Double(v) - lo) / span)
            rgb[3 * i] = c.r
            rgb[3 * i + 1] = c.g
            rgb[3 * i + 2] = c.b
        }
        return ImageBuffer(width: values.width, height: values.height, channels: 3, samples: rgb)
    }
}
