import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs

/// Reads the streams a Parallax folder's description lists (``ParallaxFolderDescription``), one
/// at a time, into rows in time order: what ``ParallaxFolderSource`` is opened from.
struct ParallaxFolderReading {
    let root: URL
    let yamlPath: String
    let grayVideo: Bool
    let videoSupport: VideoSupport?
    var streams: [StreamDescription] = []
    var cameras: [String: CameraCalibration] = [:]
    var rows = IndexedRows()
    var listing = StreamListing()
    var faces: [String: [FaceTruth]] = [:]

    /// One stream's entry and files.
    struct StreamFiles {
        let entry: ParallaxFolderDescription.Stream
        let rank: Int
        /// `NAME/data.csv`.
        let csv: String
        let table: DelimitedText
        /// `NAME/data/`, where its images are.
        let dataFolder: String
        /// Its `sensor.yaml`, resolved inside the folder.
        let calibrationFile: String?
    }

    /// Reads the stream `entry`, the `rank`-th listed (ties in time go in that order).
    mutating func read(_ entry: ParallaxFolderDescription.Stream, rank: Int) throws {
        let name = entry.name
        // The name is also the stream's folder.
        guard DatasetPath.staysInside(name) else { throw DatasetError.pathLeavesDataset(file: yamlPath, line: entry.line, path: name) }
        let csv = root.appendingPathComponent("\(name)/data.csv").path
        guard let table = DelimitedText(path: csv) else { throw DatasetError.notADataset(path: csv, expected: "the data.csv of stream '\(name)'") }
        let files = StreamFiles(entry: entry, rank: rank, csv: csv, table: table, dataFolder: root.appendingPathComponent("\(name)/data").path + "/",
                                calibrationFile: try entry.calibration.map { try DatasetPath.resolve($0, under: root.path, listedIn: yamlPath, line: entry.calibrationLine) })
        switch entry.type {
        case .camera, .depth: try readImagesOrDepth(files)
        case .imu: try readIMU(files)
        case .faceLandmarks: try readFaceLandmarks(files)
        case .faceAnchor: try readFaceAnchors(files)
        case .box: try readBoxes(files)
        case .accelerometer: try readAccelerometer(files)
        }
    }

    /// A row's time (ns, first column), recorded in the listing.
    private mutating func stamp(_ row: DelimitedText.Row, _ f: StreamFiles) throws -> Timestamp {
        guard let ns = row.int64(0) else { throw DatasetError.malformedRow(file: f.csv, line: row.line, reason: "timestamp '\(row.string(0))' is not an integer (ns)") }
        listing.record(stream: f.entry.name, timestamp: Timestamp(nanoseconds: ns), file: f.csv, line: row.line)
        return Timestamp(nanoseconds: ns)
    }

    /// A row's `n` numbers after its time, each finite.
    private func values(_ row: DelimitedText.Row, _ n: Int, _ f: StreamFiles) throws -> [Double] {
        guard row.count == n + 1 else { throw DatasetError.malformedRow(file: f.csv, line: row.line, reason: "expected \(n + 1) columns, found \(row.count)") }
        return try (1...n).map { i in
            guard let v = row.double(i) else { throw DatasetError.malformedRow(file: f.csv, line: row.line, reason: "'\(row.string(i))' is not a finite number") }
            return v
        }
    }

    /// The stream's camera calibration, when it has one.
    private func camera(_ f: StreamFiles) throws -> CameraCalibration? { try f.calibrationFile.map { try EuRoCSensorFile.loadCamera(path: $0) } }

