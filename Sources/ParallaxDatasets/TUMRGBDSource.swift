import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxCodecs

/// Streams a TUM RGB-D folder lazily: `rgb.txt` → `rgb` (``CameraFrame``, RGB),
/// `depth.txt` → `depth` (``DepthMap`` in metres: raw 16-bit / 5000, 0 → NaN = invalid),
/// `accelerometer.txt` → `accelerometer` (``AccelerometerSample``), and `groundtruth.txt` as
/// ``groundTruth`` (not a stream). Images are decoded only when the bus asks for them.
///
/// Calibration: a `sensor.yaml` in the folder (EuRoC's camera format), else TUM's published
/// freiburg3 calibration when the folder's path names `freiburg3` (its images come
/// undistorted); it describes `rgb` and `depth` alike, since TUM registers depth to the colour
/// camera. freiburg1 and freiburg2 need a `sensor.yaml` (their lens model has a k3 term this
/// reader does not model). Without either, the streams carry no calibration.
public final class TUMRGBDSource: DatasetSource, DeferredPacketSource, GroundTruthReplacing {
    public let formatName = "TUM RGB-D"
    public private(set) var listing = StreamListing()
    /// TUM's depth scale: raw units per metre.
    public static let depthUnitsPerMetre: Float = 5000

    public let streams: [StreamDescription]
    /// The ground-truth trajectory, when `groundtruth.txt` exists (or the file given to
    /// ``replaceGroundTruth(with:file:)``).
    public private(set) var groundTruth: Trajectory?
    /// Listed images whose file does not exist, per stream (found when the folder is opened;
    /// those rows are skipped).
    public let missingImages: [String: Int]

    private var rows = IndexedRows()

    /// Opens the folder at `path` (`validateOrder` as in ``EuRoCSource``).
    public init(path: String, strict: Bool = false, validateOrder: Bool = true) throws {
        let root = URL(fileURLWithPath: path)
        let fm = FileManager.default
        let rgbList = root.appendingPathComponent("rgb.txt").path, depthList = root.appendingPathComponent("depth.txt").path
        guard fm.fileExists(atPath: rgbList) || fm.fileExists(atPath: depthList) else {
            throw DatasetError.notADataset(path: path, expected: "a TUM RGB-D folder with rgb.txt and/or depth.txt")
        }
        var streams: [StreamDescription] = []
        var rows = IndexedRows()
        var listing = StreamListing()
        func list(_ file: String, stream: String, rank: Int, decode: @escaping @Sendable (String, Timestamp) throws -> AnyPacket) throws {
            guard fm.fileExists(atPath: file) else { return }
            try Self.table(file).forEachRow(separatedBy: .whitespace) { row in
                guard row.count == 2, let ns = row.decimalNanoseconds(0) else {
                    throw DatasetError.malformedRow(file: file, line: row.line, reason: "expected 'timestamp filename'")
                }
                let t = Timestamp(nanoseconds: ns)
                listing.record(stream: stream, timestamp: t, file: file, line: row.line)
                rows.addImage(at: t, rank: rank, stream: stream, path: try DatasetPath.resolve(row.string(1), under: root.path, listedIn: file, line: row.line),
                              listedAs: row.string(1), in: file, line: row.line) { try decode($0, t) }
            }
        }
        let camera = try Self.calibration(root: root)
        if fm.fileExists(atPath: rgbList) { streams.append(StreamDescription(StreamKey<CameraFrame>("rgb"), metadata: StreamMetadata(camera: camera))) }
        try list(rgbList, stream: "rgb", rank: 0) { path, t in
            let image = try ImageDecoder.decode8Bit(path: path)
            try ImageDecodingError.checkSize(path: path, width: image.width, height: image.height, calibration: camera)
            return AnyPacket(stream: "rgb", timestamp: t, payload: CameraFrame(cameraID: "rgb", image: image))
        }
        if fm.fileExists(atPath: depthList) {
            let sensor = DepthSensor(kind: .depth, camera: camera, unitsPerMetre: Double(Self.depthUnitsPerMetre))
            streams.append(StreamDescription(StreamKey<DepthMap>("depth"), metadata: StreamMetadata(depth: sensor)))
        }
        try list(depthList, stream: "depth", rank: 1) { path, t in
            guard case let .gray16(raw) = try ImageDecoder.decode(path: path) else {
                throw ImageDecodingError.unsupported(path: path, reason: "depth must be a 16-bit gray PNG")
            }
            try ImageDecodingError.checkSize(path: path, width: raw.width, height: raw.height, calibration: camera)
            return AnyPacket(stream: "depth", timestamp: t, payload: RawDepth.decode(raw, unitsPerMetre: TUMRGBDSource.depthUnitsPerMetre, sensorID: "depth"))
        }
        let accelFile = root.appendingPathComponent("accelerometer.txt").path
        if fm.fileExists(atPath: accelFile) {
            streams.append(StreamDescription(StreamKey<AccelerometerSample>("accelerometer")))
            try Self.table(accelFile).forEachRow(separatedBy: .whitespace) { row in
                guard row.count == 4, let ns = row.decimalNanoseconds(0), let x = row.double(1), let y = row.double(2), let z = row.double(3) else {
                    throw DatasetError.malformedRow(file: accelFile, line: row.line, reason: "expected 'timestamp ax ay az'")
                }
                listing.record(stream: "accelerometer", timestamp: Timestamp(nanoseconds: ns), file: accelFile, line: row.line)
                rows.add(AnyPacket(stream: "accelerometer", timestamp: Timestamp(nanoseconds: ns), payload: AccelerometerSample(acceleration: Vector3(x, y, z))), rank: 2)
            }
        }
        if validateOrder { try listing.validate() }
        self.listing = listing
        missingImages = try rows.dropMissingImages(strict: strict)
        let gt = root.appendingPathComponent("groundtruth.txt").path
        groundTruth = fm.fileExists(atPath: gt) ? try TrajectoryFile.read(path: gt, format: .tum, requireIncreasingTimes: true) : nil
        self.rows = rows
        self.streams = streams
    }

    /// TUM's freiburg3 Kinect (fx, fy, cx, cy in px; no distortion), 640×480.
    public static let freiburg3 = CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 535.4, fy: 539.2, cx: 320.1, cy: 247.6))

    /// The folder's `sensor.yaml`, else freiburg3's when the path names it, else none.
    static func calibration(root: URL) throws -> CameraCalibration? {
        let yaml = root.appendingPathComponent("sensor.yaml").path
        if FileManager.default.fileExists(atPath: yaml) { return try EuRoCSensorFile.loadCamera(path: yaml) }
        if root.standardizedFileURL.path.contains("freiburg3") { return CameraCalibration(model: freiburg3, rateHz: 30) }
        return nil
    }

    static func table(_ file: String) throws -> DelimitedText {
        guard let t = DelimitedText(path: file) else { throw DatasetError.notADataset(path: file, expected: "a readable text file") }
        return t
    }

    /// The next packet; images are deferred (decoded by whoever runs the work).
    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }

    /// `--groundtruth FILE`: `trajectory` becomes ``groundTruth`` (TUM's ground truth is not a stream).
    public func replaceGroundTruth(with trajectory: Trajectory, file: String) throws {
        try DatasetError.requireIncreasing(trajectory, file: file)
        groundTruth = trajectory
    }
}
