import CZlib
import Foundation
import ParallaxGeometry
import ParallaxMath

/// The file a ``WorldMap`` is saved to (`.pxmap`; docs/world-maps.md): little-endian binary,
///
/// | bytes | field |
/// |---|---|
/// | 8 | magic `PXWMAP\r\n` (the CR LF catches a text-mode copy) |
/// | 4 | format version (u32, ``formatVersion``) |
/// | 8 | payload length (u64, bytes) |
/// | 4 | CRC-32 of the payload (u32, zlib's) |
/// | … | payload |
///
/// and the payload: the camera (width, height u32; fx, fy, cx, cy f64; distortion kind u8 —
/// 0 none, 1 radial-tangential, 2 equidistant — and 4 coefficients f64), `T_BC` (qw qx qy qz,
/// tx ty tz f64), the points (count u32; each x y z f64, σ f64 (m), descriptor count u8, 32
/// bytes per descriptor), the keyframes (count u32; each time ns i64, `T_WC` as 7 f64, observation count
/// u32, each point index u32 and pixel x y f64).
///
/// Reading checks everything before it trusts anything: the magic, the version (a newer one is
/// refused by name), the length (a truncated file says how much is missing), the checksum (a
/// changed byte is caught), then every count against the bytes left and every index against
/// the points, so a bad file is a clear error, never a crash or a huge allocation.
public enum WorldMapFile {
    /// The version this build writes and the newest it reads.
    public static let formatVersion: UInt32 = 1
    static let magic: [UInt8] = Array("PXWMAP\r\n".utf8)
    static let headerSize = 24
    /// Largest payload this build reads (bytes): 4 GiB, some 25 million points with their
    /// descriptors — far past what a run builds (docs/world-maps.md), and a file claiming more is
    /// refused having read only its header.
    public static let maximumPayloadBytes: UInt64 = 4 << 30

    /// Why a file is not a map this build can use.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        case notAMap(path: String)
        case newerVersion(path: String, version: UInt32)
        case truncated(path: String, expected: Int, actual: Int)
        case checksum(path: String, stored: UInt32, computed: UInt32)
        case malformed(path: String, reason: String)
        case unreadable(path: String, reason: String)