    /// A camera (images or a video) or a depth stream (16-bit PNG or Float32 PFM).
    private mutating func readImagesOrDepth(_ f: StreamFiles) throws {
        let entry = f.entry, name = f.entry.name, kind = f.entry.type, csv = f.csv, table = f.table, rank = f.rank, dataFolder = f.dataFolder
            let scale = entry.depthScale, depthKind = entry.kind, depthRange = entry.range
            if kind == .camera {
                cameras[name] = try camera(f)
                streams.append(StreamDescription(StreamKey<CameraFrame>(name), metadata: StreamMetadata(camera: cameras[name])))
            } else {
                let sensor = DepthSensor(kind: depthKind, camera: try camera(f), unitsPerMetre: Double(scale), range: depthRange)
                streams.append(StreamDescription(StreamKey<DepthMap>(name), metadata: StreamMetadata(depth: sensor)))
            }
            let calibration = kind == .camera ? cameras[name] : nil
            if kind == .camera, let file = entry.video {
                let video = try DatasetPath.resolve(file, under: root.path, listedIn: yamlPath, line: entry.videoLine)
                try VideoStreamRows.add(stream: name, rank: rank, csv: csv, table: table, video: video, gray: grayVideo || entry.gray, support: videoSupport,
                                        calibration: calibration, to: &rows, listing: &listing)
                return
            }
            try table.forEachRow(separatedBy: .comma) { row in
                guard row.count == 2 else { throw DatasetError.malformedRow(file: csv, line: row.line, reason: "expected 2 columns (t_ns,filename), found \(row.count)") }
                let t = try stamp(row, f)
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
                    case let (.camera, .gray16(wide)):
                        // 16-bit gray frames are light, not depth: scaled to 8 bits as any camera image.
                        let image = ImageDecoder.scaledTo8Bit(wide)
                        try ImageDecodingError.checkSize(path: path, width: image.width, height: image.height, calibration: calibration)
                        return AnyPacket(stream: name, timestamp: t, payload: CameraFrame(cameraID: name, image: image))
                    case let (.depth, .gray16(raw)):
                        return AnyPacket(stream: name, timestamp: t, payload: RawDepth.decode(raw, unitsPerMetre: scale, sensorID: name, kind: depthKind))
                    default:
                        throw ImageDecodingError.unsupported(path: path, reason: kind == .camera ? "not a camera image" : "depth must be a 16-bit gray PNG or a Float32 PFM")
                    }
                }
            }
    }

    /// An IMU: `t_ns,gx,gy,gz,ax,ay,az`.
    private mutating func readIMU(_ f: StreamFiles) throws {
        let name = f.entry.name, table = f.table, rank = f.rank
            let imu = try f.calibrationFile.map { try EuRoCSensorFile.loadIMU(path: $0) }
            streams.append(StreamDescription(StreamKey<IMUSample>(name), metadata: StreamMetadata(imu: imu)))
            try table.forEachRow(separatedBy: .comma) { row in
                let t = try stamp(row, f), v = try values(row, 6, f)
                rows.add(AnyPacket(stream: name, timestamp: t,
                    payload: IMUSample(gyroscope: Vector3(v[0], v[1], v[2]), accelerometer: Vector3(v[3], v[4], v[5]))), rank: rank)
            }
    }

    /// Face landmarks: `t_ns` and groups of 2 (u v) or 5 (u v X Y Z) numbers.
    private mutating func readFaceLandmarks(_ f: StreamFiles) throws {
        let entry = f.entry, name = f.entry.name, csv = f.csv, table = f.table, rank = f.rank
            streams.append(StreamDescription(StreamKey<FaceLandmarks>(name), metadata: StreamMetadata(camera: try camera(f))))
            let dims = entry.dimensions
            try table.forEachRow(separatedBy: .comma) { row in
                guard row.count > dims, (row.count - 1) % dims == 0 else {
                    throw DatasetError.malformedRow(file: csv, line: row.line, reason: "expected t_ns and groups of \(dims) numbers, found \(row.count) columns")
                }
                let t = try stamp(row, f), v = try values(row, row.count - 1, f)
                let groups = stride(from: 0, to: v.count, by: dims)
                let points = groups.map { Vector2(v[$0], v[$0 + 1]) }
                let points3D = dims == 5 ? groups.map { Vector3(v[$0 + 2], v[$0 + 3], v[$0 + 4]) } : nil
                rows.add(AnyPacket(stream: name, timestamp: t,
                                                       payload: FaceLandmarks(points: points, points3D: points3D)), rank: rank)
            }
    }

    /// Face anchors (`T_CH`, both eyes, look-at point), also kept as face truth.
    private mutating func readFaceAnchors(_ f: StreamFiles) throws {
        let name = f.entry.name, csv = f.csv, table = f.table, rank = f.rank
            streams.append(StreamDescription(StreamKey<FaceAnchor>(name)))
            try table.forEachRow(separatedBy: .comma) { row in
                let t = try stamp(row, f), v = try values(row, 24, f)
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
    }

    /// Boxes: `t_ns,x,y,width,height` (px).
    private mutating func readBoxes(_ f: StreamFiles) throws {
        let name = f.entry.name, table = f.table, rank = f.rank
            streams.append(StreamDescription(StreamKey<BoundingBox>(name)))
            try table.forEachRow(separatedBy: .comma) { row in
                let t = try stamp(row, f), v = try values(row, 4, f)
                rows.add(AnyPacket(stream: name, timestamp: t, payload: BoundingBox(x: v[0], y: v[1], width: v[2], height: v[3])), rank: rank)
            }
    }

    /// An accelerometer: `t_ns,ax,ay,az`.
    private mutating func readAccelerometer(_ f: StreamFiles) throws {
        let name = f.entry.name, table = f.table, rank = f.rank
            streams.append(StreamDescription(StreamKey<AccelerometerSample>(name)))
            try table.forEachRow(separatedBy: .comma) { row in
                let t = try stamp(row, f), v = try values(row, 3, f)
                rows.add(AnyPacket(stream: name, timestamp: t, payload: AccelerometerSample(acceleration: Vector3(v[0], v[1], v[2]))), rank: rank)
            }

    }
}
