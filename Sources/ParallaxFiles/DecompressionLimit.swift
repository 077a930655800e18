
/// How much one compressed block (an MCAP or ROS bag chunk, a MAT-file element, an archive) may
/// expand: every decompressor asks this before it allocates, so a few kilobytes that declare
/// (or inflate to) gigabytes — a "decompression bomb" — are a clear error naming the file, the
/// offset and the sizes, never gigabytes of memory or minutes of work.
///
/// A block may expand to at most ``ceilingBytes`` and, beyond ``ratioFreeBytes``, to at most
/// ``maximumRatio`` × its compressed size. Real sensor data compresses 1.5–10×; a blank image
/// much more, but then it is small (below ``ratioFreeBytes``) or its chunk holds it with others.
///
/// Decompressors with a declared size (MCAP, ROS bag chunks) check it with
/// ``check(declared:compressed:codec:file:offset:)`` and give the decompressor an output buffer of
/// exactly that size (it stops there); decompressors without one (zlib in MAT-files, archives)
/// count what they produce against ``limit(compressed:)`` as they go.
public struct DecompressionLimit: Sendable, Equatable {
    /// Largest expansion of one block (bytes), whatever its ratio. 512 MiB: an MCAP chunk holding
    /// one 100-megapixel RGB image (300 MB) fits; recorders' chunks are 0.75–4 MiB.
    public var ceilingBytes: Int
    /// Largest ratio expanded / compressed for blocks past ``ratioFreeBytes`` (1024: zlib's own
    /// limit is 1032:1, lz4's 255:1; zstd and bzip2 can exceed it only for degenerate data).
    public var maximumRatio: Int
    /// Expansions up to this size (bytes) are accepted at any ratio (64 MiB).
    public var ratioFreeBytes: Int

    /// A limit.
    public init(ceilingBytes: Int = 512 << 20, maximumRatio: Int = 1024, ratioFreeBytes: Int = 64 << 20) {
        self.ceilingBytes = max(0, ceilingBytes)
        self.maximumRatio = max(1, maximumRatio)
        self.ratioFreeBytes = max(0, ratioFreeBytes)
    }

    /// The limit every reader uses unless told otherwise.
    public static let standard = DecompressionLimit()

    /// The most (bytes) a block of `compressed` bytes may expand to: `min(ceiling,
    /// max(ratioFree, compressed × ratio))`, computed without overflow.
    public func limit(compressed: Int) -> Int {
        let (scaled, overflow) = max(0, compressed).multipliedReportingOverflow(by: maximumRatio)
        return min(ceilingBytes, max(ratioFreeBytes, overflow ? Int.max : scaled))
    }

    /// `declared` as an `Int` when a block of `compressed` bytes may expand to it; otherwise a
    /// ``DecompressionLimitError`` naming `file`, the block's byte `offset`, `codec` and the sizes.
    public func check(declared: UInt64, compressed: Int, codec: String, file: String, offset: UInt64) throws(DecompressionLimitError) -> Int {
        let limit = limit(compressed: compressed)
        guard declared <= UInt64(limit) else {
            throw DecompressionLimitError(file: file, offset: offset, codec: codec, compressedBytes: compressed,
                                          expandedBytes: declared, limitBytes: limit, declared: true)
        }
        return Int(declared)
    }

    /// The error for a block that produced more than its limit while decompressing (no declared size).
    public func exceeded(produced: Int, compressed: Int, codec: String, file: String, offset: UInt64) -> DecompressionLimitError {
        DecompressionLimitError(file: file, offset: offset, codec: codec, compressedBytes: compressed,
                                expandedBytes: UInt64(max(0, produced)), limitBytes: limit(compressed: compressed), declared: false)
    }
}

/// A compressed block that would expand past its ``DecompressionLimit``: bad input (exit 2),
/// named by file, byte offset, codec and sizes.
public struct DecompressionLimitError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    /// The file holding the block.
    public var file: String
    /// Byte offset of the block (its record or element) in the file.
    public var offset: UInt64
    /// The compression (`zstd`, `lz4`, `bz2`, `zlib`, an archive format).
    public var codec: String
    /// The block's compressed size (bytes).
    public var compressedBytes: Int
    /// What it declares, or what it had produced when stopped (bytes).
    public var expandedBytes: UInt64
    /// The limit it passed (bytes).
    public var limitBytes: Int
    /// Whether ``expandedBytes`` is a declared size (else a count of what was produced).
    public var declared: Bool

    public var description: String {
        let what = declared ? "declares \(expandedBytes) bytes uncompressed" : "expands past \(expandedBytes) bytes"
        return "\(file) at byte \(offset): a \(codec) block of \(compressedBytes) bytes \(what), "
            + "more than its limit of \(limitBytes) bytes: a damaged or hostile file (a decompression bomb)"
    }
}