        public var description: String {
            switch self {
            case let .notAMap(path): return "\(path): not a Parallax world map (no PXWMAP header)"
            case let .newerVersion(path, v):
                return "\(path): world map format version \(v) is newer than this build reads (version \(WorldMapFile.formatVersion)); update Parallax"
            case let .truncated(path, expected, actual):
                return "\(path): truncated world map: \(actual) of \(expected) bytes"
            case let .checksum(path, stored, computed):
                return String(format: "%@: world map checksum mismatch (stored %08x, contents give %08x): the file was changed or damaged", path, stored, computed)
            case let .malformed(path, reason): return "\(path): malformed world map: \(reason)"
            case let .unreadable(path, reason): return "\(path): cannot read world map: \(reason)"
            }
        }
    }

    // MARK: Writing

    /// The file's bytes for `map`.
    public static func encode(_ map: WorldMap) -> [UInt8] {
        var p = ByteWriter()
        p.u32(UInt32(map.camera.width)); p.u32(UInt32(map.camera.height))
        let k = map.camera.intrinsics
        for v in [k.fx, k.fy, k.cx, k.cy] { p.f64(v) }
        switch map.camera.distortion {
        case .none: p.u8(0)
        case .radialTangential: p.u8(1)
        case .equidistant: p.u8(2)
        }
        let c = map.camera.distortion.coefficients
        for i in 0..<4 { p.f64(i < c.count ? c[i] : 0) }
        p.pose(map.bodyFromCamera)
        p.u32(UInt32(map.points.count))
        for point in map.points {
            p.f64(point.position.x); p.f64(point.position.y); p.f64(point.position.z)
            p.f64(point.sigma)
            let d = point.descriptors.prefix(WorldMap.maxDescriptorsPerPoint)
            p.u8(UInt8(d.count))
            for descriptor in d { for w in 0..<4 { p.u64(descriptor.words[w]) } }
        }
        p.u32(UInt32(map.keyframes.count))
        for kf in map.keyframes {
            p.i64(kf.time)
            p.pose(kf.worldFromCamera)
            p.u32(UInt32(kf.observations.count))
            for o in kf.observations { p.u32(UInt32(o.point)); p.f64(o.pixel.x); p.f64(o.pixel.y) }
        }
        var h = ByteWriter()
        h.bytes += magic
        h.u32(formatVersion)
        h.u64(UInt64(p.bytes.count))
        h.u32(checksum(p.bytes[...]))
        return h.bytes + p.bytes
    }

    /// Whether the file at `path` begins with the magic of a map file (what ``encode(_:)`` puts
    /// first): how a rerun's `--save-map` tells a map it may replace from a file of the user's.
    public static func startsWithMagic(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: magic.count)).map { [UInt8]($0) == magic } ?? false
    }

    /// Writes `map` to `path` atomically (a temporary file renamed into place).
    public static func write(_ map: WorldMap, to path: String) throws {
        try Data(encode(map)).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    // MARK: Reading

    /// The map in the file at `path`, read in one pass: the 24-byte header first (magic,
    /// version, and the payload length against the file's size: a file that is not a map, or
    /// declares more than it holds, is refused having read 24 bytes), then the payload once into
    /// one buffer of exactly its length, its CRC checked, then every count against the bytes left
    /// before anything is allocated for it. Peak memory: the payload once, plus the map.
    public static func read(_ path: String) throws -> WorldMap {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Error.unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied or not a file" : "no such file")
        }
        defer { try? handle.close() }
        let fileSize: UInt64
        let header: [UInt8]
        do {
            fileSize = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            header = [UInt8](try handle.read(upToCount: headerSize) ?? Data())
        } catch {
            throw Error.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        let length = try checkHeader(header, fileSize: fileSize, path: path)
        var payload = [UInt8]()
        do {
            payload.reserveCapacity(length)
            while payload.count < length {
                guard let piece = try handle.read(upToCount: min(length - payload.count, 1 << 24)), !piece.isEmpty else { break }
                payload.append(contentsOf: piece)
            }
        } catch {
            throw Error.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard payload.count == length else {
            throw Error.truncated(path: path, expected: headerSize + length, actual: headerSize + payload.count)
        }
        return try decodePayload(payload[...], stored: storedChecksum(header), path: path)
    }

    /// The map in `bytes` (`path` names it in errors).
    public static func decode(_ bytes: [UInt8], path: String) throws -> WorldMap {
        let length = try checkHeader(Array(bytes.prefix(headerSize)), fileSize: UInt64(bytes.count), path: path)
        return try decodePayload(bytes[headerSize..<(headerSize + length)], stored: storedChecksum(bytes), path: path)
    }

    /// Checks the header (`header`: the file's first bytes, up to ``headerSize``) of a file of
    /// `fileSize` bytes: magic, version, and that the declared payload length is exactly what
    /// follows the header. Returns that length (bytes).
    static func checkHeader(_ header: [UInt8], fileSize: UInt64, path: String) throws -> Int {
        guard header.count >= magic.count, Array(header[0..<magic.count]) == magic else { throw Error.notAMap(path: path) }
        guard header.count >= headerSize, fileSize >= UInt64(headerSize) else {
            throw Error.truncated(path: path, expected: headerSize, actual: min(header.count, Int(clamping: fileSize)))
        }
        var h = ByteReader(bytes: header[magic.count..<headerSize], path: path)
        let version = try h.u32()
        guard version <= formatVersion else { throw Error.newerVersion(path: path, version: version) }
        guard version >= 1 else { throw Error.malformed(path: path, reason: "format version 0") }
        let length = try h.u64()
        let available = fileSize - UInt64(headerSize)
        guard length <= available else {
            throw Error.truncated(path: path, expected: headerSize + Int(min(length, UInt64(Int.max / 2))), actual: Int(clamping: fileSize))
        }
        guard length == available else {
            throw Error.malformed(path: path, reason: "\(available - length) byte(s) after the payload")
        }
        guard length <= maximumPayloadBytes else {
            throw Error.malformed(path: path, reason: "a payload of \(length) bytes, more than the \(maximumPayloadBytes >> 30) GiB this build reads")
        }
        return Int(length)
    }

    /// The CRC-32 stored in a header (bytes 20–23).
    static func storedChecksum(_ header: [UInt8]) -> UInt32 {
        guard header.count >= headerSize else { return 0 }
        return header[20..<24].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The map in a payload whose header said CRC `stored`.
    static func decodePayload(_ payload: ArraySlice<UInt8>, stored: UInt32, path: String) throws -> WorldMap {
        let computed = checksum(payload)
        guard computed == stored else { throw Error.checksum(path: path, stored: stored, computed: computed) }
        var r = ByteReader(bytes: payload, path: path)
        let width = Int(try r.u32()), height = Int(try r.u32())
        let fx = try r.f64(), fy = try r.f64(), cx = try r.f64(), cy = try r.f64()
        let kind = try r.u8()
        let c = [try r.f64(), try r.f64(), try r.f64(), try r.f64()]
        let distortion: LensDistortion
        switch kind {
        case 0: distortion = .none
        case 1: distortion = .radialTangential(k1: c[0], k2: c[1], p1: c[2], p2: c[3])
        case 2: distortion = .equidistant(k1: c[0], k2: c[1], k3: c[2], k4: c[3])
        default: throw Error.malformed(path: path, reason: "unknown distortion kind \(kind)")
        }
        guard width > 0, height > 0, [fx, fy, cx, cy].allSatisfy(\.isFinite), fx > 0, fy > 0, c.allSatisfy(\.isFinite) else {
            throw Error.malformed(path: path, reason: "camera \(width)×\(height) fx \(fx) fy \(fy) cx \(cx) cy \(cy) is not a camera")
        }
        let camera = CameraModel(width: width, height: height, intrinsics: PinholeIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy), distortion: distortion)
        let bodyFromCamera = try r.pose()
        let pointCount = try r.count(minimumBytesEach: 33, what: "points")
        var points: [WorldMap.Point] = []
        points.reserveCapacity(pointCount)
        for i in 0..<pointCount {
            let position = Vector3(try r.f64(), try r.f64(), try r.f64())
            let sigma = try r.f64()
            guard position.x.isFinite, position.y.isFinite, position.z.isFinite, sigma.isFinite, sigma >= 0 else {
                throw Error.malformed(path: path, reason: "point \(i) is not finite")
            }
            let n = Int(try r.u8())
            guard n <= WorldMap.maxDescriptorsPerPoint else {
                throw Error.malformed(path: path, reason: "point \(i) has \(n) descriptors (at most \(WorldMap.maxDescriptorsPerPoint))")
            }
            var descriptors: [BinaryDescriptor] = []
            for _ in 0..<n { descriptors.append(BinaryDescriptor(words: SIMD4(try r.u64(), try r.u64(), try r.u64(), try r.u64()))) }
            points.append(WorldMap.Point(position: position, sigma: sigma, descriptors: descriptors))
        }
        let keyframeCount = try r.count(minimumBytesEach: 68, what: "keyframes")
        var keyframes: [WorldMap.Keyframe] = []
        keyframes.reserveCapacity(keyframeCount)
        for k in 0..<keyframeCount {
            let time = try r.i64()
            let pose = try r.pose()
            let n = try r.count(minimumBytesEach: 20, what: "observations of keyframe \(k)")
            var observations: [WorldMap.Observation] = []
            observations.reserveCapacity(n)
            for _ in 0..<n {
                let index = Int(try r.u32())
                guard index < points.count else {
                    throw Error.malformed(path: path, reason: "keyframe \(k) names point \(index) of \(points.count)")
                }
                let pixel = Vector2(try r.f64(), try r.f64())
                guard pixel.x.isFinite, pixel.y.isFinite else { throw Error.malformed(path: path, reason: "keyframe \(k) has a pixel that is not finite") }
                observations.append(WorldMap.Observation(point: index, pixel: pixel))
            }
            keyframes.append(WorldMap.Keyframe(time: time, worldFromCamera: pose, observations: observations))
        }
        guard r.remaining == 0 else { throw Error.malformed(path: path, reason: "\(r.remaining) byte(s) after the keyframes") }
        return WorldMap(camera: camera, bodyFromCamera: bodyFromCamera, keyframes: keyframes, points: points)
    }

    /// zlib's CRC-32 of `bytes`.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { b in UInt32(crc32(0, b.baseAddress, uInt(b.count))) }
    }
}

