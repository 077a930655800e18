import Foundation
import CBZip2
import CLZ4
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
/// A ROS 1 bag (format 2.0, http://wiki.ros.org/Bags/Format/2.0) read through its index: the
/// bag header points at the connection and chunk-info records at the end of the file, and
/// chunks (uncompressed, bz2 or lz4) are read one at a time when asked for, so memory holds one
/// chunk, never the bag. Every length is checked against the file before it is read or
/// allocated.
public final class ROSBag1File: ROSBagReading, @unchecked Sendable {
    /// A topic with its message type.
    public struct Connection: Sendable {
        public var id: UInt32
        public var topic: String
        public var type: String
    }

    /// A message's place: its connection, the bag's receive time, and its bytes inside a chunk.
    public struct MessageRef: Sendable {
        public var connection: UInt32
        public var receiveTime: Timestamp
        public var chunk: Int
        public var range: Range<Int>
    }

    public let path: String
    public private(set) var connections: [UInt32: Connection] = [:]
    /// Chunk positions in the file, in file order.
    public private(set) var chunkPositions: [UInt64] = []
    private let file: BoundedFile
    private var size: UInt64 { file.size }
    private let lock = NSLock()
    private var cached: (index: Int, data: Data)?

    /// Why a bag could not be read; every case names the file (and the byte offset).
    public struct BagError: Error, BadInput, CustomStringConvertible, Equatable {
        public var path: String
        public var offset: UInt64?
        public var reason: String
        public var description: String { "\(path)" + (offset.map { " at byte \($0)" } ?? "") + ": \(reason)" }
        /// What is wrong with the bag at `path` (`offset`: where, in bytes, when known).
        public init(path: String, offset: UInt64?, reason: String) {
            self.path = path
            self.offset = offset
            self.reason = reason
        }
    }

    public init(path: String) throws {
        self.path = path
        file = try BoundedFile(path: path)
        guard size >= 13 else { throw BagError(path: path, offset: nil, reason: "not a ROS 1 bag (\(size) bytes: shorter than its version line)") }
        let magic = try file.read(at: 0, count: 13)
        guard magic == Data("#ROSBAG V2.0\n".utf8) else {
            throw BagError(path: path, offset: 0, reason: "not a ROS 1 bag of format 2.0 (it starts '\(String(decoding: magic.prefix(12), as: UTF8.self))')")
        }
        let bagHeader = try record(at: 13)
        guard bagHeader.fields["op"] == Data([0x03]), let indexPosition = bagHeader.fields["index_pos"].flatMap(Self.uint64) else {
            throw BagError(path: path, offset: 13, reason: "the first record is not a bag header")
        }
        guard indexPosition > 0 else {
            throw BagError(path: path, offset: 13, reason: "the bag has no index (index_pos 0): recording was cut off; `rosbag reindex` repairs it")
        }
        // A bag with no connection and no chunk (rosbags' `Writer` opened and closed) ends with its
        // padded header, and its index position is the file's end: a bag with nothing in it. An
        // index position at the end of a bag that has records after its header is a cut index.
        let empty = indexPosition == size && bagHeader.end == size
        guard indexPosition < size || empty else {
            throw BagError(path: path, offset: 13, reason: "truncated: its index at byte \(indexPosition) lies past its end (\(size) bytes)")
        }
        var position = indexPosition
        while position < size {
            let r = try record(at: position)
            switch r.fields["op"] {
            case Data([0x07])?:
                guard let id = r.fields["conn"].flatMap(Self.uint32), let topic = r.fields["topic"].map({ String(decoding: $0, as: UTF8.self) }) else {
                    throw BagError(path: path, offset: position, reason: "a connection record without conn or topic")
                }
                let header = try Self.fields(try file.read(at: r.dataStart, count: r.dataLength), path: path, offset: position)
                guard let type = header["type"].map({ String(decoding: $0, as: UTF8.self) }) else {
                    throw BagError(path: path, offset: position, reason: "connection \(id) (\(topic)) names no message type")
                }
                connections[id] = Connection(id: id, topic: topic, type: type)
            case Data([0x06])?:
                guard let chunk = r.fields["chunk_pos"].flatMap(Self.uint64), chunk < indexPosition else {
                    throw BagError(path: path, offset: position, reason: "a chunk-info record without a chunk position inside the file")
                }
                chunkPositions.append(chunk)
            default:
                break
            }
            position = r.end
        }
        chunkPositions.sort()
    }

    public var chunkCount: Int { chunkPositions.count }
    public var serialization: ROSMessages.Serialization { .ros1 }
    public var formatName: String { "ROS 1 bag" }

