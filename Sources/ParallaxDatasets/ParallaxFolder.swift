import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs

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
    /// Names a Parallax folder keeps for itself (lower case): a stream whose first part is one
    /// of them would overwrite the folder's description or be read back as its ground truth.
    public static let reservedStreamNames: Set<String> = [DatasetStreams.groundTruth, "groundtruth.csv", "parallax.yaml", OutputFolder.markerName]

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
        let description = try YAMLDecoding.decode(ParallaxFolderDescription.self, from: text, file: yamlPath)
        var streams: [StreamDescription] = []
        var cameras: [String: CameraCalibration] = [:]
        var rows = IndexedRows()
        var listing = StreamListing()
        var faces: [String: [FaceTruth]] = [:]
        for (rank, entry) in description.streams.enumerated() {
            let name = entry.name, kind = entry.type
            // The name is also the stream's folder.
            guard DatasetPath.staysInside(name) else { throw DatasetError.pathLeavesDataset(file: yamlPath, line: entry.line, path: name) }
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
            let calibrationFile = try entry.calibration.map { try DatasetPath.resolve($0, under: root.path, listedIn: yamlPath, line: entry.calibrationLine) }
            func camera() throws -> CameraCalibration? { try calibrationFile.map { try EuRoCSensorFile.loadCamera(path: $0) } }
            switch kind {
            case .camera, .depth:
                let scale = entry.depthScale, depthKind = entry.kind
                if kind == .camera {
                    cameras[name] = try camera()
                    streams.append(StreamDescription(StreamKey<CameraFrame>(name), metadata: StreamMetadata(camera: cameras[name])))
                } else {
                    let sensor = DepthSensor(kind: depthKind, camera: try camera(), unitsPerMetre: Double(scale))
                    streams.append(StreamDescription(StreamKey<DepthMap>(name), metadata: StreamMetadata(depth: sensor)))
                }
                let calibration = kind == .camera ? cameras[name] : nil
                if kind == .camera, let file = entry.video {
                    let video = try DatasetPath.resolve(file, under: root.path, listedIn: yamlPath, line: entry.videoLine)
                    try VideoStreamRows.add(stream: name, rank: rank, csv: csv, table: table, video: video, gray: grayVideo || entry.gray, support: videoSupport,
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
                let dims = entry.dimensions
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
        let gt = try description.groundTruth.map { try DatasetPath.resolve($0, under: root.path, listedIn: yamlPath, line: description.groundTruthLine) }
        groundTruth = try gt.map { try TrajectoryFile.read(path: $0, format: .euroc) }
        if let trajectory = groundTruth {
            streams.declareGroundTruth()
            try rows.addGroundTruth(trajectory, file: gt ?? "", rank: description.streams.count, listing: &listing)
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
