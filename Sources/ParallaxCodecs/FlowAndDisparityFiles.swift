import Foundation
import ParallaxGeometry
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
/// A dense 2D vector field, e.g. optical flow (px), with unknown vectors as NaN.
public struct FlowField: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Interleaved (u, v) per pixel, row-major, `2 · width · height` values (px); NaN = unknown.
    public let vectors: [Float]

    /// A flow field; `vectors` must hold `2 · width · height` values.
    public init(width: Int, height: Int, vectors: [Float]) {
        precondition(vectors.count == 2 * width * height, "FlowField: wrong vector count")
        self.width = width
        self.height = height
        self.vectors = vectors
    }

    /// The flow at pixel `(x, y)`; nil when unknown.
    public func vector(x: Int, y: Int) -> (u: Float, v: Float)? {
        let i = 2 * (y * width + x)
        let u = vectors[i], v = vectors[i + 1]
        return u.isNaN || v.isNaN ? nil : (u, v)
    }

    /// Bilinear interpolation at a sub-pixel position (pixel centres at integers); nil when
    /// outside the image or when any of the four neighbours is unknown.
    public func sample(x: Double, y: Double) -> (u: Double, v: Double)? {
        guard x >= 0, y >= 0, x <= Double(width - 1), y <= Double(height - 1) else { return nil }
        let x0 = min(Int(x), width - 2 < 0 ? 0 : width - 2), y0 = min(Int(y), height - 2 < 0 ? 0 : height - 2)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        guard let a = vector(x: x0, y: y0), let b = vector(x: x1, y: y0), let c = vector(x: x0, y: y1), let d = vector(x: x1, y: y1) else { return nil }
        func mix(_ p: Float, _ q: Float, _ r: Float, _ s: Float) -> Double {
            (Double(p) * (1 - fx) + Double(q) * fx) * (1 - fy) + (Double(r) * (1 - fx) + Double(s) * fx) * fy
        }
        return (mix(a.u, b.u, c.u, d.u), mix(a.v, b.v, c.v, d.v))
    }
}

/// Why a `.flo` or `.pfm` file could not be read or written.
public enum DenseFileError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case malformed(path: String, reason: String)
    case unwritable(path: String, reason: String)
    public var description: String {
        switch self {
        case let .unreadable(p): return "\(p): cannot read file"
        case let .malformed(p, r): return "\(p): \(r)"
        case let .unwritable(p, r): return "\(p): cannot write: \(r)"
        }
    }
}

/// Middlebury `.flo` optical flow and PFM (portable float map) disparity files.
public enum DenseFiles {
    /// Reads a Middlebury `.flo`: float32 tag 202021.25, int32 width, height, then interleaved
    /// (u, v) float32, little-endian; |value| > 1e9 means unknown (→ NaN).
    public static func readFlo(path: String) throws -> FlowField {
        guard let data = FileContents.data(atPath: path) else { throw DenseFileError.unreadable(path: path) }
        guard data.count >= 12 else { throw DenseFileError.malformed(path: path, reason: "shorter than the 12-byte header") }
        let tag = Float(bitPattern: data.loadLE(UInt32.self, at: 0))
        guard tag == 202021.25 else { throw DenseFileError.malformed(path: path, reason: "tag \(tag) is not 202021.25 (not a .flo file)") }
        let w = Int(Int32(bitPattern: data.loadLE(UInt32.self, at: 4))), h = Int(Int32(bitPattern: data.loadLE(UInt32.self, at: 8)))
        if case let .failure(refusal) = ImageSizeLimit.check(width: w, height: h) { throw DenseFileError.malformed(path: path, reason: ".flo \(refusal)") }
        guard data.count >= 12 + 8 * w * h else {
            throw DenseFileError.malformed(path: path, reason: "truncated: \(data.count) bytes for \(w)×\(h) vectors (need \(12 + 8 * w * h))")
        }
        var vectors = [Float](repeating: 0, count: 2 * w * h)
        for i in vectors.indices {
            let v = Float(bitPattern: data.loadLE(UInt32.self, at: 12 + 4 * i))
            vectors[i] = abs(v) > 1e9 || !v.isFinite ? .nan : v
        }
        return FlowField(width: w, height: h, vectors: vectors)
    }

    /// Reads a gray PFM (`Pf`): a text header (type, "width height", scale whose sign gives the
    /// endianness), then float32 rows bottom to top. Non-finite values become NaN (unknown).
    /// Returned top row first.
    public static func readPFM(path: String) throws -> ImageBuffer<Float> {
        guard let data = FileContents.data(atPath: path) else { throw DenseFileError.unreadable(path: path) }
        var fields: [String] = []
        var offset = 0
        var current = ""
        while fields.count < 4, offset < data.count {
            let b = data[data.startIndex + offset]
            offset += 1
            if b == 0x0A || b == 0x20 || b == 0x0D || b == 0x09 {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(b)))
            }
        }
        guard fields.count == 4, fields[0] == "Pf", let w = Int(fields[1]), let h = Int(fields[2]), let scale = Double(fields[3]), w > 0, h > 0 else {
            throw DenseFileError.malformed(path: path, reason: "expected a gray PFM header 'Pf width height scale'")
        }
        if case let .failure(refusal) = ImageSizeLimit.check(width: w, height: h) { throw DenseFileError.malformed(path: path, reason: "PFM \(refusal)") }
        guard data.count - offset >= 4 * w * h else { throw DenseFileError.malformed(path: path, reason: "truncated pixel data") }
        let littleEndian = scale < 0
        var values = [Float](repeating: 0, count: w * h)
        for row in 0..<h {
            for x in 0..<w {
                let raw = data.loadLE(UInt32.self, at: offset + 4 * (row * w + x))
                let v = Float(bitPattern: littleEndian ? raw : raw.byteSwapped)
                values[(h - 1 - row) * w + x] = v.isFinite ? v : .nan
            }
        }
        return ImageBuffer(width: w, height: h, samples: values)
    }

    /// Writes `image` as a little-endian gray PFM (Middlebury's disparity format; NaN becomes
    /// +∞, Middlebury's "unknown"), atomically.
    public static func writePFM(_ image: ImageBuffer<Float>, path: String) throws {
        var bytes = Array("Pf\n\(image.width) \(image.height)\n-1\n".utf8)
        bytes.reserveCapacity(bytes.count + 4 * image.width * image.height)
        for row in (0..<image.height).reversed() {
            for x in 0..<image.width {
                let v = image[x, row]
                let bits = (v.isNaN ? Float.infinity : v).bitPattern.littleEndian
                Swift.withUnsafeBytes(of: bits) { bytes.append(contentsOf: $0) }
            }
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw DenseFileError.unwritable(path: path, reason: error.localizedDescription)
        }
    }
}

extension Data {
    /// A little-endian integer at byte `offset` from the start.
    func loadLE<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        var value: T = 0
        Swift.withUnsafeMutableBytes(of: &value) { dst in
            dst.copyBytes(from: self[(startIndex + offset)..<(startIndex + offset + MemoryLayout<T>.size)])
        }
        return T(littleEndian: value)
    }
}
