import Foundation
import CLZ4
import CZstd
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
/// An MCAP file read for its messages (https://mcap.dev/spec): the ROS 2 bag storage, and
/// what `parallax run --mcap` writes. Schemas and channels come from the summary when the file
/// has one (else from a pass over the data); chunks (uncompressed, lz4 or zstd) are
/// decompressed one at a time when asked for; messages outside chunks are read from the file.
/// Every length is checked against the file before it is read or allocated.
public final class MCAPFile: ROSBagReading, @unchecked Sendable {
    public let path: String
    public private(set) var connections: [UInt32: ROSBag1File.Connection] = [:]
    public var formatName: String { "ROS 2 bag (MCAP)" }
    public var serialization: ROSMessages.Serialization { .cdr }
    public var chunkCount: Int { chunks.count + 1 }

    struct Chunk { var recordsStart: UInt64; var recordsLength: Int; var compression: String; var uncompressedSize: Int }
    private var chunks: [Chunk] = []
    /// Messages outside chunks (the last pseudo-chunk): their channel, log time and bytes' place.
    private var loose: [ROSBag1File.MessageRef] = []
    private let file: BoundedFile
    private var size: UInt64 { file.size }
    private let lock = NSLock()
    private var cached: (index: Int, data: Data)?
    private var schemaNames: [UInt16: String] = [:]
    /// Said when the data section ends without MCAP's data-end record (a file cut short): its
    /// messages up to there are read.
    public private(set) var notes: [String] = []

    static let magic = Data([0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A])

    public init(path: String) throws {
        self.path = path
        file = try BoundedFile(path: path)
        guard size >= 16, try file.read(at: 0, count: 8) == Self.magic else { throw Self.error(path, 0, "not an MCAP file (no MCAP magic)") }
        // The data section, record by record, to the data end (or the end of a file cut short:
        // what was read is kept).
        var position: UInt64 = 8
        var ended = false
        defer {
            if !ended {
                notes.append("\(path): the file ends at byte \(size) without MCAP's data-end record (cut short?): the messages before byte \(position) are read")
            } else if (try? file.read(at: size - 8, count: 8)) != Self.magic {
                notes.append("\(path): the file does not end with MCAP's closing magic (its summary or footer cut short?): its messages are read from the data section")
            }
        }
        records: while position + 9 <= size {
            let op = try file.read(at: position, count: 1)[0]
            let length = try u64(file.read(at: position + 1, count: 8))
            let start = position + 9
            // Compared by subtraction: a damaged length near 2⁶⁴ must not overflow the sum.
            guard length <= size - start else {
                if chunks.isEmpty && loose.isEmpty { throw Self.error(path, position, "a record runs past the end of the file: truncated") }
                break
            }
            switch op {
            case 0x03, 0x04:
                try take(op, try file.read(at: start, count: Int(length)), offset: position)
            case 0x05:
                var r = Cursor(try file.read(at: start, count: min(Int(length), 22)), path: path, offset: position)
                let channel = try r.u16(); _ = try r.u32()
                let time = try r.u64()
                guard length >= 22 else { throw Self.error(path, position, "a message record shorter than its fields") }
                loose.append(ROSBag1File.MessageRef(connection: UInt32(channel), receiveTime: Timestamp(nanoseconds: Int64(clamping: time)), chunk: -1,
                                                    range: Int(start + 22)..<Int(start + length)))
            case 0x06:
                var r = Cursor(try file.read(at: start, count: min(Int(length), 4096)), path: path, offset: position)
                _ = try r.u64(); _ = try r.u64()
                let uncompressed = try r.u64()
                _ = try r.u32()
                let compression = try r.string()
                let recordsLength = try r.u64()
                let recordsStart = start + UInt64(r.i)
                guard recordsStart <= start + length, recordsLength <= start + length - recordsStart else {
                    throw Self.error(path, position, "a chunk's sizes do not fit its record (\(recordsLength) bytes, \(uncompressed) uncompressed)")
                }
                // An uncompressed chunk is its records; a compressed one may expand only so far
                // (checked here, before anything is allocated for it).
                let declared: Int
                if compression.isEmpty {
                    guard uncompressed == recordsLength else {
                        throw Self.error(path, position, "an uncompressed chunk of \(recordsLength) bytes declares \(uncompressed)")
                    }
                    declared = Int(recordsLength)
                } else {
                    declared = try DecompressionLimit.standard.check(declared: uncompressed, compressed: Int(recordsLength), codec: compression, file: path, offset: position)
                }
                chunks.append(Chunk(recordsStart: recordsStart, recordsLength: Int(recordsLength), compression: compression, uncompressedSize: declared))
            case 0x0F:
                ended = true
                break records
            default:
                break
            }
            position = start + length
        }
        // Channels written inside chunks only: read them there.
        if connections.isEmpty {
            for k in chunks.indices { _ = try records(inChunk: k, takingChannels: true) }
        }
        loose = loose.map { var m = $0; m.chunk = chunks.count; return m }
    }

    /// Schema and channel records.
    private func take(_ op: UInt8, _ body: Data, offset: UInt64) throws {
        var r = Cursor(body, path: path, offset: offset)
        if op == 0x03 {
            let id = try r.u16()
            schemaNames[id] = try r.string()
        } else {
            let id = try r.u16(), schema = try r.u16()
            let topic = try r.string()
            let encoding = try r.string()
            guard connections[UInt32(id)] == nil else { return }
            let type = ROSMessages.normalized(schemaNames[schema] ?? "")
            // Only CDR messages are ROS 2's; others keep their type name and are skipped as unknown.
            connections[UInt32(id)] = ROSBag1File.Connection(id: UInt32(id), topic: topic, type: encoding == "cdr" ? type : "\(type) (\(encoding))")
        }
    }

