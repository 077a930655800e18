import Foundation
import ParallaxCore
import ParallaxGeometry
import ParallaxMath
import Yams

/// Parallax's own dataset folder: simple CSV + images described by a `parallax.yaml`, for
/// data the other formats cannot hold (any number of cameras, depth at its own rate, …).
/// The layout is documented in `datasets/README.md`.
///
/// ```yaml
/// format: parallax-dataset
/// version: 1
/// streams:
///   - {name: cam0, type: camera, calibration: cam0/sensor.yaml}   # cam0/data.csv: t_ns,filename (PNG in cam0/data/)
///   - {name: imu0, type: imu, calibration: imu0/sensor.yaml}      # imu0/data.csv: t_ns,gx,gy,gz,ax,ay,az
///   - {name: depth0, type: depth, depth_scale: 5000, kind: depth, calibration: depth0/sensor.yaml}
///                                                                 # depth0/data.csv: t_ns,filename (16-bit PNG, or Float32 PFM in the kind's unit)
///   - {name: accel0, type: accelerometer}                         # accel0/data.csv: t_ns,ax,ay,az
/// ground_truth: groundtruth.csv                                    # EuRoC ground-truth CSV
/// ```
///
/// `calibration:` is optional everywhere and becomes the stream's ``StreamMetadata``: an EuRoC
/// camera `sensor.yaml` for cameras, depth maps (intrinsics in depth pixels) and face landmarks,
/// an EuRoC IMU `sensor.yaml` (rate, noise densities) for IMUs. Two calibrated cameras are
/// declared a stereo pair.
public enum ParallaxFolder {
    /// The `format:` value.
    public static let formatTag = "parallax-dataset"
    /// The `version:` this build reads and writes.
    public static let version = 1

    /// Stream kinds the format holds.
    public enum StreamKind: String, Sendable {
        case camera, imu, depth, accelerometer
        /// Face landmarks: `t_ns, x0, y0, x1, y1, …` (px), or with `dimensions: 5` per point
        /// `u, v, X, Y, Z` (px, then camera-frame metres); `calibration:` optional.
        case faceLandmarks = "face_landmarks"
        /// ARKit-style face anchor: `t_ns`, then `T_CH`, left eye `T_HE`, right eye `T_HE` as
        /// `tx ty tz qw qx qy qz` each, then the look-at point `x y z` (head frame, m).
        case faceAnchor = "face_anchor"
        /// Axis-aligned boxes: `t_ns, x, y, width, height` (px, top-left corner).
        case box
    }
}

/// Reads a Parallax folder lazily (images are decoded on demand, possibly on worker threads).
public final class ParallaxFolderSource: DatasetSource, DeferredPacketSource, GroundTruthReplacing, FaceTruthProviding {
    public private(set) var streams: [StreamDescription]
    public let formatName = "Parallax"
    public private(set) var listing = StreamListing()
    public private(set) var groundTruth: Trajectory?
    public let missingImages: [String: Int]
    /// The `face_anchor` streams as face truth, keyed by their first component (`face0`).
    public private(set) var faceTruth: [String: [FaceTruth]] = [:]

    private var indexed = IndexedRows()

