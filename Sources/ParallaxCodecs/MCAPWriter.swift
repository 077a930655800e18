import Foundation
import CZlib
import ParallaxFiles
#if canImport(Glibc)
import Glibc
#endif

/// Writes an MCAP file (https://mcap.dev/spec, version 0): schemas and channels, messages in
/// chunks of about ``chunkSize`` bytes, each followed by its message indexes, and a summary
/// (schemas, channels, statistics, chunk indexes, summary offsets) so that readers such as
/// Foxglove seek at once. Chunks are stored uncompressed (the spec's `""` compression).
///
/// The file is written beside its path (`NAME.partial`) and renamed into place by ``finish()``
/// (``OutputPath``: an existing folder at `path` is refused when the writer starts, never removed): a
/// run that fails half-way leaves a readable partial file under the `.partial` name (MCAP
/// readers read one without its summary sequentially), never a half file under the real name.
/// Same messages in the same order, same bytes.
public final class MCAPWriter {
    /// Uncompressed size (bytes) at which a chunk is closed.
    public var chunkSize = 1 << 20

    public let path: String
    private let partial: String
    /// Where the file is written until ``finish(commit:)`` moves it to its name (`NAME.partial`).
    public var stagedPath: String { partial }
    private let handle: FileHandle
    private var written: UInt64 = 0
    private var dataCRC: UInt = 0

    private var schemas: [(id: UInt16, record: Data)] = []
    private var channels: [(id: UInt16, record: Data)] = []
    private var chunk = Data()
    private var chunkStart: UInt64 = .max, chunkEnd: UInt64 = 0
    /// Per channel, the (log time, offset in the chunk's records) of each message of the open chunk.
    private var chunkIndex: [UInt16: [(UInt64, UInt64)]] = [:]
    private var chunkIndexes: [Data] = []
    private var messageCount: UInt64 = 0
    private var channelCounts: [UInt16: UInt64] = [:]
    private var sequence: [UInt16: UInt32] = [:]
    private var firstTime: UInt64 = .max, lastTime: UInt64 = 0
    private var finished = false