    /// The messages of chunk `k`, in file order.
    public func messages(inChunk k: Int) throws -> [MessageRef] {
        let data = try chunk(k)
        var out: [MessageRef] = []
        var i = 0
        while i < data.count {
            let r = try Self.record(in: data, at: i, path: path, chunkOffset: chunkPositions[k])
            if r.fields["op"] == Data([0x02]) {
                guard let conn = r.fields["conn"].flatMap(Self.uint32), let time = r.fields["time"].flatMap(Self.time) else {
                    throw BagError(path: path, offset: chunkPositions[k], reason: "a message record without conn or time in chunk \(k)")
                }
                out.append(MessageRef(connection: conn, receiveTime: time, chunk: k, range: r.dataRange))
            }
            i = r.end
        }
        return out
    }

    /// The bytes of `message` (its chunk is decompressed once and kept until another is needed).
    public func data(of message: MessageRef) throws -> Data {
        let chunk = try chunk(message.chunk)
        return chunk.subdata(in: message.range)
    }

    /// Chunk `k` decompressed.
    func chunk(_ k: Int) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        if let cached, cached.index == k { return cached.data }
        let position = chunkPositions[k]
        cached = nil  // the previous chunk is let go before the next is allocated: one chunk in memory, not two
        let r = try record(at: position)
        guard r.fields["op"] == Data([0x05]), let compression = r.fields["compression"].map({ String(decoding: $0, as: UTF8.self) }),
              let expected = r.fields["size"].flatMap(Self.uint32) else {
            throw BagError(path: path, offset: position, reason: "the index points at a record that is not a chunk")
        }
        guard ["none", "bz2", "lz4"].contains(compression) else {
            throw BagError(path: path, offset: position, reason: "chunk compression '\(compression)' is not one Parallax reads (none, bz2, lz4)")
        }
        if compression == "none" {
            guard Int(expected) == r.dataLength else {
                throw BagError(path: path, offset: position, reason: "an uncompressed chunk of \(r.dataLength) bytes declares \(expected)")
            }
            let data = try file.read(at: r.dataStart, count: r.dataLength)
            cached = (k, data)
            return data
        }
        // The declared size against the shared limit, before anything is allocated for it.
        let size = try DecompressionLimit.standard.check(declared: UInt64(expected), compressed: r.dataLength, codec: compression, file: path, offset: position)
        // LZ4 expands at most 255:1: a larger declared size is a damaged header.
        guard compression != "lz4" || size <= r.dataLength * 255 + 1024 else {
            throw BagError(path: path, offset: position, reason: "an lz4 chunk of \(r.dataLength) bytes declares \(expected) uncompressed (more than lz4 can expand)")
        }
        let raw = try file.read(at: r.dataStart, count: r.dataLength)
        let data = compression == "bz2" ? try Self.bunzip(raw, size: size, path: path, offset: position)
                                        : try Self.unlz4(raw, size: size, path: path, offset: position)
        guard data.count == Int(expected) else {
            throw BagError(path: path, offset: position, reason: "the chunk decompresses to \(data.count) bytes, its header says \(expected)")
        }
        cached = (k, data)
        return data
    }

    // MARK: Records

    struct Record {
        var fields: [String: Data]
        var dataStart: UInt64
        var dataLength: Int
        var end: UInt64
    }

    /// The record at `offset` in the file: its header fields and where its data lies.
    private func record(at offset: UInt64) throws -> Record {
        let headerLength = try Self.uint32(file.read(at: offset, count: 4)) ?? 0
        let header = try file.read(at: offset + 4, count: Int(headerLength))
        let dataLength = try Self.uint32(file.read(at: offset + 4 + UInt64(headerLength), count: 4)) ?? 0
        let dataStart = offset + 8 + UInt64(headerLength)
        guard dataStart <= size, UInt64(dataLength) <= size - dataStart else {
            throw BagError(path: path, offset: offset, reason: "a record of \(dataLength) bytes runs past the end of the file (\(size) bytes): truncated")
        }
        return Record(fields: try Self.fields(header, path: path, offset: offset), dataStart: dataStart, dataLength: Int(dataLength), end: dataStart + UInt64(dataLength))
    }

    /// A record inside a decompressed chunk.
    struct InnerRecord {
        var fields: [String: Data]
        var dataRange: Range<Int>
        var end: Int
    }

    static func record(in data: Data, at i: Int, path: String, chunkOffset: UInt64) throws -> InnerRecord {
        func fail() -> BagError { BagError(path: path, offset: chunkOffset, reason: "a record inside the chunk runs past its end: corrupt chunk") }
        guard i + 4 <= data.count, let h = uint32(data.subdata(in: i..<(i + 4))) else { throw fail() }
        let headerEnd = i + 4 + Int(h)
        guard headerEnd + 4 <= data.count, let d = uint32(data.subdata(in: headerEnd..<(headerEnd + 4))) else { throw fail() }
        let dataEnd = headerEnd + 4 + Int(d)
        guard dataEnd <= data.count else { throw fail() }
        return InnerRecord(fields: try fields(data.subdata(in: (i + 4)..<headerEnd), path: path, offset: chunkOffset), dataRange: (headerEnd + 4)..<dataEnd, end: dataEnd)
    }

    /// `name=value` fields, each prefixed by its length (u32).
    static func fields(_ header: Data, path: String, offset: UInt64) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let bytes = [UInt8](header)
        var i = 0
        while i < bytes.count {
            guard i + 4 <= bytes.count else { throw BagError(path: path, offset: offset, reason: "a record header ends inside a field length") }
            let n = Int(UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
            i += 4
            guard n <= bytes.count - i, let eq = bytes[i..<(i + n)].firstIndex(of: UInt8(ascii: "=")) else {
                throw BagError(path: path, offset: offset, reason: "a record header field is malformed")
            }
            out[String(decoding: bytes[i..<eq], as: UTF8.self)] = Data(bytes[(eq + 1)..<(i + n)])
            i += n
        }
        return out
    }

    static func uint32(_ d: Data) -> UInt32? {
        guard d.count == 4 else { return nil }
        return d.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) }
    }

    static func uint64(_ d: Data) -> UInt64? {
        guard d.count == 8 else { return nil }
        return d.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    /// A ROS time (sec u32, nsec u32) in ns.
    static func time(_ d: Data) -> Timestamp? {
        guard d.count == 8, let sec = uint32(d.prefix(4)), let nsec = uint32(d.suffix(4)) else { return nil }
        return Timestamp(nanoseconds: Int64(sec) * 1_000_000_000 + Int64(nsec))
    }

    // MARK: Decompression

    static func bunzip(_ input: Data, size: Int, path: String, offset: UInt64) throws -> Data {
        var output = Data(count: size)
        var produced = UInt32(size)
        var source = input
        let status = output.withUnsafeMutableBytes { out in
            source.withUnsafeMutableBytes { src in
                BZ2_bzBuffToBuffDecompress(out.baseAddress?.assumingMemoryBound(to: CChar.self), &produced,
                                           src.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(src.count), 0, 0)
            }
        }
        guard status == BZ_OK else {
            let why: String
            switch status {
            case BZ_OUTBUFF_FULL: why = "it decompresses to more than the \(size) bytes its header declares"
            case BZ_DATA_ERROR, BZ_DATA_ERROR_MAGIC: why = "its compressed data is corrupt"
            case BZ_UNEXPECTED_EOF: why = "its compressed data ends early"
            case BZ_MEM_ERROR: why = "out of memory"
            default: why = "bzip2 error \(status)"
            }
            throw BagError(path: path, offset: offset, reason: "a bz2 chunk does not decompress: \(why)")
        }
        return output.prefix(Int(produced))
    }

    static func unlz4(_ input: Data, size: Int, path: String, offset: UInt64) throws -> Data {
        var context: OpaquePointer?
        guard LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0, let context else {
            throw BagError(path: path, offset: offset, reason: "lz4 could not start")
        }
        defer { LZ4F_freeDecompressionContext(context) }
        var output = Data(count: size)
        var written = 0, read = 0
        var finished = false
        try output.withUnsafeMutableBytes { out in
            try input.withUnsafeBytes { src in
                while read < src.count, written <= out.count {
                    var outSize = out.count - written, inSize = src.count - read
                    let hint = LZ4F_decompress(context, out.baseAddress.map { $0 + written }, &outSize, src.baseAddress.map { $0 + read }, &inSize, nil)
                    if LZ4F_isError(hint) != 0 {
                        throw BagError(path: path, offset: offset, reason: "an lz4 chunk does not decompress (\(String(cString: LZ4F_getErrorName(hint))))")
                    }
                    written += outSize
                    read += inSize
                    if hint == 0 { finished = true; break }
                    if outSize == 0 && inSize == 0 { break }
                }
            }
        }
        // The frame must end, and hold exactly the size the chunk declares: a declared size of 0
        // (or any too small) once gave an empty chunk, and a bag of no message, without a word.
        guard finished else {
            throw BagError(path: path, offset: offset, reason: written < size ? "an lz4 chunk ends early"
                           : "an lz4 chunk holds more than the \(size) bytes its header declares")
        }
        guard written == size else {
            throw BagError(path: path, offset: offset, reason: "an lz4 chunk holds \(written) bytes, its header declares \(size)")
        }
        return output.prefix(written)
    }
}
