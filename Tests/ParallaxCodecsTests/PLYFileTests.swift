import Foundation
import Testing
import TestSupport
import ParallaxPayloads
import ParallaxCodecs

@Suite struct PLYFileTests {
    static let cloud = PointCloud(points: [SIMD3(0.1, -0.2, 1.5), SIMD3(1e-7, 3.25, 12.125), SIMD3(-0.333333, 0.5, 2)],
                                  colors: [SIMD3(255, 0, 7), SIMD3(1, 2, 3), SIMD3(0, 128, 255)], camera: "depth")

    @Test(arguments: PLYFile.Encoding.allCases)
    func writesAndReadsBackTheSameFloatsAndColours(encoding: PLYFile.Encoding) throws {
        let folder = try TemporaryFolder.make("ply")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("c.ply").path
        try PLYFile.write(Self.cloud, to: path, encoding: encoding)
        let back = try PLYFile.read(path: path, camera: "depth")
        #expect(back == Self.cloud)
        let plain = PointCloud(points: Self.cloud.points, camera: "depth")
        try PLYFile.write(plain, to: path, encoding: encoding)
        #expect(try PLYFile.read(path: path, camera: "depth") == plain)
    }

    @Test func theHeaderIsStandardPLY() throws {
        let text = String(decoding: PLYFile.data(Self.cloud, encoding: .ascii), as: UTF8.self)
        #expect(text.hasPrefix("ply\nformat ascii 1.0\n"))
        #expect(text.contains("element vertex 3\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n0.1 -0.2 1.5 255 0 7\n"))
        let binary = PLYFile.data(Self.cloud, encoding: .binary)
        let header = "format binary_little_endian 1.0"
        #expect(String(decoding: binary.prefix(200), as: UTF8.self).contains(header))
        // 3 vertices × (3 floats + 3 bytes) after the header.
        let end = try #require(binary.range(of: Data("end_header\n".utf8)))
        #expect(binary.count - end.upperBound == 3 * 15)
    }

    @Test func malformedFilesAreErrorsNamingTheFile() throws {
        let folder = try TemporaryFolder.make("ply")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.ply").path
        for (text, reason) in [("ply\nformat binary_big_endian 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n", "binary_big_endian"),
                               ("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n", "2"),
                               ("ply\nformat ascii 1.0\nelement vertex 1\nproperty double x\nend_header\n1\n", "properties"),
                               ("not a ply\nend_header\n", "magic"), ("ply\n", "end_header")] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect { _ = try PLYFile.read(path: path) } throws: { "\($0)".hasPrefix(path) && "\($0)".contains(reason) }
        }
    }
}
