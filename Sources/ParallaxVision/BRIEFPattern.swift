import ParallaxMath

/// The 256 point pairs a BRIEF descriptor compares, in patch coordinates (px, centre at 0).
///
/// Calonder et al.'s isotropic Gaussian sampling ("G II"): both points of a pair drawn from
/// N(0, (S/5)²) for a patch of size S = 31, clamped to ±13 px so every point stays inside
/// the patch after any rotation (radius ≤ 13·√2 ≈ 18.4 px). Drawn from a fixed seed, so the
/// pattern, and therefore every descriptor, is the same in every build and run. (ORB's own
/// pattern was learned on a training set for low correlation; this one is not learned.)
public struct BRIEFPattern: Sendable {
    /// A point pair: the test is `I(first) < I(second)`.
    public struct Pair: Sendable, Equatable {
        public var first: SIMD2<Float>
        public var second: SIMD2<Float>
    }

    public let pairs: [Pair]

    /// Largest distance of a pattern point from the centre after any rotation (px).
    public static let radius: Float = 13 * Float(2).squareRoot()

    /// The pattern every Parallax ORB descriptor uses.
    public static let standard = BRIEFPattern(seed: 0x0B0B_B81E_F000_0256)

    public init(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        func coordinate() -> Float { Float(min(max((rng.nextGaussian() * 31 / 5).rounded(), -13), 13)) }
        var pairs: [Pair] = []
        while pairs.count < 256 {
            let a = SIMD2(coordinate(), coordinate()), b = SIMD2(coordinate(), coordinate())
            if a != b { pairs.append(Pair(first: a, second: b)) }
        }
        self.pairs = pairs
        coordinates = pairs.map { $0.first.x } + pairs.map { $0.first.y } + pairs.map { $0.second.x } + pairs.map { $0.second.y }
    }

    /// The pairs as four runs of 256 (first x, first y, second x, second y), as the describing
    /// loop of CFeatureKernels reads them.
    let coordinates: [Float]
}
