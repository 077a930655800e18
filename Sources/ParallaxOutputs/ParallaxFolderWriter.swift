import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs
import ParallaxDatasets

/// Writes packets into a Parallax folder: images as lossless PNG, samples as CSV with
/// round-trip precision, so reading the folder back gives identical packets.
public final class ParallaxFolderWriter: DatasetWriter {
    /// Raw depth units per metre in written 16-bit depth PNGs (TUM's convention).
    public var depthScale: Float = 5000
    /// Camera streams go into one video file each (`cam0/data.mkv`, through ``videoSupport``)
    /// instead of a PNG per frame; nil: PNG.
    public var video: VideoSupport.Encoding?
    /// The video implementation ``video`` is written with (``PluginRegistry/videoSupport``).
    public var videoSupport: VideoSupport?
    private var videos: [String: (writer: any VideoSupport.FrameWriter, file: String, frames: Int, gray: Bool)] = [:]
    private let root: URL
    private var order: [String] = []
    private var kinds: [String: ParallaxFolder.StreamKind] = [:]
    private var csv: [String: String] = [:]
    private var metadata: [String: StreamMetadata] = [:]
    private var depthKinds: [String: DepthMap.Kind] = [:]
    private var landmarkDimensions: [String: Int] = [:]

    /// Creates (or reuses) the folder.
    public init(path: String) throws {
        root = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// Writes `packets` of `streams` (and `groundTruth`) as a Parallax folder at `path` in one go.
    public static func write(_ packets: [AnyPacket], streams: [StreamDescription] = [], groundTruth: Trajectory? = nil, to path: String) throws {
        let writer = try ParallaxFolderWriter(path: path)
        for s in streams { writer.declare(s) }
        for p in packets { try writer.write(p) }
        try writer.finish(groundTruth: groundTruth)
    }

    /// Why a packet cannot be stored.
    /// A stream a folder format cannot hold (the data's, so bad input: exit 2).
    public enum WriterError: Error, BadInput, CustomStringConvertible {
        /// `format` ("Parallax", "EuRoC") cannot store `stream`, for `reason`.
        case cannotStore(format: String, stream: String, reason: String)
        public var description: String {
            switch self {
            case let .cannotStore(format, s, reason): return "stream '\(s)': the \(format) folder format cannot store it: \(reason)"
            }
        }
    }

    /// Records a stream's metadata (calibration files are written by ``finish(groundTruth:)``).
    public func declare(_ stream: StreamDescription) {
        if !stream.metadata.isEmpty { metadata[OutputPath.relativePath(stream.name)] = stream.metadata }
    }

    /// The written names of the streams seen, by the names the data gave them.
    private var renamed = StreamFolderNames()

    /// Refuses a stream name that cannot name a folder inside this one (``OutputPath/checkRelativeName(_:kind:)``)
    /// or whose first part is a name the folder keeps for itself (``ParallaxFolder/reservedStreamNames``).
    static func checkStreamName(_ name: String) throws {
        try OutputPath.checkRelativeName(name, kind: "stream")
        let first = name.split(separator: "/").first.map { String($0).lowercased() } ?? ""
        if ParallaxFolder.reservedStreamNames.contains(first) {
            throw OutputPath.RefusedError(option: "stream", path: name, reason: "is a name a Parallax folder keeps for itself (\(ParallaxFolder.reservedStreamNames.sorted().joined(separator: ", "))): rename the stream")
        }
    }

    /// Stores one packet (streams are created on first use).
    public func write(_ packet: AnyPacket) throws {
        let name = try renamed.folder(for: packet.stream)
        let t = packet.timestamp.nanoseconds
        func register(_ kind: ParallaxFolder.StreamKind) throws {
            guard kinds[name] == nil else { return }
            // A stream name from data (a bag topic, a folder's parallax.yaml) stays inside the
            // folder and is not one of the folder's own names.
            try Self.checkStreamName(name)
            kinds[name] = kind
            order.append(name)
            let images = kind == .camera || kind == .depth
            try FileManager.default.createDirectory(at: root.appendingPathComponent(images ? "\(name)/data" : name), withIntermediateDirectories: true)
            let header: String
            switch kind {
            case .camera, .depth: header = "#timestamp [ns],filename\n"
            case .imu: header = "#timestamp [ns],w_x [rad s^-1],w_y [rad s^-1],w_z [rad s^-1],a_x [m s^-2],a_y [m s^-2],a_z [m s^-2]\n"
            case .box: header = "#timestamp [ns],x [px],y [px],width [px],height [px]\n"
            case .faceLandmarks: header = "#timestamp [ns],per landmark: u v [px] (and X Y Z [m] when dimensions is 5)\n"
            case .faceAnchor: header = "#timestamp [ns],T_CH (tx ty tz qw qx qy qz),T_H_lefteye (7),T_H_righteye (7),lookAt_H (x y z) [m]\n"
            case .accelerometer: header = "#timestamp [ns],a_x [m s^-2],a_y [m s^-2],a_z [m s^-2]\n"
            }
            csv[name] = header
        }
        switch packet.payload {
        case let frame as CameraFrame where video != nil:
            try writeVideoFrame(frame, stream: name, at: packet.timestamp)
        case let frame as CameraFrame:
            try register(.camera)
            try ImageEncoder.writePNG(frame.image, to: root.appendingPathComponent("\(name)/data/\(t).png").path)
            csv[name, default: ""] += "\(t),\(t).png\n"
        case let depth as DepthMap:
            try register(.depth)
            depthKinds[name] = depth.kind
            try ImageEncoder.writePNG16(RawDepth.encode(depth, unitsPerMetre: depthScale),
                                        to: root.appendingPathComponent("\(name)/data/\(t).png").path)
            csv[name, default: ""] += "\(t),\(t).png\n"
        case let s as IMUSample:
            try register(.imu)
            let g = s.gyroscope, a = s.accelerometer
            csv[name, default: ""] += "\(t),\(g.x),\(g.y),\(g.z),\(a.x),\(a.y),\(a.z)\n"
        case let f as FaceLandmarks:
            try register(.faceLandmarks)
            if let p3 = f.points3D, p3.count == f.points.count {
                landmarkDimensions[name] = 5
                csv[name, default: ""] += "\(t)," + zip(f.points, p3).map { "\($0.x),\($0.y),\($1.x),\($1.y),\($1.z)" }.joined(separator: ",") + "\n"
            } else {
                guard (landmarkDimensions[name] ?? 2) == 2 else {
                    throw WriterError.cannotStore(format: "Parallax", stream: name, reason: "face landmarks without 3D points after ones with them")
                }
                landmarkDimensions[name] = 2
                csv[name, default: ""] += "\(t)," + f.points.map { "\($0.x),\($0.y)" }.joined(separator: ",") + "\n"
            }
        case let a as FaceAnchor:
            try register(.faceAnchor)
            func pose(_ p: SE3) -> String {
                let q = p.rotation.quaternion, x = p.translation
                return "\(x.x),\(x.y),\(x.z),\(q.w),\(q.x),\(q.y),\(q.z)"
            }
            let l = a.lookAtPoint
            csv[name, default: ""] += "\(t),\(pose(a.cameraFromHead)),\(pose(a.leftEye)),\(pose(a.rightEye)),\(l.x),\(l.y),\(l.z)\n"
        case let b as BoundingBox:
            try register(.box)
            csv[name, default: ""] += "\(t),\(b.x),\(b.y),\(b.width),\(b.height)\n"
        case let s as AccelerometerSample:
            try register(.accelerometer)
            let a = s.acceleration
            csv[name, default: ""] += "\(t),\(a.x),\(a.y),\(a.z)\n"
        default:
            throw WriterError.cannotStore(format: "Parallax", stream: name, reason: "its payload is \(type(of: packet.payload)), which the format does not hold")
        }
    }

    /// Appends `frame` to its stream's video (started by its first frame: the size and pixel
    /// kind of the stream) and lists it.
    private func writeVideoFrame(_ frame: CameraFrame, stream name: String, at time: Timestamp) throws {
        guard let encoding = video else { return }
        if videos[name] == nil {
            try Self.checkStreamName(name)
            let support = try VideoSupport.require(videoSupport, for: root.appendingPathComponent(name).path)
            guard let ext = support.fileExtension(encoding.codec) else {
                throw WriterError.cannotStore(format: "Parallax", stream: name, reason: "this build has no video codec '\(encoding.codec)'")
            }
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
            let file = "\(name)/data.\(ext)"
            let gray = frame.image.channels == 1
            let writer = try support.writer(root.appendingPathComponent(file).path, encoding, frame.width, frame.height, gray)
            videos[name] = (writer, file, 0, gray)
            kinds[name] = .camera
            order.append(name)
            csv[name] = "#timestamp [ns],frame\n"
        }
        guard var entry = videos[name] else { return }
        try entry.writer.write(frame.image, at: time)
        csv[name, default: "#timestamp [ns],frame\n"] += "\(time.nanoseconds),\(entry.frames)\n"
        entry.frames += 1
        videos[name] = entry
    }

    /// Writes the CSV files, calibrations, ground truth and `parallax.yaml` (and finishes the
    /// videos).
    public func finish(groundTruth: Trajectory? = nil) throws {
        for name in order { try videos[name]?.writer.finish() }
        var yaml = "format: \(ParallaxFolder.formatTag)\nversion: \(ParallaxFolder.version)\nstreams:\n"
        // Every name in `order` was registered with its kind and listing (`register`).
        for name in order {
            guard let kind = kinds[name], let listing = csv[name] else { continue }
            try listing.write(to: root.appendingPathComponent("\(name)/data.csv"), atomically: true, encoding: .utf8)
            yaml += "  - name: '\(name)'\n    type: \(kind.rawValue)\n"
            let m = metadata[name]
            let sensorYAML: String? = switch kinds[name] {
            case .imu: m?.imu.map(EuRoCSensorFile.imuYAML)
            case .depth: m?.depth?.camera.map(EuRoCSensorFile.cameraYAML)
            default: m?.camera.map(EuRoCSensorFile.cameraYAML)
            }
            if let sensorYAML {
                try sensorYAML.write(to: root.appendingPathComponent("\(name)/sensor.yaml"), atomically: true, encoding: .utf8)
                yaml += "    calibration: '\(name)/sensor.yaml'\n"
            }
            if let dims = landmarkDimensions[name] { yaml += "    dimensions: \(dims)\n" }
            if let v = videos[name] { yaml += "    video: \(v.file)\n    pixels: \(v.gray ? "gray" : "rgb")\n" }
            if kinds[name] == .depth {
                yaml += "    depth_scale: \(depthScale)\n    kind: \(depthKinds[name]?.rawValue ?? "depth")\n"
                if let r = m?.depth?.range { yaml += "    range: [\(r.lowerBound), \(r.upperBound)]\n" }
            }
        }
        if let gt = groundTruth {
            try TrajectoryFile.writeEuRoC(gt, to: root.appendingPathComponent("groundtruth.csv").path)
            yaml += "ground_truth: groundtruth.csv\n"
        }
        try yaml.write(to: root.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
    }
}
