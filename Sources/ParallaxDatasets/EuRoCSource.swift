import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs

/// Why a dataset folder could not be read. Every case names the file (and line: `line` 0 is a
/// file as a whole, said without a line number).
public enum DatasetError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    case notADataset(path: String, expected: String)
    case malformedRow(file: String, line: Int, reason: String)
    case missingImage(file: String, line: Int, image: String)
    /// A stream's timestamps go backwards or repeat (file order).
    case outOfOrder(file: String, line: Int, previous: Timestamp, current: Timestamp)
    /// A stream's timestamps go backwards or repeat in a binary file of messages (a bag):
    /// `message` counts the file's messages from 1, in file order; `topic` is the message's.
    case messageOutOfOrder(file: String, message: Int, topic: String, previous: Timestamp, current: Timestamp)
    /// Ground-truth poses go backwards or repeat (`index` counts data rows from 1).
    case groundTruthOutOfOrder(file: String, index: Int, previous: Timestamp, current: Timestamp)
    /// A path written in a dataset file is absolute or climbs out of the dataset (`line` 0: a
    /// YAML key rather than a numbered row).
    case pathLeavesDataset(file: String, line: Int, path: String)
    /// A ``DatasetOptions`` value the reader cannot use (named as the CLI names it).
    case invalidOption(path: String, option: String, reason: String)

    public var description: String {
        switch self {
        case let .notADataset(path, expected): return "\(path) is not a dataset: expected \(expected)"
        case let .malformedRow(file, line, reason): return "\(Self.place(file, line)): \(reason)"
        case let .invalidOption(path, option, reason): return "\(path): \(option) \(reason)"
        case let .missingImage(file, line, image): return "\(Self.place(file, line)): image '\(image)' does not exist"
        case let .pathLeavesDataset(file, line, path):
            return "\(file)\(line > 0 ? ":\(line)" : ""): the path '\(path)' leaves the dataset folder (absolute, or climbing out with '..'); "
                + "paths in a dataset's files must stay inside it (link files kept elsewhere into the folder)"
        case let .groundTruthOutOfOrder(file, index, previous, current):
            return "\(file): ground-truth pose \(index) is at \(current.nanoseconds) ns, not after the previous one (\(previous.nanoseconds) ns)"
        case let .outOfOrder(file, line, previous, current):
            return "\(Self.place(file, line)): timestamp \(Self.disorder(previous, current))"
        case let .messageOutOfOrder(file, message, topic, previous, current):
            return "\(file): message \(message) on '\(topic)' at \(current.nanoseconds) ns: timestamp \(Self.disorder(previous, current))"
        }
    }

    /// `file:line`, or `file` alone for line 0 (the file as a whole: there is no line 0).
    static func place(_ file: String, _ line: Int) -> String { line > 0 ? "\(file):\(line)" : file }

    /// How `current` fails to follow `previous`.
    static func disorder(_ previous: Timestamp, _ current: Timestamp) -> String {
        previous == current ? "repeats timestamp \(current.nanoseconds) ns" : "goes back in time from \(previous.nanoseconds) to \(current.nanoseconds) ns"
    }
}

extension EuRoCSource {
    /// The ground-truth file: EuRoC's `mav0/state_groundtruth_estimate0/data.csv`; else TUM-VI's
    /// `mav0/mocap0/data.csv` (its EuRoC exports: the IMU's pose from motion capture, the same
    /// columns); else the one `.csv` in the dataset's `groundtruth/` folder (where re-computed
    /// ground truth such as OpenVINS's vicon2gt files is kept, as in the bundled cut); nil when
    /// there is none. Several `.csv` files there are an error: which one is meant cannot be guessed.
    static func groundTruthFile(root: URL, mav0: URL) throws -> String? {
        let fm = FileManager.default
        for standard in ["state_groundtruth_estimate0/data.csv", "mocap0/data.csv"].map({ mav0.appendingPathComponent($0).path })
            where fm.fileExists(atPath: standard) { return standard }
        let folder = root.appendingPathComponent("groundtruth")
        let files = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.lowercased().hasSuffix(".csv") }.sorted()
        guard files.count <= 1 else {
            throw DatasetError.notADataset(path: folder.path, expected: "one ground-truth .csv file (found \(files.joined(separator: ", ")))")
        }
        return files.first.map { folder.appendingPathComponent($0).path }
    }
}

extension DatasetError {
    /// `hz` when it is a usable frame rate (positive and finite), else an error naming `path`
    /// and the `--image-rate` option.
    static func requireRate(_ hz: Double, path: String) throws -> Double {
        guard hz.isFinite, hz > 0 else {
            throw DatasetError.invalidOption(path: path, option: "image rate (--image-rate)", reason: "must be a positive number of Hz, got \(hz)")
        }
        return hz
    }