    /// Opens the folder at `path` (must hold `parallax.yaml`); camera streams kept as video
    /// decode to gray with `grayVideo`, else as their `pixels:` says (RGB by default).
    public init(path: String, strict: Bool = false, validateOrder: Bool = true, grayVideo: Bool = false, videoSupport: VideoSupport? = nil) throws {
        let root = URL(fileURLWithPath: path)
        let yamlPath = root.appendingPathComponent("parallax.yaml").path
        guard let text = FileContents.string(atPath: yamlPath) else {
            throw DatasetError.notADataset(path: path, expected: "a Parallax folder with parallax.yaml")
        }
        func invalid(_ node: Node?, _ reason: String) -> DatasetError {
            .malformedRow(file: yamlPath, line: node?.mark?.line ?? 1, reason: reason)
        }
        let doc: Node?
        do { doc = try YAMLText.compose(text) } catch {
            throw DatasetError.malformedRow(file: yamlPath, line: error.line ?? 1, reason: "malformed YAML: \(error.message)")
        }
        guard let map = doc?.mapping, map["format"]?.string == ParallaxFolder.formatTag else {
            throw invalid(doc, "expected 'format: \(ParallaxFolder.formatTag)'")
        }
        guard let version = map["version"]?.int, version <= ParallaxFolder.version else {
            throw invalid(map["version"], "unsupported version (this build reads version \(ParallaxFolder.version))")
        }
        guard let list = map["streams"]?.sequence else { throw invalid(doc, "expected a 'streams' list") }
        var streams: [StreamDescription] = []
        var cameras: [String: CameraCalibration] = [:]
        var rows = IndexedRows()
        var listing = StreamListing()
        var faces: [String: [FaceTruth]] = [:]
        for (rank, node) in list.enumerated() {
            guard let s = node.mapping, let name = s["name"]?.string, let kindText = s["type"]?.string else {
                throw invalid(node, "each stream needs 'name' and 'type'")
            }
            // The name is also the stream's folder.
            guard DatasetPath.staysInside(name) else { throw DatasetError.pathLeavesDataset(file: yamlPath, line: s["name"]?.mark?.line ?? 0, path: name) }
            guard let kind = ParallaxFolder.StreamKind(rawValue: kindText) else {
                throw invalid(s["type"], "unknown stream type '\(kindText)' (camera, imu, depth, accelerometer, face_landmarks, face_anchor, box)")
            }
            let csv = root.appendingPathComponent("\(name)/data.csv").path
            guard let table = DelimitedText(path: csv) else { throw DatasetError.notADataset(path: csv, expected: "the data.csv of stream '\(name)'") }
            let dataFolder = root.appendingPathComponent("\(name)/data").path + "/"
            func stamp(_ row: DelimitedText.Row) throws -> Timestamp {
                guard let ns = row.int64(0) else { throw DatasetError.malformedRow(file: csv, line: row.line, reason: "timestamp '\(row.string(0))' is not an integer (ns)") }
                listing.record(stream: name, timestamp: Timestamp(nanoseconds: ns), file: csv, line: row.line)
                return Timestamp(nanoseconds: ns)
            }
            func values(_ row: DelimitedText.Row, _ n: Int) throws -> [Double] {
                guard row.count == n + 1 else { throw DatasetError.malformedRow(file: csv, line: row.line, reason: "expected \(n + 1) columns, found \(row.count)") }
                return try (1...n).map { i in
                    guard let v = row.double(i) else { throw DatasetError.malformedRow(file: csv, line: row.line, reason: "'\(row.string(i))' is not a finite number") }
                    return v
                }
            }
            let calibrationFile = try s["calibration"]?.string.map { try DatasetPath.resolve($0, under: root.path, listedIn: yamlPath, line: s["calibration"]?.mark?.line ?? 0) }
            func camera() throws -> CameraCalibration? { try calibrationFile.map { try EuRoCSensorFile.loadCamera(path: $0) } }
            switch kind {
            case .camera, .depth:
                let scale = Float(s["depth_scale"]?.float ?? 1000)
                let kindName = s["kind"]?.string ?? "depth"
                guard let depthKind = DepthMap.Kind(rawValue: kindName) else {
                    throw invalid(s["kind"], "unknown depth kind '\(kindName)' (depth, disparity, pixelDisparity)")
                }
                if kind == .camera {
                    cameras[name] = try camera()
                    streams.append(StreamDescription(StreamKey<CameraFrame>(name), metadata: StreamMetadata(camera: cameras[name])))
                } else {
                    let sensor = DepthSensor(kind: depthKind, camera: try camera(), unitsPerMetre: Double(scale))
                    streams.append(StreamDescription(StreamKey<DepthMap>(name), metadata: StreamMetadata(depth: sensor)))
                }
                let calibration = kind == .camera ? cameras[name] : nil
                if kind == .camera, let videoNode = s["video"] {
                    guard let file = videoNode.string else { throw invalid(videoNode, "'video' must be a file path") }
                    let video = try DatasetPath.resolve(file, under: root.path, listedIn: yamlPath, line: videoNode.mark?.line ?? 0)
                    let pixels = s["pixels"]?.string ?? "rgb"
                    guard pixels == "rgb" || pixels == "gray" else { throw invalid(s["pixels"], "pixels must be gray or rgb, got '\(pixels)'") }
                    try VideoStreamRows.add(stream: name, rank: rank, csv: csv, table: table, video: video, gray: grayVideo || pixels == "gray", support: videoSupport,
                                            calibration: calibration, to: &rows, listing: &listing)
                    continue
                }
                try table.forEachRow(separatedBy: .comma) { row in
                    guard row.count == 2 else { throw DatasetError.malformedRow(file: csv, line: row.line, reason: "expected 2 columns (t_ns,filename), found \(row.count)") }
                    let t = try stamp(row)
                    rows.addImage(at: t, rank: rank, stream: name, path: try DatasetPath.resolve(row.string(1), under: dataFolder, listedIn: csv, line: row.line), listedAs: row.string(1), in: csv, line: row.line) { path in
                        // Float32 depth (PFM): the values themselves, in metres (or 1/m, px: the
                        // stream's kind); non-finite ones (PFM's inf) are invalid.
                        if kind == .depth, path.lowercased().hasSuffix(".pfm") {
                            let values = try DenseFiles.readPFM(path: path)
                            let samples = values.samples.map { $0.isFinite ? $0 : Float.nan }
                            return AnyPacket(stream: name, timestamp: t, payload: DepthMap(sensorID: name, kind: depthKind,
                                                                                         values: ImageBuffer(width: values.width, height: values.height, samples: samples)))
                        }
                        switch (kind, try ImageDecoder.decode(path: path)) {
                        case let (.camera, .gray8(image)), let (.camera, .rgb8(image)):
                            try ImageDecodingError.checkSize(path: path, width: image.width, height: image.height, calibration: calibration)
                            return AnyPacket(stream: name, timestamp: t, payload: CameraFrame(cameraID: name, image: image))
                        case let (.depth, .gray16(raw)):
                            return AnyPacket(stream: name, timestamp: t, payload: RawDepth.decode(raw, unitsPerMetre: scale, sensorID: name, kind: depthKind))
                        default:
                            throw ImageDecodingError.unsupported(path: path, reason: kind == .camera ? "camera images must be 8-bit" : "depth must be a 16-bit gray PNG or a Float32 PFM")
                        }
                    }
                }
            case .imu:
                let imu = try calibrationFile.map { try EuRoCSensorFile.loadIMU(path: $0) }
                streams.append(StreamDescription(StreamKey<IMUSample>(name), metadata: StreamMetadata(imu: imu)))
                try table.forEachRow(separatedBy: .comma) { row in
                    let t = try stamp(row), v = try values(row, 6)
                    rows.add(AnyPacket(stream: name, timestamp: t,
                        payload: IMUSample(gyroscope: Vector3(v[0], v[1], v[2]), accelerometer: Vector3(v[3], v[4], v[5]))), rank: rank)
                }
            case .faceLandmarks:
                streams.append(StreamDescription(StreamKey<FaceLandmarks>(name), metadata: StreamMetadata(camera: try camera())))
                let dims = s["dimensions"]?.int ?? 2
                guard dims == 2 || dims == 5 else { throw invalid(s["dimensions"], "dimensions must be 2 (u v) or 5 (u v X Y Z)") }
                try table.forEachRow(separatedBy: .comma) { row in
                    guard row.count > dims, (row.count - 1) % dims == 0 else {
                        throw DatasetError.malformedRow(file: csv, line: row.line, reason: "expected t_ns and groups of \(dims) numbers, found \(row.count) columns")
                    }
                    let t = try stamp(row), v = try values(row, row.count - 1)
                    let groups = stride(from: 0, to: v.count, by: dims)
                    let points = groups.map { Vector2(v[$0], v[$0 + 1]) }
                    let points3D = dims == 5 ? groups.map { Vector3(v[$0 + 2], v[$0 + 3], v[$0 + 4]) } : nil
                    rows.add(AnyPacket(stream: name, timestamp: t,
                                                           payload: FaceLandmarks(points: points, points3D: points3D)), rank: rank)
                }
            case .faceAnchor:
                streams.append(StreamDescription(StreamKey<FaceAnchor>(name)))
                try table.forEachRow(separatedBy: .comma) { row in
                    let t = try stamp(row), v = try values(row, 24)
                    func pose(_ o: Int) throws -> SE3 {
                        let q = Quaternion(w: v[o + 3], x: v[o + 4], y: v[o + 5], z: v[o + 6])
                        guard q.norm > 1e-9 else { throw DatasetError.malformedRow(file: csv, line: row.line, reason: "quaternion at column \(o + 5) has zero norm") }
                        return SE3(rotation: SO3(q), translation: Vector3(v[o], v[o + 1], v[o + 2]))
                    }
                    let anchor = FaceAnchor(cameraFromHead: try pose(0), leftEye: try pose(7), rightEye: try pose(14), lookAtPoint: Vector3(v[21], v[22], v[23]))
                    rows.add(AnyPacket(stream: name, timestamp: t, payload: anchor), rank: rank)
                    let face = String(name.split(separator: "/").first ?? Substring(name))
                    faces[face, default: []].append(FaceTruth(timestamp: t, angles: HeadAngles(cameraFromHead: anchor.cameraFromHead.rotation), anchor: anchor))
                }
            case .box:
                streams.append(StreamDescription(StreamKey<BoundingBox>(name)))
                try table.forEachRow(separatedBy: .comma) { row in
                    let t = try stamp(row), v = try values(row, 4)
                    rows.add(AnyPacket(stream: name, timestamp: t, payload: BoundingBox(x: v[0], y: v[1], width: v[2], height: v[3])), rank: rank)
                }
            case .accelerometer:
                streams.append(StreamDescription(StreamKey<AccelerometerSample>(name)))
                try table.forEachRow(separatedBy: .comma) { row in
                    let t = try stamp(row), v = try values(row, 3)
                    rows.add(AnyPacket(stream: name, timestamp: t, payload: AccelerometerSample(acceleration: Vector3(v[0], v[1], v[2]))), rank: rank)
                }
            }
        }
        faceTruth = faces
        if validateOrder { try listing.validate() }
        self.missingImages = try rows.dropMissingImages(strict: strict)
        let partners = StereoPartner.pairs(cameras)
        for i in streams.indices where partners[streams[i].name] != nil { streams[i].metadata.stereo = partners[streams[i].name] }
        let gt = try map["ground_truth"]?.string.map { try DatasetPath.resolve($0, under: root.path, listedIn: yamlPath, line: map["ground_truth"]?.mark?.line ?? 0) }
        groundTruth = try gt.map { try TrajectoryFile.read(path: $0, format: .euroc) }
        if let trajectory = groundTruth {
            streams.declareGroundTruth()
            try rows.addGroundTruth(trajectory, file: gt ?? "", rank: list.count, listing: &listing)
        }
        self.streams = streams
        self.listing = listing
        self.indexed = rows
    }

