import Foundation
import ParallaxGeometry
import ParallaxMath
import Testing
@testable import ParallaxVision

@Suite struct WorldMapFileTests {
    static func map() -> WorldMap {
        var rng = SeededGenerator(seed: 1)
        var m = WorldMap(camera: MapLocalizerTests.camera, bodyFromCamera: SE3(rotation: SO3.exp(Vector3(0.1, -0.2, 0.3)), translation: Vector3(0.01, -0.02, 0.03)))
        for i in 0..<50 {
            let d = (0..<(1 + i % 4)).map { _ in MapLocalizerTests.descriptor(&rng) }
            m.points.append(WorldMap.Point(position: Vector3(Double(i) * 0.1, -1.5, 2 + rng.nextGaussian()), sigma: 0.003 * Double(i % 5), descriptors: d))
        }
        for k in 0..<3 {
            m.keyframes.append(WorldMap.Keyframe(time: 1_403_636_585_763_555_584 + Int64(k) * 50_000_000,
                                                 worldFromCamera: SE3(rotation: SO3.exp(Vector3(0, 0, Double(k) * 0.2)), translation: Vector3(Double(k), 0.5, 1.2)),
                                                 observations: (0..<20).map { WorldMap.Observation(point: ($0 * 3 + k) % 50, pixel: Vector2(10.25 + Double($0), 300.5 - Double(k))) }))
        }
        return m
    }

    @Test func roundTripIsExact() throws {
        let m = Self.map()
        let bytes = WorldMapFile.encode(m)
        #expect(try WorldMapFile.decode(bytes, path: "m.pxmap") == m)
        // Through a file too, written atomically.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roundtrip-\(UUID().uuidString).pxmap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try WorldMapFile.write(m, to: path)
        #expect(try WorldMapFile.read(path) == m)
    }

    @Test func aChangedByteIsCaughtByTheChecksum() {
        var bytes = WorldMapFile.encode(Self.map())
        bytes[bytes.count / 2] ^= 0x10
        #expect { try WorldMapFile.decode(bytes, path: "m.pxmap") } throws: { error in
            guard case .checksum = error as? WorldMapFile.Error else { return false }
            return "\(error)".contains("m.pxmap: world map checksum mismatch")
        }
    }

    @Test func aTruncatedFileSaysHowMuchIsThere() {
        let bytes = WorldMapFile.encode(Self.map())
        for keep in [4, 20, bytes.count / 3, bytes.count - 1] {
            #expect { try WorldMapFile.decode(Array(bytes.prefix(keep)), path: "m.pxmap") } throws: { error in
                switch error as? WorldMapFile.Error {
                case let .truncated(_, expected, actual): return expected > actual && actual == keep
                case .notAMap: return keep < 8
                default: return false
                }
            }
        }
    }

    @Test func aNewerVersionIsRefusedByName() {
        var bytes = WorldMapFile.encode(Self.map())
        bytes[8] = UInt8(WorldMapFile.formatVersion + 1)
        #expect { try WorldMapFile.decode(bytes, path: "m.pxmap") } throws: { error in
            (error as? WorldMapFile.Error) == .newerVersion(path: "m.pxmap", version: WorldMapFile.formatVersion + 1)
                && "\(error)".contains("newer than this build reads")
        }
    }

    @Test func otherFilesAreNotMaps() {
        #expect(throws: WorldMapFile.Error.notAMap(path: "x.png")) { try WorldMapFile.decode(Array("\u{89}PNG\r\n\u{1a}\n0000000000000000000000".utf8), path: "x.png") }
        #expect { try WorldMapFile.read("/nonexistent/m.pxmap") } throws: { error in
            guard case .unreadable = error as? WorldMapFile.Error else { return false }
            return true
        }
    }

    /// `read` streams: the header is checked before the payload is read, so a huge file that is
    /// not a map, or a map header declaring more than this build reads, is refused having read
    /// 24 bytes (the files are sparse: 64 GiB on paper, nothing on disk; reading one whole would
    /// exhaust memory). A header whose length disagrees with the file's size is refused too.
    @Test func readChecksTheHeaderBeforeReadingThePayload() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sparse-\(UUID().uuidString).pxmap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        func write(header: [UInt8], size: UInt64) throws {
            try Data(header).write(to: URL(fileURLWithPath: path))
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: size)
            try handle.close()
        }
        let big: UInt64 = 64 << 30
        try write(header: Array("\u{89}PNG\r\n\u{1a}\n".utf8), size: big)
        #expect(throws: WorldMapFile.Error.notAMap(path: path)) { try WorldMapFile.read(path) }
        var header = Array(WorldMapFile.encode(Self.map()).prefix(WorldMapFile.headerSize))
        for i in 0..<8 { header[12 + i] = UInt8(truncatingIfNeeded: (big - 24) >> (8 * UInt64(i))) }
        try write(header: header, size: big)
        #expect { try WorldMapFile.read(path) } throws: { error in
            guard case let .malformed(_, reason) = error as? WorldMapFile.Error else { return false }
            return reason.contains("more than the 4 GiB")
        }
        // The length says 1 MiB; the file holds 100 bytes more than the header.
        for i in 0..<8 { header[12 + i] = UInt8(truncatingIfNeeded: UInt64(1 << 20) >> (8 * UInt64(i))) }
        try write(header: header, size: 124)
        #expect(throws: WorldMapFile.Error.truncated(path: path, expected: 24 + (1 << 20), actual: 124)) { try WorldMapFile.read(path) }
    }

    /// A payload whose checksum is right but whose counts lie: refused before any allocation.
    @Test func countsAreCheckedAgainstTheBytesLeft() {
        var payload = Array(WorldMapFile.encode(Self.map()).dropFirst(WorldMapFile.headerSize))
        // The point count follows the camera (4 + 4 + 32 + 1 + 32) and T_BC (56).
        let at = 4 + 4 + 32 + 1 + 32 + 56
        payload[at] = 0xff; payload[at + 1] = 0xff; payload[at + 2] = 0xff; payload[at + 3] = 0x7f
        var header = Array(WorldMapFile.magic)
        for i in 0..<4 { header.append(UInt8(truncatingIfNeeded: WorldMapFile.formatVersion >> (8 * UInt32(i)))) }
        for i in 0..<8 { header.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> (8 * UInt64(i)))) }
        let crc = WorldMapFile.checksum(payload[...])
        for i in 0..<4 { header.append(UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i)))) }
        #expect { try WorldMapFile.decode(header + payload, path: "m.pxmap") } throws: { error in
            guard case let .malformed(_, reason) = error as? WorldMapFile.Error else { return false }
            return reason.contains("cannot fit")
        }
    }

    @Test func anotherCalibrationIsNamed() {
        let m = Self.map()
        #expect(m.mismatch(camera: m.camera, bodyFromCamera: m.bodyFromCamera) == nil)
        var other = m.camera
        other.intrinsics.fx += 1
        #expect(m.mismatch(camera: other, bodyFromCamera: m.bodyFromCamera)?.contains("intrinsics") == true)
        other = m.camera
        other.distortion = .none
        #expect(m.mismatch(camera: other, bodyFromCamera: m.bodyFromCamera)?.contains("distortion") == true)
        let moved = m.bodyFromCamera * SE3(rotation: .identity, translation: Vector3(0.005, 0, 0))
        #expect(m.mismatch(camera: m.camera, bodyFromCamera: moved)?.contains("5.0 mm") == true)
        other = m.camera
        other.width = 640
        #expect(m.mismatch(camera: other, bodyFromCamera: m.bodyFromCamera)?.contains("752×480") == true)
    }
}
