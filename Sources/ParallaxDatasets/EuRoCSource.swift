import Foundation
import ParallaxCore
import ParallaxGeometry
import ParallaxMath

/// Why a dataset folder could not be read. Every case names the file (and line).
public enum DatasetError: Error, Equatable, Sendable, CustomStringConvertible {
    case notADataset(path: String, expected: String)
    case malformedRow(file: String, line: Int, reason: String)
    case missingImage(file: String, line: Int, image: String)

    public var description: String {
        switch self {
        case let .notADataset(path, expected): return "\(path) is not a dataset: expected \(expected)"
        case let .malformedRow(file, line, reason): return "\(file):\(line): \(reason)"
        case let .missingImage(file, line, image): return "\(file):\(line): image '\(image)' does not exist"
        }
    }
}

/// Streams an EuRoC/ASL folder (`mav0/cam*/`, `mav0/imu0/`) lazily: CSV rows are parsed up front
/// (small), images are decoded one at a time as the bus asks for them.
///
/// Streams: `cam0`, `cam1`, … (``CameraFrame``, with calibration from `sensor.yaml`) and
/// `imu0` (``IMUSample``). Rows whose image file is missing are skipped and counted
/// (``missingImages``) unless `strict`.
public final class EuRoCSource: PacketSource {
    public let streams: [StreamDescription]
    /// Image rows listed in `data.csv` whose file does not exist, per camera.
    public private(set) var missingImages: [String: Int] = [:]

    private enum Item { case frame(camera: Int, path: String, csv: String, line: Int), imu(IMUSample) }
    private var items: [(Timestamp, Int, Item)] = []   // (time, stream rank, item), merged
    private var index = 0
    private let cameras: [(name: String, calibration: CameraCalibration)]
    private let strict: Bool

    /// Opens `path` (the folder holding `mav0`, or `mav0` itself).
    public init(path: String, strict: Bool = false) throws {
        let fm = FileManager.default
        var mav0 = URL(fileURLWithPath: path)
        if mav0.lastPathComponent != "mav0" { mav0.appendPathComponent("mav0") }
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: mav0.path, isDirectory: &isDir), isDir.boolValue else {
            throw DatasetError.notADataset(path: path, expected: "an EuRoC/ASL folder with mav0/cam0/data.csv and mav0/imu0/data.csv")
        }
        self.strict = strict
        let entries = (try? fm.contentsOfDirectory(atPath: mav0.path))?.sorted() ?? []
        var cams: [(String, CameraCalibration)] = []
        var streams: [StreamDescription] = []
        var rows: [(Timestamp, Int, Item)] = []
        for name in entries where name.hasPrefix("cam") && fm.fileExists(atPath: mav0.appendingPathComponent(name + "/data.csv").path) {
            let folder = mav0.appendingPathComponent(name)
            let calibration = try EuRoCSensorFile.loadCamera(path: folder.appendingPathComponent("sensor.yaml").path)
            let rank = cams.count
            cams.append((name, calibration))
            streams.append(StreamDescription(StreamKey<CameraFrame>(name)))
            let csv = folder.appendingPathComponent("data.csv").path
            let dataFolder = folder.appendingPathComponent("data").path + "/"
            try Self.rows(csv, columns: 2) { row in
                guard let ns = row.int64(0) else {
                    throw DatasetError.malformedRow(file: csv, line: row.line, reason: "timestamp '\(row.string(0))' is not an integer (ns)")
                }
                rows.append((Timestamp(nanoseconds: ns), rank, .frame(camera: rank, path: dataFolder + row.string(1), csv: csv, line: row.line)))
            }
        }
        let imuCSV = mav0.appendingPathComponent("imu0/data.csv").path
        if fm.fileExists(atPath: imuCSV) {
            streams.append(StreamDescription(StreamKey<IMUSample>("imu0")))
            let imuRank = cams.count
            try Self.rows(imuCSV, columns: 7) { row in
                guard let ns = row.int64(0), let gx = row.double(1), let gy = row.double(2), let gz = row.double(3),
                      let ax = row.double(4), let ay = row.double(5), let az = row.double(6) else {
                    throw DatasetError.malformedRow(file: imuCSV, line: row.line, reason: "expected an integer timestamp (ns) and 6 finite numbers")
                }
                let sample = IMUSample(gyroscope: Vector3(gx, gy, gz), accelerometer: Vector3(ax, ay, az))
                rows.append((Timestamp(nanoseconds: ns), imuRank, .imu(sample)))
            }
        }
        guard !streams.isEmpty else {
            throw DatasetError.notADataset(path: path, expected: "mav0/cam*/data.csv or mav0/imu0/data.csv")
        }
        // Stable merge by time, then stream rank; per-stream order is kept (the bus checks it).
        items = rows.enumerated().sorted { a, b in
            (a.element.0, a.element.1, a.offset) < (b.element.0, b.element.1, b.offset)
        }.map(\.element)
        self.cameras = cams
        self.streams = streams
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

    public func next() throws -> AnyPacket? {
        while index < items.count {
            let (t, _, item) = items[index]
            index += 1
            switch item {
            case let .imu(sample):
                return AnyPacket(stream: "imu0", timestamp: t, payload: sample)
            case let .frame(camera, path, csv, line):
                let (name, calibration) = cameras[camera]
                guard FileManager.default.fileExists(atPath: path) else {
                    if strict { throw DatasetError.missingImage(file: csv, line: line, image: URL(fileURLWithPath: path).lastPathComponent) }
                    missingImages[name, default: 0] += 1
                    continue
                }
                let image = try ImageDecoder.decodeGray8(path: path)
                return AnyPacket(stream: name, timestamp: t, payload: CameraFrame(cameraID: name, image: image, calibration: calibration))
            }
        }
        return nil
    }
}