    public func nextDeferred() throws -> DeferredPacket? { try indexed.next() }

    /// `--groundtruth FILE`: `trajectory` becomes ``groundTruth`` and the ``DatasetStreams/groundTruth`` stream.
    public func replaceGroundTruth(with trajectory: Trajectory, file: String) throws {
        try indexed.replaceGroundTruth(trajectory, file: file, streams: &streams, listing: &listing)
        groundTruth = trajectory
    }
}

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
        if !stream.metadata.isEmpty { metadata[stream.name] = stream.metadata }
    }

    /// Names a Parallax folder keeps for itself (lower case): a stream whose first part is one
    /// of them would overwrite the folder's description or be read back as its ground truth.
    public static let reservedStreamNames: Set<String> = [DatasetStreams.groundTruth, "groundtruth.csv", "parallax.yaml", OutputFolder.markerName]

    /// Refuses a stream name that cannot name a folder inside this one (``OutputPath/checkRelativeName(_:kind:)``)
    /// or whose first part is a name the folder keeps for itself (``reservedStreamNames``).
    static func checkStreamName(_ name: String) throws {
        try OutputPath.checkRelativeName(name, kind: "stream")
        let first = name.split(separator: "/").first.map { String($0).lowercased() } ?? ""
        if reservedStreamNames.contains(first) {
            throw OutputPath.RefusedError(option: "stream", path: name, reason: "is a name a Parallax folder keeps for itself (\(reservedStreamNames.sorted().joined(separator: ", "))): rename the stream")
        }
    }

    /// Stores one packet (streams are created on first use).
    public func write(_ packet: AnyPacket) throws {
        let name = packet.stream
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
            csv[name]! += "\(t),\(t).png\n"
        case let depth as DepthMap:
            try register(.depth)
            depthKinds[name] = depth.kind
            try ImageEncoder.writePNG16(RawDepth.encode(depth, unitsPerMetre: depthScale),
                                        to: root.appendingPathComponent("\(name)/data/\(t).png").path)
            csv[name]! += "\(t),\(t).png\n"
        case let s as IMUSample:
            try register(.imu)
            let g = s.gyroscope, a = s.accelerometer
            csv[name]! += "\(t),\(g.x),\(g.y),\(g.z),\(a.x),\(a.y),\(a.z)\n"
        case let f as FaceLandmarks:
            try register(.faceLandmarks)
            if let p3 = f.points3D, p3.count == f.points.count {
                landmarkDimensions[name] = 5
                csv[name]! += "\(t)," + zip(f.points, p3).map { "\($0.x),\($0.y),\($1.x),\($1.y),\($1.z)" }.joined(separator: ",") + "\n"
            } else {
                guard (landmarkDimensions[name] ?? 2) == 2 else {
                    throw WriterError.cannotStore(format: "Parallax", stream: name, reason: "face landmarks without 3D points after ones with them")
                }
                landmarkDimensions[name] = 2
                csv[name]! += "\(t)," + f.points.map { "\($0.x),\($0.y)" }.joined(separator: ",") + "\n"
            }
        case let a as FaceAnchor:
            try register(.faceAnchor)
            func pose(_ p: SE3) -> String {
                let q = p.rotation.quaternion, x = p.translation
                return "\(x.x),\(x.y),\(x.z),\(q.w),\(q.x),\(q.y),\(q.z)"
            }
            let l = a.lookAtPoint
            csv[name]! += "\(t),\(pose(a.cameraFromHead)),\(pose(a.leftEye)),\(pose(a.rightEye)),\(l.x),\(l.y),\(l.z)\n"
        case let b as BoundingBox:
            try register(.box)
            csv[name]! += "\(t),\(b.x),\(b.y),\(b.width),\(b.height)\n"
        case let s as AccelerometerSample:
            try register(.accelerometer)
            let a = s.acceleration
            csv[name]! += "\(t),\(a.x),\(a.y),\(a.z)\n"
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
        for name in order {
            try csv[name]!.write(to: root.appendingPathComponent("\(name)/data.csv"), atomically: true, encoding: .utf8)
            yaml += "  - name: \(name)\n    type: \(kinds[name]!.rawValue)\n"
            let m = metadata[name]
            let sensorYAML: String? = switch kinds[name] {
            case .imu: m?.imu.map(EuRoCSensorFile.imuYAML)
            case .depth: m?.depth?.camera.map(EuRoCSensorFile.cameraYAML)
            default: m?.camera.map(EuRoCSensorFile.cameraYAML)
            }
            if let sensorYAML {
                try sensorYAML.write(to: root.appendingPathComponent("\(name)/sensor.yaml"), atomically: true, encoding: .utf8)
                yaml += "    calibration: \(name)/sensor.yaml\n"
            }
            if let dims = landmarkDimensions[name] { yaml += "    dimensions: \(dims)\n" }
            if let v = videos[name] { yaml += "    video: \(v.file)\n    pixels: \(v.gray ? "gray" : "rgb")\n" }
            if kinds[name] == .depth {
                yaml += "    depth_scale: \(depthScale)\n    kind: \(depthKinds[name]?.rawValue ?? "depth")\n"
            }
        }
        if let gt = groundTruth {
            try TrajectoryFile.writeEuRoC(gt, to: root.appendingPathComponent("groundtruth.csv").path)
            yaml += "ground_truth: groundtruth.csv\n"
        }
        try yaml.write(to: root.appendingPathComponent("parallax.yaml"), atomically: true, encoding: .utf8)
    }
}