    /// Why an MCAP file could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write the MCAP file (\(reason))" }
    }

    /// Record opcodes.
    enum Op: UInt8 {
        case header = 0x01, footer = 0x02, schema = 0x03, channel = 0x04, message = 0x05, chunk = 0x06, messageIndex = 0x07,
             chunkIndex = 0x08, statistics = 0x0B, summaryOffset = 0x0E, dataEnd = 0x0F
    }

    static let magic = Data([0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A])  // \x89MCAP0\r\n

    /// An MCAP recording: a staged one Parallax began starts with the magic and a header record
    /// whose `library` begins with "parallax" (both are written first, so a file cut short by a
    /// kill is told too).
    public static let fileKind: OutputPath.FileKind = {
        let test: @Sendable (String) -> Bool = { path in
            let head = OutputPath.head(path, count: 1024)
            guard head.count >= 21, Data(head[0..<8]) == magic, head[8] == Op.header.rawValue else { return false }
            func u32(_ at: Int) -> Int? {
                guard at + 4 <= head.count else { return nil }
                return (0..<4).reduce(0) { $0 | Int(head[at + $1]) << (8 * $1) }
            }
            guard let profileLength = u32(17), let libraryLength = u32(21 + profileLength) else { return false }
            let start = 25 + profileLength, prefix = Array("parallax".utf8)
            return libraryLength >= prefix.count && start + prefix.count <= head.count && Array(head[start..<start + prefix.count]) == prefix
        }
        return OutputPath.FileKind(name: "an MCAP recording", begun: test)
    }()

    /// Starts the file at `path` with `profile` (`""`, or `ros1`, `ros2`) and `library` in its header.
    public init(path: String, profile: String = "", library: String = "parallax") throws {
        self.path = path
        partial = OutputPath.staged(path)
        try OutputPath.checkFileTarget(path, option: nil, kind: Self.fileKind)
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw WriteError(path: path, reason: "cannot create \(partial)")
        }
        self.handle = handle
        var header = Data()
        header.mcapString(profile)
        header.mcapString(library)
        try emit(Self.magic, data: true)
        try emit(Self.record(.header, header), data: true)
    }

    deinit { if !finished { try? handle.close() } }

    /// Registers a schema (`encoding`: `jsonschema`, `ros1msg`, …) and returns its id (from 1).
    public func addSchema(name: String, encoding: String, data: Data) throws -> UInt16 {
        let id = UInt16(schemas.count + 1)
        var body = Data()
        body.mcapLE(id)
        body.mcapString(name)
        body.mcapString(encoding)
        body.mcapLE(UInt32(data.count))
        body.append(data)
        let record = Self.record(.schema, body)
        schemas.append((id, record))
        try emit(record, data: true)
        return id
    }

    /// Registers a channel (a topic with its schema and message encoding) and returns its id (from 0).
    public func addChannel(topic: String, schema: UInt16, messageEncoding: String, metadata: [(String, String)] = []) throws -> UInt16 {
        let id = UInt16(channels.count)
        var body = Data()
        body.mcapLE(id)
        body.mcapLE(schema)
        body.mcapString(topic)
        body.mcapString(messageEncoding)
        var map = Data()
        for (k, v) in metadata { map.mcapString(k); map.mcapString(v) }
        body.mcapLE(UInt32(map.count))
        body.append(map)
        let record = Self.record(.channel, body)
        channels.append((id, record))
        try emit(record, data: true)
        return id
    }

    /// Adds a message on `channel` logged and published at `time` (ns).
    public func write(channel: UInt16, time: UInt64, data: Data) throws {
        guard !finished else { throw WriteError(path: path, reason: "already finished") }
        let seq = sequence[channel, default: 0]
        sequence[channel] = seq &+ 1
        var body = Data()
        body.mcapLE(channel)
        body.mcapLE(seq)
        body.mcapLE(time)
        body.mcapLE(time)
        body.append(data)
        chunkIndex[channel, default: []].append((time, UInt64(chunk.count)))
        chunk.append(Self.record(.message, body))
        chunkStart = min(chunkStart, time)
        chunkEnd = max(chunkEnd, time)
        firstTime = min(firstTime, time)
        lastTime = max(lastTime, time)
        messageCount += 1
        channelCounts[channel, default: 0] += 1
        if chunk.count >= chunkSize { try flushChunk() }
    }

    /// Writes the open chunk and its message indexes, and keeps its chunk index.
    private func flushChunk() throws {
        guard !chunk.isEmpty else { return }
        let start = written
        var body = Data()
        body.mcapLE(chunkStart)
        body.mcapLE(chunkEnd)
        body.mcapLE(UInt64(chunk.count))
        body.mcapLE(UInt32(Self.crc(chunk)))
        body.mcapString("")
        body.mcapLE(UInt64(chunk.count))
        body.append(chunk)
        let record = Self.record(.chunk, body)
        try emit(record, data: true)
        let indexStart = written
        var offsets = Data()
        for channel in chunkIndex.keys.sorted() {
            offsets.mcapLE(channel)
            offsets.mcapLE(written)
            var entries = Data()
            for (t, offset) in chunkIndex[channel] ?? [] { entries.mcapLE(t); entries.mcapLE(offset) }
            var index = Data()
            index.mcapLE(channel)
            index.mcapLE(UInt32(entries.count))
            index.append(entries)
            try emit(Self.record(.messageIndex, index), data: true)
        }
        var entry = Data()
        entry.mcapLE(chunkStart)
        entry.mcapLE(chunkEnd)
        entry.mcapLE(start)
        entry.mcapLE(UInt64(record.count))
        entry.mcapLE(UInt32(offsets.count))
        entry.append(offsets)
        entry.mcapLE(written - indexStart)
        entry.mcapString("")
        entry.mcapLE(UInt64(chunk.count))
        entry.mcapLE(UInt64(chunk.count))
        chunkIndexes.append(Self.record(.chunkIndex, entry))
        chunk.removeAll(keepingCapacity: true)
        chunkIndex.removeAll(keepingCapacity: true)
        chunkStart = .max
        chunkEnd = 0
    }

    /// Closes the last chunk, writes the summary and footer, and, with `commit` (default), moves
    /// the file into place; without (an interrupted run), the whole, readable file stays under
    /// ``stagedPath`` and an earlier file under the name is kept.
    public func finish(commit: Bool = true) throws {
        guard !finished else { return }
        try flushChunk()
        var dataEnd = Data()
        dataEnd.mcapLE(UInt32(dataCRC))
        try emit(Self.record(.dataEnd, dataEnd), data: false)
        let summaryStart = written
        var summaryCRC: UInt = 0
        func summary(_ record: Data) throws {
            summaryCRC = record.withUnsafeBytes { crc32(summaryCRC, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count)) }
            try emit(record, data: false)
        }
        var groups: [(Op, UInt64, UInt64)] = []
        func group(_ op: Op, _ records: [Data]) throws {
            guard !records.isEmpty else { return }
            let start = written
            for r in records { try summary(r) }
            groups.append((op, start, written - start))
        }
        try group(.schema, schemas.map(\.record))
        try group(.channel, channels.map(\.record))
        var stats = Data()
        stats.mcapLE(messageCount)
        stats.mcapLE(UInt16(schemas.count))
        stats.mcapLE(UInt32(channels.count))
        stats.mcapLE(UInt32(0))  // attachments
        stats.mcapLE(UInt32(0))  // metadata
        stats.mcapLE(UInt32(chunkIndexes.count))
        stats.mcapLE(messageCount > 0 ? firstTime : 0)
        stats.mcapLE(messageCount > 0 ? lastTime : 0)
        var counts = Data()
        for channel in channelCounts.keys.sorted() { counts.mcapLE(channel); counts.mcapLE(channelCounts[channel] ?? 0) }
        stats.mcapLE(UInt32(counts.count))
        stats.append(counts)
        try group(.statistics, [Self.record(.statistics, stats)])
        try group(.chunkIndex, chunkIndexes)
        let offsetStart = written
        for (op, start, length) in groups {
            var body = Data()
            body.mcapLE(op.rawValue)
            body.mcapLE(start)
            body.mcapLE(length)
            try summary(Self.record(.summaryOffset, body))
        }
        var footer = Data()
        footer.mcapLE(Op.footer.rawValue)
        footer.mcapLE(UInt64(8 + 8 + 4))
        footer.mcapLE(groups.isEmpty ? 0 : summaryStart)
        footer.mcapLE(groups.isEmpty ? 0 : offsetStart)
        summaryCRC = footer.withUnsafeBytes { crc32(summaryCRC, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count)) }
        footer.mcapLE(UInt32(summaryCRC))
        try emit(footer, data: false)
        try emit(Self.magic, data: false)
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw WriteError(path: path, reason: "\(error.localizedDescription)")
        }
        finished = true
        guard commit else { return }
        do { try OutputPath.commit(partial, to: path) } catch let error as OutputPath.CommitError {
            throw WriteError(path: path, reason: "\(error.reason); the recording is kept as '\(partial)'")
        }
    }

    private func emit(_ bytes: Data, data: Bool) throws {
        // write(2) rather than FileHandle, whose error on Linux loses the system's reason
        // ("error 512" for a file over `ulimit -f`): the message says "File too large".
        if let code = bytes.withUnsafeBytes({ FileDescriptorWrite.all(handle.fileDescriptor, $0) }) {
            throw WriteError(path: path, reason: String(cString: strerror(code)))
        }
        if data { dataCRC = bytes.withUnsafeBytes { crc32(dataCRC, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count)) } }
        written += UInt64(bytes.count)
    }

    static func record(_ op: Op, _ body: Data) -> Data {
        var r = Data([op.rawValue])
        r.mcapLE(UInt64(body.count))
        r.append(body)
        return r
    }

    static func crc(_ bytes: Data) -> UInt {
        bytes.withUnsafeBytes { crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count)) }
    }
}

extension Data {
    /// Appends `value` little-endian (MCAP's byte order).
    public mutating func mcapLE<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// Appends an MCAP string: its UTF-8 length (u32) and bytes.
    public mutating func mcapString(_ s: String) {
        let utf8 = Data(s.utf8)
        mcapLE(UInt32(utf8.count))
        append(utf8)
    }
}