/// Little-endian appends.
private struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    mutating func u64(_ v: UInt64) { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
    mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func pose(_ t: SE3) {
        let q = t.rotation.quaternion
        for v in [q.w, q.vector.x, q.vector.y, q.vector.z, t.translation.x, t.translation.y, t.translation.z] { f64(v) }
    }
}

/// Little-endian reads that throw at the end of the bytes.
private struct ByteReader {
    let bytes: ArraySlice<UInt8>
    let path: String
    var position: Int

    init(bytes: ArraySlice<UInt8>, path: String) {
        self.bytes = bytes
        self.path = path
        position = bytes.startIndex
    }

    var remaining: Int { bytes.endIndex - position }

    mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
        guard remaining >= n else {
            throw WorldMapFile.Error.malformed(path: path, reason: "the payload ends \(n - remaining) byte(s) early")
        }
        defer { position += n }
        return bytes[position..<(position + n)]
    }
    mutating func u8() throws -> UInt8 { try take(1).first ?? 0 }
    mutating func u32() throws -> UInt32 { try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    mutating func u64() throws -> UInt64 { try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) } }
    mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }
    mutating func f64() throws -> Double { Double(bitPattern: try u64()) }
    mutating func pose() throws -> SE3 {
        let v = [try f64(), try f64(), try f64(), try f64(), try f64(), try f64(), try f64()]
        let qn = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]).squareRoot()
        guard v.allSatisfy(\.isFinite), abs(qn - 1) < 1e-6 else {
            throw WorldMapFile.Error.malformed(path: path, reason: "a pose is not a rotation and translation")
        }
        return SE3(rotation: SO3(Quaternion(w: v[0], x: v[1], y: v[2], z: v[3])), translation: Vector3(v[4], v[5], v[6]))
    }
    /// A u32 count of elements of at least `minimumBytesEach` bytes, checked against the bytes left.
    mutating func count(minimumBytesEach: Int, what: String) throws -> Int {
        let n = Int(try u32())
        guard n <= remaining / minimumBytesEach else {
            throw WorldMapFile.Error.malformed(path: path, reason: "\(n) \(what) cannot fit in the \(remaining) bytes left")
        }
        return n
    }
}
