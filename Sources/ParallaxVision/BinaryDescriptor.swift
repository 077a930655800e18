/// A 256-bit binary descriptor (BRIEF / ORB), compared by Hamming distance.
public struct BinaryDescriptor: Sendable, Hashable, Codable {
    /// The bits, test `k` in word `k / 64`, bit `k % 64`.
    public var words: SIMD4<UInt64>

    public init(words: SIMD4<UInt64> = .zero) { self.words = words }

    /// Bits that differ (0…256).
    @inlinable public func distance(to other: BinaryDescriptor) -> Int {
        let x = words ^ other.words
        return x[0].nonzeroBitCount &+ x[1].nonzeroBitCount &+ x[2].nonzeroBitCount &+ x[3].nonzeroBitCount
    }

    /// Sets test `k` (0…255).
    @inlinable public mutating func set(_ k: Int) { words[k >> 6] |= 1 << UInt64(k & 63) }

    /// Whether test `k` is set.
    @inlinable public func bit(_ k: Int) -> Bool { words[k >> 6] >> UInt64(k & 63) & 1 == 1 }
}