    /// Throws ``groundTruthOutOfOrder(file:index:previous:current:)`` unless the poses' times
    /// strictly increase: a pose stream must not go back in time, and silently dropping poses
    /// would hide a broken file.
    static func requireIncreasing(_ trajectory: Trajectory, file: String) throws {
        for k in 1..<max(trajectory.poses.count, 1) where trajectory.poses[k].timestamp <= trajectory.poses[k - 1].timestamp {
            throw DatasetError.groundTruthOutOfOrder(file: file, index: k + 1, previous: trajectory.poses[k - 1].timestamp,
                                                     current: trajectory.poses[k].timestamp)
        }
    }
}

/// Streams an EuRoC/ASL folder (`mav0/cam*/`, `mav0/imu0/`) lazily: CSV rows are parsed up front
/// (small), images are decoded one at a time as the bus asks for them.
///
/// Streams: `cam0`, `cam1`, … (``CameraFrame``; metadata: the calibration from `sensor.yaml`,
/// and the stereo partner when two cameras are calibrated) and `imu0` (``IMUSample``; metadata:
/// rate and noise densities from `imu0/sensor.yaml` when present). Rows whose image file is missing are skipped and counted
/// (``missingImages``) unless `strict`.
public final class EuRoCSource: DatasetSource, DeferredPacketSource, GroundTruthReplacing {
    public private(set) var streams: [StreamDescription]
    public let formatName = "EuRoC/ASL"
    public private(set) var listing = StreamListing()
    /// Ground truth from `mav0/state_groundtruth_estimate0/data.csv` (or TUM-VI's `mav0/mocap0/data.csv`, `groundtruth/*.csv`, or
    /// the file given to ``replaceGroundTruth(with:file:)``), when present.
    public private(set) var groundTruth: Trajectory?
    /// Image rows listed in `data.csv` whose file does not exist, per camera (found when the
    /// folder is opened; those rows are skipped).
    public let missingImages: [String: Int]
    /// What a run should know: a `data.csv` that lists nothing (`mav0/imu0/data.csv lists no
    /// samples`), its stream then empty. A stream may legitimately be so; a dataset whose every
    /// file lists nothing (and without ground truth) is refused instead.
    public private(set) var notes: [String] = []

    private var rows = IndexedRows()

