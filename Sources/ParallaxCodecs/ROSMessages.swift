import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles

/// The ROS messages Parallax maps to streams, decoded from their serialization — ROS 1's
/// (little-endian, packed, strings and arrays prefixed by a u32 count, a Header with `seq`) or
/// ROS 2's CDR (a 4-byte encapsulation header, then little-endian fields aligned to their size,
/// strings with their NUL, a Header without `seq`) — every read checked against the message's
/// length.
public enum ROSMessages {
    /// How a bag's messages are serialized.
    public enum Serialization: Sendable { case ros1, cdr }

    /// Why a message did not decode (the caller names topic and time).
    public struct DecodeError: Error, BadInput, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
        public init(reason: String) { self.reason = reason }
    }

    /// A type name in ROS 1 form (`sensor_msgs/Image`; ROS 2 writes `sensor_msgs/msg/Image`).
    public static func normalized(_ type: String) -> String { type.replacingOccurrences(of: "/msg/", with: "/") }

    /// The message types read, and what they become.
    public static let image = "sensor_msgs/Image", compressedImage = "sensor_msgs/CompressedImage", imu = "sensor_msgs/Imu",
               cameraInfo = "sensor_msgs/CameraInfo", poseStamped = "geometry_msgs/PoseStamped",
               transformStamped = "geometry_msgs/TransformStamped", odometry = "nav_msgs/Odometry"
    public static let poseTypes: Set<String> = [poseStamped, transformStamped, odometry]
    public static let known: Set<String> = [image, compressedImage, imu, cameraInfo, poseStamped, transformStamped, odometry]

    /// A bounds-checked reader over one message.
    struct Reader {
        let data: Data
        let serialization: Serialization
        var i: Int
        /// Where CDR alignment counts from (after the encapsulation header).
        let origin: Int
        init(_ data: Data, _ serialization: Serialization) throws {
            self.data = data
            self.serialization = serialization
            if serialization == .cdr {
                guard data.count >= 4 else { throw DecodeError(reason: "a CDR message without its encapsulation header") }
                let kind = data[data.startIndex + 1]
                guard data[data.startIndex] == 0, kind == 1 || kind == 3 else {
                    throw DecodeError(reason: "CDR encapsulation \(data[data.startIndex]) \(kind) is not little-endian CDR")
                }
                origin = data.startIndex + 4
            } else {
                origin = data.startIndex
            }
            i = origin
        }

        /// CDR aligns a field of `n` bytes to a multiple of `n` from the origin.
        mutating func align(_ n: Int) {
            guard serialization == .cdr else { return }
            let offset = (i - origin) % n
            if offset != 0 { i += n - offset }
        }
        mutating func bytes(_ n: Int) throws -> Data {
            guard n >= 0, n <= data.endIndex - i else { throw DecodeError(reason: "the message ends early (needs \(n) more bytes at byte \(i - data.startIndex) of \(data.count))") }
            defer { i += n }
            return data.subdata(in: i..<(i + n))
        }
        mutating func u8() throws -> UInt8 { try bytes(1)[0] }
        mutating func u32() throws -> UInt32 { align(4); return try bytes(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * $1.offset) } }
        mutating func f64() throws -> Double { align(8); return Double(bitPattern: try bytes(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }) }
        mutating func string() throws -> String {
            let raw = try bytes(Int(try u32()))
            // CDR counts the terminating NUL.
            return String(decoding: serialization == .cdr && raw.last == 0 ? raw.dropLast() : raw, as: UTF8.self)
        }
        mutating func uint8Array() throws -> Data { try bytes(Int(try u32())) }
        mutating func f64s(_ n: Int) throws -> [Double] { try (0..<n).map { _ in try f64() } }
        /// std_msgs/Header: (seq,) stamp, frame_id; the stamp in ns.
        mutating func header() throws -> (stamp: Timestamp, frame: String) {
            (try stamp(), try string())
        }
        /// A Header's (seq and) stamp, in ns.
        mutating func stamp() throws -> Timestamp {
            if serialization == .ros1 { _ = try u32() }
            let sec = try u32(), nsec = try u32()
            let seconds = serialization == .cdr ? Int64(Int32(bitPattern: sec)) : Int64(sec)
            return Timestamp(nanoseconds: seconds * 1_000_000_000 + Int64(nsec))
        }
        mutating func vector3() throws -> Vector3 { Vector3(try f64(), try f64(), try f64()) }
        /// geometry_msgs/Quaternion (x, y, z, w) as a rotation.
        mutating func rotation() throws -> SO3 {
            let x = try f64(), y = try f64(), z = try f64(), w = try f64()
            let q = Quaternion(w: w, x: x, y: y, z: z)
            guard q.norm > 1e-9, q.norm.isFinite else { throw DecodeError(reason: "a quaternion of norm \(q.norm)") }
            return SO3(q)
        }
    }

    /// The header stamp of a stamped message (all types read here start with a Header).
    /// (Only the stamp is read, not the frame name after it: a message's first bytes suffice.)
    public static func stamp(_ data: Data, _ serialization: Serialization) -> Timestamp? {
        guard var r = try? Reader(data, serialization) else { return nil }
        return try? r.stamp()
    }

    /// The size a sensor_msgs/Image declares (read from its first bytes: the header, then height
    /// and width), `nil` when `data` ends before it.
    public static func imageSize(_ data: Data, _ serialization: Serialization) -> (width: Int, height: Int)? {
        guard var r = try? Reader(data, serialization), (try? r.header()) != nil,
              let height = try? r.u32(), let width = try? r.u32() else { return nil }
        return (Int(width), Int(height))
    }

    /// sensor_msgs/Image (mono8, mono16, rgb8, bgr8, rgba8, bgra8) or CompressedImage (JPEG, PNG)
    /// as a frame; 16-bit images are scaled to 8 bits (``ImageDecoder/scaledTo8Bit(_:)``). A raw image's declared width × height is checked against `maxPixels` before
    /// anything is allocated for it (compressed images are checked by their decoder's header).
    public static func frame(_ data: Data, _ serialization: Serialization, type: String, camera: String, name: String,
                      maxPixels: Int = ImageSizeLimit.maxPixels) throws -> CameraFrame {
        var r = try Reader(data, serialization)
        _ = try r.header()
        if type == compressedImage {
            _ = try r.string()
            let bytes = try r.uint8Array()
            switch try ImageDecoder.decode(data: bytes, name: name, maxPixels: maxPixels) {
            case let .gray8(image), let .rgb8(image): return CameraFrame(cameraID: camera, image: image)
            case let .gray16(wide): return CameraFrame(cameraID: camera, image: ImageDecoder.scaledTo8Bit(wide))
            }
        }
        let height = Int(try r.u32()), width = Int(try r.u32())
        if case let .failure(refusal) = ImageSizeLimit.check(width: width, height: height, limit: maxPixels) { throw DecodeError(reason: "image \(refusal)") }
        let encoding = try r.string()
        let bigEndian = try r.u8() != 0
        let step = Int(try r.u32())
        let pixels = try r.uint8Array()
        // 16-bit gray (TUM VI's bags): scaled to 8 bits as a 16-bit PNG camera image is.
        if encoding == "mono16" || encoding == "16UC1" {
            guard width > 0, height > 0, step >= width * 2, pixels.count >= step * (height - 1) + width * 2 else {
                throw DecodeError(reason: "a \(width)×\(height) \(encoding) image with step \(step) needs more than its \(pixels.count) bytes")
            }
            var wide = [UInt16](repeating: 0, count: width * height)
            pixels.withUnsafeBytes { (src: UnsafeRawBufferPointer) in
                for y in 0..<height {
                    for x in 0..<width {
                        let a = UInt16(src[y * step + 2 * x]), b = UInt16(src[y * step + 2 * x + 1])
                        wide[y * width + x] = bigEndian ? a << 8 | b : b << 8 | a
                    }
                }
            }
            return CameraFrame(cameraID: camera, image: ImageDecoder.scaledTo8Bit(ImageBuffer(width: width, height: height, samples: wide)))
        }
        let channels: Int, order: [Int]
        switch encoding {
        case "mono8", "8UC1": (channels, order) = (1, [0])
        case "rgb8": (channels, order) = (3, [0, 1, 2])
        case "bgr8": (channels, order) = (3, [2, 1, 0])
        case "rgba8": (channels, order) = (4, [0, 1, 2])
        case "bgra8": (channels, order) = (4, [2, 1, 0])
        default: throw DecodeError(reason: "image encoding '\(encoding)' is not one Parallax reads (mono8, mono16, rgb8, bgr8, rgba8, bgra8)")
        }
        guard width > 0, height > 0, step >= width * channels, pixels.count >= step * (height - 1) + width * channels else {
            throw DecodeError(reason: "a \(width)×\(height) \(encoding) image with step \(step) needs more than its \(pixels.count) bytes")
        }
        let outChannels = order.count
        var samples = [UInt8](repeating: 0, count: width * height * outChannels)
        pixels.withUnsafeBytes { (src: UnsafeRawBufferPointer) in
            for y in 0..<height {
                for x in 0..<width {
                    for (c, from) in order.enumerated() { samples[(y * width + x) * outChannels + c] = src[y * step + x * channels + from] }
                }
            }
        }
        return CameraFrame(cameraID: camera, image: ImageBuffer(width: width, height: height, channels: outChannels, samples: samples))
    }

    /// sensor_msgs/Imu: angular velocity (rad/s) and linear acceleration (m/s²). A NaN or
    /// infinite value in either is refused (as a CSV's IMU row is): every analyzer would take it
    /// for a measurement. The orientation and covariances, which Parallax does not read, are not
    /// checked.
    public static func imuSample(_ data: Data, _ serialization: Serialization) throws -> IMUSample {
        var r = try Reader(data, serialization)
        _ = try r.header()
        _ = try r.f64s(4 + 9)
        let w = try r.vector3()
        _ = try r.f64s(9)
        let a = try r.vector3()
        for (name, v, unit) in [("angular velocity", w, "rad/s"), ("linear acceleration", a, "m/s²")] where !(v.x.isFinite && v.y.isFinite && v.z.isFinite) {
            throw DecodeError(reason: "\(name) (\(v.x), \(v.y), \(v.z)) \(unit) is not finite")
        }
        return IMUSample(gyroscope: w, accelerometer: a)
    }

    /// A pose message as `T_WB` (the message's frame as world, its child or body frame as body).
    public static func pose(_ data: Data, _ serialization: Serialization, type: String) throws -> SE3 {
        var r = try Reader(data, serialization)
        _ = try r.header()
        if type == transformStamped || type == odometry { _ = try r.string() }  // child_frame_id
        let t = try r.vector3()
        let q = try r.rotation()
        return SE3(rotation: q, translation: t)
    }

    /// sensor_msgs/CameraInfo as a calibration: pinhole from K, plumb_bob / rational_polynomial's
    /// first four (radial-tangential) or equidistant distortion from D.
    public static func calibration(_ data: Data, _ serialization: Serialization) throws -> CameraCalibration {
        var r = try Reader(data, serialization)
        _ = try r.header()
        let height = Int(try r.u32()), width = Int(try r.u32())
        let model = try r.string()
        let n = Int(try r.u32())
        guard n <= 64 else { throw DecodeError(reason: "\(n) distortion coefficients") }
        let d = try r.f64s(n)
        let k = try r.f64s(9)
        guard width > 0, height > 0, k[0] > 0, k[4] > 0 else { throw DecodeError(reason: "camera info without a size or focal length") }
        let distortion: LensDistortion
        let extra = d.count > 4 ? d[4...].filter { $0 != 0 } : []
        switch (model, d.count) {
        case (_, 0), ("none", _), ("", _):
            guard d.allSatisfy({ $0 == 0 }) else { throw DecodeError(reason: "distortion coefficients without a model") }
            distortion = .none
        case ("plumb_bob", 4...), ("rational_polynomial", 4...):
            // Parallax's radial-tangential model has k1, k2, p1, p2: further terms must be 0.
            guard extra.isEmpty else { throw DecodeError(reason: "\(model) with non-zero coefficients past k1, k2, p1, p2 (\(d)); Parallax's model has four") }
            distortion = .radialTangential(k1: d[0], k2: d[1], p1: d[2], p2: d[3])
        case ("equidistant", 4...):
            distortion = .equidistant(k1: d[0], k2: d[1], k3: d[2], k4: d[3])
        default:
            throw DecodeError(reason: "distortion model '\(model)' with \(d.count) coefficients is not one Parallax reads (plumb_bob, equidistant)")
        }
        return CameraCalibration(model: CameraModel(width: width, height: height, intrinsics: PinholeIntrinsics(fx: k[0], fy: k[4], cx: k[2], cy: k[5]), distortion: distortion))
    }
}
