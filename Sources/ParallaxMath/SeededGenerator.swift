import Foundation

/// A deterministic, seedable random number generator (SplitMix64).
///
/// Everything random in Parallax (RANSAC sampling, simulator noise) draws from one of these,
/// so the same seed gives bit-identical results on every run and machine. Not for
/// cryptography.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal sample (Box–Muller; consumes two uniforms).
    public mutating func nextGaussian() -> Double {
        // Uniform in (0, 1]: avoid log(0).
        let u1 = Double(next() >> 11 &+ 1) * 0x1.0p-53
        let u2 = Double(next() >> 11) * 0x1.0p-53
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