    /// Opens `path` (the folder holding `mav0`, or `mav0` itself). With `validateOrder`
    /// (default), a stream whose timestamps go backwards or repeat is an error naming the file
    /// and line; without it, the rows are sorted and the disorder is only reported in ``listing``.
    public init(path: String, strict: Bool = false, validateOrder: Bool = true) throws {
        let fm = FileManager.default
        var mav0 = URL(fileURLWithPath: path)
        if mav0.lastPathComponent != "mav0" { mav0.appendPathComponent("mav0") }
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: mav0.path, isDirectory: &isDir), isDir.boolValue else {
            throw DatasetError.notADataset(path: path, expected: "an EuRoC/ASL folder with mav0/cam0/data.csv and mav0/imu0/data.csv")
        }
        var listing = StreamListing()
        let entries = (try? fm.contentsOfDirectory(atPath: mav0.path))?.sorted() ?? []
        var cams: [(String, CameraCalibration)] = []
        var streams: [StreamDescription] = []
        var rows = IndexedRows()
        var notes: [String] = []
        var rowCount = 0
        /// A note when `csv` (listing `what`) had no rows.
        func noteIfEmpty(_ csv: String, rows: Int, _ what: String) {
            if rows == 0 { notes.append("\(Self.relative(csv, to: mav0)) lists no \(what): its stream is empty") }
        }
        for name in entries where name.hasPrefix("cam") && fm.fileExists(atPath: mav0.appendingPathComponent(name + "/data.csv").path) {
            let folder = mav0.appendingPathComponent(name)
            let calibration = try EuRoCSensorFile.loadCamera(path: folder.appendingPathComponent("sensor.yaml").path)
            let rank = cams.count
            cams.append((name, calibration))
            let csv = folder.appendingPathComponent("data.csv").path
            let dataFolder = folder.appendingPathComponent("data").path + "/"
            var frames = 0
            try Self.rows(csv, columns: 2) { row in
                frames += 1
                guard let ns = row.int64(0) else {
                    throw DatasetError.malformedRow(file: csv, line: row.line, reason: "timestamp '\(row.string(0))' is not an integer (ns)")
                }
                listing.record(stream: name, timestamp: Timestamp(nanoseconds: ns), file: csv, line: row.line)
                let t = Timestamp(nanoseconds: ns)
                rows.addImage(at: t, rank: rank, stream: name, path: try DatasetPath.resolve(row.string(1), under: dataFolder, listedIn: csv, line: row.line), listedAs: row.string(1), in: csv, line: row.line) { path in
                    let image = try ImageDecoder.decodeGray8(path: path)
                    try ImageDecodingError.checkSize(path: path, width: image.width, height: image.height, calibration: calibration)
                    return AnyPacket(stream: name, timestamp: t, payload: CameraFrame(cameraID: name, image: image))
                }
            }
            noteIfEmpty(csv, rows: frames, "frames")
            rowCount += frames
        }
        let partners = StereoPartner.pairs(Dictionary(cams, uniquingKeysWith: { a, _ in a }))
        for (name, calibration) in cams {
            streams.append(StreamDescription(StreamKey<CameraFrame>(name), metadata: StreamMetadata(camera: calibration, stereo: partners[name])))
        }
        let imuCSV = mav0.appendingPathComponent("imu0/data.csv").path
        if fm.fileExists(atPath: imuCSV) {
            let imuYAML = mav0.appendingPathComponent("imu0/sensor.yaml").path
            let imu = fm.fileExists(atPath: imuYAML) ? try EuRoCSensorFile.loadIMU(path: imuYAML) : nil
            streams.append(StreamDescription(StreamKey<IMUSample>("imu0"), metadata: StreamMetadata(imu: imu)))
            let imuRank = cams.count
            var samples = 0
            try Self.rows(imuCSV, columns: 7) { row in
                samples += 1
                guard let ns = row.int64(0), let gx = row.double(1), let gy = row.double(2), let gz = row.double(3),
                      let ax = row.double(4), let ay = row.double(5), let az = row.double(6) else {
                    throw DatasetError.malformedRow(file: imuCSV, line: row.line, reason: "expected an integer timestamp (ns) and 6 finite numbers")
                }
                let sample = IMUSample(gyroscope: Vector3(gx, gy, gz), accelerometer: Vector3(ax, ay, az))
                listing.record(stream: "imu0", timestamp: Timestamp(nanoseconds: ns), file: imuCSV, line: row.line)
                rows.add(AnyPacket(stream: "imu0", timestamp: Timestamp(nanoseconds: ns), payload: sample), rank: imuRank)
            }
            noteIfEmpty(imuCSV, rows: samples, "samples")
            rowCount += samples
        }
        guard !streams.isEmpty else {
            throw DatasetError.notADataset(path: path, expected: "mav0/cam*/data.csv or mav0/imu0/data.csv")
        }
        if validateOrder { try listing.validate() }
        // Check every listed image once, up front: the count is known before the run starts.
        missingImages = try rows.dropMissingImages(strict: strict)
        let gtFile = try Self.groundTruthFile(root: URL(fileURLWithPath: path), mav0: mav0)
        groundTruth = try gtFile.map { try TrajectoryFile.read(path: $0, format: .euroc, requireIncreasingTimes: true) }
        if let gt = groundTruth, let gtFile {
            // Ground truth is also a stream (`groundtruth`, Pose T_WB), for analyzers that need poses.
            streams.declareGroundTruth()
            try rows.addGroundTruth(gt, file: gtFile, rank: cams.count + 1, listing: &listing)
        }
        // Every file listing nothing: a dataset with nothing to read, not a run of no packets.
        guard rowCount > 0 || groundTruth != nil else {
            throw DatasetError.notADataset(path: path, expected: "at least one row in mav0/cam*/data.csv or mav0/imu0/data.csv (" + notes.joined(separator: "; ") + ")")
        }
        self.notes = notes
        self.listing = listing
        self.rows = rows
        self.streams = streams
    }

    /// `file` relative to the dataset folder holding `mav0` (`mav0/imu0/data.csv`).
    static func relative(_ file: String, to mav0: URL) -> String {
        let root = mav0.deletingLastPathComponent().path + "/"
        return file.hasPrefix(root) ? String(file.dropFirst(root.count)) : file
    }

    /// Reads `data.csv` rows (comments and blank lines skipped) with exactly `columns` fields.
    static func rows(_ file: String, columns: Int, _ body: (DelimitedText.Row) throws -> Void) throws {
        guard let table = DelimitedText(path: file) else {
            throw DatasetError.notADataset(path: file, expected: "a readable CSV file")
        }
        try table.forEachRow(separatedBy: .comma) { row in
            guard row.count == columns else {
                throw DatasetError.malformedRow(file: file, line: row.line, reason: "expected \(columns) columns, found \(row.count)")
            }
            try body(row)
        }
    }

    /// A stream's calibration comes from its `mav0/NAME/sensor.yaml`.
    public func calibrationOrigin(of stream: String) -> String? {
        guard let m = streams.first(where: { $0.name == stream })?.metadata, m.camera != nil || m.imu != nil else { return nil }
        return "mav0/\(stream)/sensor.yaml"
    }

    /// The next packet; camera frames are deferred (decoded by whoever runs the work).
    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }

    /// `--groundtruth FILE`: `trajectory` becomes ``groundTruth`` and the ``DatasetStreams/groundTruth`` stream.
    public func replaceGroundTruth(with trajectory: Trajectory, file: String) throws {
        try rows.replaceGroundTruth(trajectory, file: file, streams: &streams, listing: &listing)
        groundTruth = trajectory
    }
}
