import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
@testable import ParallaxCodecs

/// MCAP chunks may expand only as far as ``DecompressionLimit`` allows: a chunk declaring
/// gigabytes, or far more than its bytes can hold, is refused before anything is allocated,
/// and zstd stops at the declared size whatever its frame holds.
@Suite struct MCAPFileTests {
    /// A zstd frame of `bytes` copies of one byte in RLE blocks (4 bytes per 128 KiB; no
    /// content size in the header): the cheapest decompression bomb.
    static func zstdRLE(_ bytes: Int, value: UInt8 = 0) -> [UInt8] {
        var out: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x58]  // magic; no content size; 2 MiB window
        var left = bytes
        repeat {
            let n = min(left, 128 << 10)
            left -= n
            let header = UInt32(left == 0 ? 1 : 0) | 1 << 1 | UInt32(n) << 3  // last, RLE, size
            out += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16 & 0xFF), value]
        } while left > 0
        return out
    }

    static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }

    /// An MCAP file of one chunk record: `records` compressed as `compression`, declaring `uncompressed` bytes.
    static func mcap(chunk records: [UInt8], compression: String, uncompressed: UInt64) -> Data {
        var body: [UInt8] = le(UInt64(0)) + le(UInt64(0)) + le(uncompressed) + le(UInt32(0))
        body += le(UInt32(compression.utf8.count)) + Array(compression.utf8)
        body += le(UInt64(records.count)) + records
        var file = [UInt8](MCAPFile.magic)
        file.append(0x06)
        file += le(UInt64(body.count))
        file += body
        return Data(file)
    }

    static func opening(_ data: Data, _ check: (any Error, String) -> Bool) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-mcap-\(UUID().uuidString).mcap").path
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(performing: { _ = try MCAPFile(path: path) }, throws: { check($0, path) })
    }

    @Test func aZstdChunkDeclaringGigabytesIsRefusedBeforeDecompressing() throws {
        // 1.3 MB of RLE blocks would expand to ~40 GB; it declares 2.1 GB.
        try Self.opening(Self.mcap(chunk: Self.zstdRLE(4 << 20), compression: "zstd", uncompressed: 2_100_000_000)) { error, path in
            guard let e = error as? DecompressionLimitError else { return false }
            return e.file == path && e.offset == 8 && e.codec == "zstd" && e.expandedBytes == 2_100_000_000 && e.declared && "\(e)".contains(path)
        }
    }

    @Test func aZstdChunkPastTheRatioBoundIsRefused() throws {
        // ~3 KB declaring 100 MB: 30000:1, past 1024:1 beyond the ratio-free 64 MiB.
        let records = Self.zstdRLE(100_000_000)
        try Self.opening(Self.mcap(chunk: records, compression: "zstd", uncompressed: 100_000_000)) { error, _ in
            (error as? DecompressionLimitError).map { $0.compressedBytes == records.count && $0.limitBytes == 64 << 20 } ?? false
        }
    }

    @Test func zstdStopsAtTheDeclaredSize() throws {
        // Declares 1 MiB; its frame holds 8 MiB: zstd is given 1 MiB and fails there.
        try Self.opening(Self.mcap(chunk: Self.zstdRLE(8 << 20), compression: "zstd", uncompressed: 1 << 20)) { error, path in
            "\(error)".contains(path) && "\(error)".contains("does not decompress to its declared 1048576 bytes") && error is any BadInput
        }
        // The same frame declared honestly decompresses (and then holds no valid records).
        try Self.opening(Self.mcap(chunk: Self.zstdRLE(8 << 20, value: 0xFF), compression: "zstd", uncompressed: 8 << 20)) { error, _ in
            "\(error)".contains("runs past its end")
        }
    }

    @Test func anLZ4ChunkDeclaringMoreThanItsLimitIsRefused() throws {
        try Self.opening(Self.mcap(chunk: [UInt8](repeating: 0, count: 100), compression: "lz4", uncompressed: 1 << 40)) { error, _ in
            (error as? DecompressionLimitError)?.codec == "lz4"
        }
    }
}