    public func messages(inChunk k: Int) throws -> [ROSBag1File.MessageRef] {
        if k == chunks.count { return loose }
        return try records(inChunk: k, takingChannels: false)
    }

    private func records(inChunk k: Int, takingChannels: Bool) throws -> [ROSBag1File.MessageRef] {
        let data = try chunk(k)
        var out: [ROSBag1File.MessageRef] = []
        var i = 0
        while i + 9 <= data.count {
            let op = data[data.startIndex + i]
            let length = Int(clamping: u64(data.subdata(in: (i + 1)..<(i + 9))))
            guard length <= data.count - i - 9 else { throw Self.error(path, chunks[k].recordsStart, "a record inside chunk \(k) runs past its end: corrupt chunk") }
            let body = (i + 9)..<(i + 9 + length)
            switch op {
            case 0x03, 0x04 where takingChannels:
                try take(op, data.subdata(in: body), offset: chunks[k].recordsStart)
            case 0x05:
                guard length >= 22 else { throw Self.error(path, chunks[k].recordsStart, "a message record shorter than its fields in chunk \(k)") }
                var r = Cursor(data.subdata(in: body.lowerBound..<(body.lowerBound + 22)), path: path, offset: chunks[k].recordsStart)
                let channel = try r.u16(); _ = try r.u32()
                let time = try r.u64()
                out.append(ROSBag1File.MessageRef(connection: UInt32(channel), receiveTime: Timestamp(nanoseconds: Int64(clamping: time)), chunk: k,
                                                  range: (body.lowerBound + 22)..<body.upperBound))
            default: break
            }
            i = body.upperBound
        }
        return out
    }

    public func data(of message: ROSBag1File.MessageRef) throws -> Data {
        if message.chunk == chunks.count {
            return try file.read(at: UInt64(message.range.lowerBound), count: message.range.count)
        }
        return try chunk(message.chunk).subdata(in: message.range)
    }

    /// Chunk `k`'s records, decompressed.
    private func chunk(_ k: Int) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        if let cached, cached.index == k { return cached.data }
        let c = chunks[k]
        cached = nil  // the previous chunk is let go before the next is allocated: one chunk in memory, not two
        let raw = try file.read(at: c.recordsStart, count: c.recordsLength)
        let data: Data
        switch c.compression {
        case "": data = raw
        case "lz4": data = try ROSBag1File.unlz4(raw, size: c.uncompressedSize, path: path, offset: c.recordsStart)
        case "zstd": data = try Self.unzstd(raw, size: c.uncompressedSize, path: path, offset: c.recordsStart)
        default:
            throw Self.error(path, c.recordsStart, "chunk compression '\(c.compression)' is not one Parallax reads (none, lz4, zstd)")
        }
        guard data.count == c.uncompressedSize else {
            throw Self.error(path, c.recordsStart, "a chunk decompresses to \(data.count) bytes, its record says \(c.uncompressedSize)")
        }
        cached = (k, data)
        return data
    }

    /// Decompresses a zstd chunk into exactly `size` bytes (its declared size, already checked
    /// against ``DecompressionLimit``): a frame that says it holds more is refused before
    /// anything is allocated, and zstd stops at the end of the buffer whatever the data says.
    static func unzstd(_ raw: Data, size: Int, path: String, offset: UInt64) throws -> Data {
        let content = raw.withUnsafeBytes { s in ZSTD_getFrameContentSize(s.baseAddress, s.count) }
        // ZSTD_CONTENTSIZE_UNKNOWN (2⁶⁴ − 1) and _ERROR (2⁶⁴ − 2) say nothing; a known size must be the declared one.
        if content < UInt64.max - 1, content != UInt64(size) {
            throw error(path, offset, "a zstd chunk's frame holds \(content) bytes, its record says \(size)")
        }
        var out = Data(count: size)
        let n = out.withUnsafeMutableBytes { o in raw.withUnsafeBytes { s in ZSTD_decompress(o.baseAddress, o.count, s.baseAddress, s.count) } }
        guard ZSTD_isError(n) == 0 else { throw error(path, offset, "a zstd chunk does not decompress to its declared \(size) bytes (\(String(cString: ZSTD_getErrorName(n))))") }
        return out.prefix(n)
    }

    static func error(_ path: String, _ offset: UInt64?, _ reason: String) -> ROSBag1File.BagError {
        ROSBag1File.BagError(path: path, offset: offset, reason: reason)
    }

    func u64(_ d: Data) -> UInt64 { d.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) } }

    /// Little-endian fields of one record.
    struct Cursor {
        let data: Data
        let path: String
        let offset: UInt64
        var i = 0
        init(_ data: Data, path: String, offset: UInt64) { self.data = data; self.path = path; self.offset = offset }
        mutating func take(_ n: Int) throws -> Data {
            guard n >= 0, n <= data.count - i else { throw MCAPFile.error(path, offset, "a record ends inside its fields") }
            defer { i += n }
            return data.subdata(in: (data.startIndex + i)..<(data.startIndex + i + n))
        }
        mutating func u16() throws -> UInt16 { try take(2).enumerated().reduce(0) { $0 | UInt16($1.element) << (8 * $1.offset) } }
        mutating func u32() throws -> UInt32 { try take(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) } }
        mutating func u64() throws -> UInt64 { try take(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) } }
        mutating func string() throws -> String { String(decoding: try take(Int(try u32())), as: UTF8.self) }
    }
}
