import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
/// Point clouds as PLY files (Stanford's polygon format, the one Open3D, MeshLab, CloudCompare
/// and PCL all read): `x y z` as `float`, then `red green blue` as `uchar` when coloured;
/// binary little-endian (compact, the default) or ASCII (readable, diffable).
public enum PLYFile {
    public enum Encoding: String, Sendable, CaseIterable {
        case binary, ascii
    }

    /// Why a PLY file could not be read.
    public struct ReadError: Error, BadInput, CustomStringConvertible, Equatable {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The file's bytes for `cloud`.
    public static func data(_ cloud: PointCloud, encoding: Encoding) -> Data {
        let colored = cloud.colors != nil
        var header = "ply\nformat \(encoding == .binary ? "binary_little_endian" : "ascii") 1.0\n"
        header += "comment written by parallax; camera frame of \(cloud.camera) (m, x right, y down, z forward)\n"
        header += "element vertex \(cloud.points.count)\nproperty float x\nproperty float y\nproperty float z\n"
        if colored { header += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        header += "end_header\n"
        var data = Data(header.utf8)
        switch encoding {
        case .binary:
            let stride = 12 + (colored ? 3 : 0)
            var body = [UInt8](repeating: 0, count: cloud.points.count * stride)
            for (i, p) in cloud.points.enumerated() {
                var o = i * stride
                for v in [p.x, p.y, p.z] {
                    let bits = v.bitPattern.littleEndian
                    body[o] = UInt8(truncatingIfNeeded: bits); body[o + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                    body[o + 2] = UInt8(truncatingIfNeeded: bits >> 16); body[o + 3] = UInt8(truncatingIfNeeded: bits >> 24)
                    o += 4
                }
                if let c = cloud.colors?[i] { body[o] = c.x; body[o + 1] = c.y; body[o + 2] = c.z }
            }
            data.append(contentsOf: body)
        case .ascii:
            var text = ""
            text.reserveCapacity(cloud.points.count * 32)
            for (i, p) in cloud.points.enumerated() {
                // Shortest round-tripping decimal: reading the file back gives the same floats.
                text += "\(p.x) \(p.y) \(p.z)"
                if let c = cloud.colors?[i] { text += " \(c.x) \(c.y) \(c.z)" }
                text += "\n"
            }
            data.append(Data(text.utf8))
        }
        return data
    }

    /// Writes `cloud` to `path` (atomically).
    public static func write(_ cloud: PointCloud, to path: String, encoding: Encoding = .binary) throws {
        try data(cloud, encoding: encoding).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Reads a PLY file with a `vertex` element of float `x y z` and optional uchar
    /// `red green blue` (as ``write(_:to:encoding:)`` writes), in either encoding.
    public static func read(path: String, camera: String = "") throws -> PointCloud {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError(path: path, reason: "cannot read the file") }
        guard let end = data.range(of: Data("end_header\n".utf8)) else { throw ReadError(path: path, reason: "no 'end_header' line") }
        let header = String(decoding: data[..<end.lowerBound], as: UTF8.self).split(separator: "\n").map(String.init)
        guard header.first == "ply" else { throw ReadError(path: path, reason: "not a PLY file (no 'ply' magic line)") }
        var binary = false, count = 0, properties: [String] = []
        for (n, line) in header.enumerated() {
            let f = line.split(separator: " ").map(String.init)
            switch f.first {
            case "format":
                guard f.count == 3, f[1] == "binary_little_endian" || f[1] == "ascii" else {
                    throw ReadError(path: path, reason: "line \(n + 1): format '\(f.dropFirst().joined(separator: " "))' is not read (binary_little_endian or ascii)")
                }
                binary = f[1] == "binary_little_endian"
            case "element":
                guard f.count == 3, f[1] == "vertex", let c = Int(f[2]), c >= 0 else {
                    throw ReadError(path: path, reason: "line \(n + 1): only one 'element vertex N' is read")
                }
                count = c
            case "property":
                guard f.count == 3 else { throw ReadError(path: path, reason: "line \(n + 1): malformed property") }
                properties.append("\(f[1]) \(f[2])")
            default: continue
            }
        }
        let plain = ["float x", "float y", "float z"], colored = plain + ["uchar red", "uchar green", "uchar blue"]
        guard properties == plain || properties == colored else {
            throw ReadError(path: path, reason: "vertex properties \(properties) are not float x y z [uchar red green blue]")
        }
        let hasColor = properties == colored
        var points = [SIMD3<Float>](), colors = [SIMD3<UInt8>]()
        let body = data[end.upperBound...]
        if binary {
            let stride = 12 + (hasColor ? 3 : 0)
            // The header's count is checked against the bytes there are before anything is allocated.
            let (need, overflow) = count.multipliedReportingOverflow(by: stride)
            guard !overflow, body.count >= need else { throw ReadError(path: path, reason: "\(body.count) bytes of vertices, the header's \(count) need more") }
            points.reserveCapacity(count)
            let bytes = [UInt8](body)
            func float(_ o: Int) -> Float {
                Float(bitPattern: UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24)
            }
            for i in 0..<count {
                let o = i * stride
                points.append(SIMD3(float(o), float(o + 4), float(o + 8)))
                if hasColor { colors.append(SIMD3(bytes[o + 12], bytes[o + 13], bytes[o + 14])) }
            }
        } else {
            let lines = String(decoding: body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            guard lines.count >= count else { throw ReadError(path: path, reason: "\(lines.count) vertex lines, the header says \(count)") }
            points.reserveCapacity(count)
            for (i, line) in lines.prefix(count).enumerated() {
                let f = line.split(separator: " ")
                guard f.count == (hasColor ? 6 : 3), let x = Float(f[0]), let y = Float(f[1]), let z = Float(f[2]) else {
                    throw ReadError(path: path, reason: "vertex \(i + 1): malformed line '\(line)'")
                }
                points.append(SIMD3(x, y, z))
                if hasColor {
                    guard let r = UInt8(f[3]), let g = UInt8(f[4]), let b = UInt8(f[5]) else { throw ReadError(path: path, reason: "vertex \(i + 1): malformed colour") }
                    colors.append(SIMD3(r, g, b))
                }
            }
        }
        return PointCloud(points: points, colors: hasColor ? colors : nil, camera: camera)
    }
}
