import Foundation

/// The protocol between Parallax and a Python worker (`python/parallax/_protocol.py` is the
/// other half), version 1: length-prefixed frames over one stream socket.
///
/// ```
/// u32 LE  length L of what follows (1 + 4 + J + B), 5 … maxFrameBytes
/// u8      kind
/// u32 LE  length J of the JSON header, at most L − 5
/// J bytes UTF-8 JSON header
/// B bytes binary blob (depth maps the analyzer emits; empty otherwise)
/// ```
/// The worker speaks first (``Kind/hello``, with its protocol version, which must equal
/// ``version``); then Parallax asks (``Kind/describe``, ``Kind/open``, ``Kind/process`` per
/// trigger, ``Kind/close``) and the worker answers each with one frame (``Kind/description``,
/// ``Kind/result`` or ``Kind/error``). Images are not in the frames: they are in the shared
/// memory the worker inherits as descriptor 4 (``SharedImageMemory``; `open` says `"shm": 4`).
enum WorkerProtocol {
    /// The protocol version this Parallax speaks.
    static let version = 1
    /// The largest frame either side accepts (bytes): a length read from the socket above it is
    /// refused before anything is allocated.
    static let maxFrameBytes = 256 * 1024 * 1024
    /// Bytes before the JSON header: length, kind, JSON length.
    static let prefixBytes = 9

    /// What a frame is.
    enum Kind: UInt8, Sendable {
        case hello = 1, describe, description, open, process, result, close, error
    }

    /// One received frame.
    struct Frame: Sendable {
        var kind: Kind
        /// The JSON header's bytes.
        var header: Data
        /// The blob after it.
        var blob: Data
    }

    /// The bytes of a frame of `kind` with `header` (JSON text) and `blob`.
    static func encode(_ kind: Kind, header: String, blob: Data = Data()) throws(PythonWorkerError) -> Data {
        let json = Data(header.utf8)
        let length = 5 + json.count + blob.count
        guard length <= maxFrameBytes else { throw .protocolViolation("a frame of \(length) bytes exceeds the limit of \(maxFrameBytes)") }
        var data = Data(capacity: 4 + length)
        appendUInt32(UInt32(length), to: &data)
        data.append(kind.rawValue)
        appendUInt32(UInt32(json.count), to: &data)
        data.append(json)
        data.append(blob)
        return data
    }

    /// The lengths in a frame's 9-byte prefix: (kind, JSON length, bytes after the prefix),
    /// checked against the limits.
    static func decodePrefix(_ prefix: Data) throws(PythonWorkerError) -> (kind: Kind, jsonLength: Int, remaining: Int) {
        guard prefix.count == prefixBytes else { throw .protocolViolation("a frame prefix of \(prefix.count) bytes") }
        let bytes = [UInt8](prefix)
        let length = Int(readUInt32(bytes, at: 0)), jsonLength = Int(readUInt32(bytes, at: 5))
        guard length >= 5, length <= maxFrameBytes else {
            throw .protocolViolation("a frame of \(length) bytes (allowed: 5 … \(maxFrameBytes))")
        }
        guard jsonLength <= length - 5 else { throw .protocolViolation("a \(jsonLength)-byte header in a frame of \(length) bytes") }
        guard let kind = Kind(rawValue: bytes[4]) else { throw .protocolViolation("unknown frame kind \(bytes[4])") }
        return (kind, jsonLength, length - 5)
    }

    static func appendUInt32(_ v: UInt32, to data: inout Data) {
        data.append(UInt8(v & 0xff)); data.append(UInt8((v >> 8) & 0xff))
        data.append(UInt8((v >> 16) & 0xff)); data.append(UInt8((v >> 24) & 0xff))
    }

    static func readUInt32(_ bytes: [UInt8], at i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }
}
