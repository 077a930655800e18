import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxCodecs

/// A tracking benchmark sequence: numbered frames and one ground-truth box per frame, in OTB's
/// layout (`img/0001.jpg …` + `groundtruth_rect.txt`) or VOT's (`00000001.jpg …` or
/// `color/00000001.jpg …` + `groundtruth.txt`), played as the camera stream `cam0` and the
/// ground-truth box stream `object0/box` (``BoundingBox``, Parallax's pixel convention; no
/// packet where the object is absent).
///
/// Frame numbers come from the image names; ground-truth row k belongs to the k-th frame
/// number from the first image's. A row whose image does not exist is a missing frame: skipped
/// and counted, or with `strict` an error naming the ground-truth file and line. Frame n plays
/// at (n − first) / rate seconds: 30 Hz (both benchmarks' videos) unless `--image-rate` says
/// otherwise.
public final class TrackingSequenceSource: DatasetSource, DeferredPacketSource {
    public let formatName: String
    public private(set) var listing = StreamListing()
    /// `cam0` (with the camera's calibration when the folder holds a `sensor.yaml`, as
    /// `parallax simulate --scene object` writes it) and `object0/box`.
    public let streams: [StreamDescription]
    public let groundTruth: Trajectory? = nil
    public let missingImages: [String: Int]
    /// The streams' names.
    public static let cameraStream = "cam0", boxStream = "object0/box"
    /// The frame rate used when `--image-rate` is not given (Hz).
    public static let defaultRateHz = 30.0
    /// Each played frame's time and true box (``BoxTruthProviding``).
    public let boxTruth: [(timestamp: Timestamp, box: BoundingBox?)]
    private var rows = IndexedRows()

    /// Opens the sequence in `folder`: images in `imageFolder`, ground truth in `truthFile`
    /// with `convention`.
    public init(formatName: String, imageFolder: String, truthFile: String, convention: BoxTruthFile.Convention,
                rateHz: Double?, strict: Bool) throws {
        self.formatName = formatName
        let sensorFile = ((truthFile as NSString).deletingLastPathComponent as NSString).appendingPathComponent("sensor.yaml")
        let calibration = FileManager.default.fileExists(atPath: sensorFile) ? try EuRoCSensorFile.loadCamera(path: sensorFile) : nil
        streams = [StreamDescription(StreamKey<CameraFrame>(TrackingSequenceSource.cameraStream), metadata: StreamMetadata(camera: calibration)),
                   StreamDescription(StreamKey<BoundingBox>(TrackingSequenceSource.boxStream))]
        let rate = try DatasetError.requireRate(rateHz ?? Self.defaultRateHz, path: imageFolder)
        let truth = try BoxTruthFile.read(truthFile, convention: convention)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: imageFolder)) ?? [])
            .filter { ImageFolderSource.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
        var numbered: [(number: Int, name: String)] = []
        for name in names {
            let stem = (name as NSString).deletingPathExtension
            guard !stem.isEmpty, stem.allSatisfy({ $0 >= "0" && $0 <= "9" }), let n = Int(stem), n < 100_000_000 else {
                throw DatasetError.notADataset(path: (imageFolder as NSString).appendingPathComponent(name),
                                               expected: "a frame named by its number (0001.jpg), as \(formatName) names them")
            }
            numbered.append((n, name))
        }
        numbered.sort { $0.number < $1.number }
        for k in numbered.indices.dropFirst() where numbered[k].number == numbered[k - 1].number {
            throw DatasetError.notADataset(path: (imageFolder as NSString).appendingPathComponent(numbered[k].name),
                                           expected: "one image per frame number (\(numbered[k - 1].name) has the same number)")
        }
        guard let first = numbered.first else {
            throw DatasetError.notADataset(path: imageFolder, expected: "numbered frames (0001.jpg …)")
        }
        // Missing frames are named as the others are: same digits and extension.
        let firstStem = (first.name as NSString).deletingPathExtension, ext = (first.name as NSString).pathExtension
        func name(of number: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, firstStem.count - digits.count)) + digits + "." + ext
        }
        let folderName = (imageFolder as NSString).lastPathComponent
        // The frames the folder holds (listed above), and those the ground truth names too.
        let present = Set(numbered.map(\.number))
        var files = Dictionary(uniqueKeysWithValues: numbered.map { ($0.number, $0.name) })
        var listedIn: [Int: Int] = [:]
        for (k, row) in truth.enumerated() {
            let number = first.number + k
            listedIn[number] = row.line
            if files[number] == nil { files[number] = name(of: number) }
        }
        var listing = StreamListing()
        for number in files.keys.sorted() {
            guard let file = files[number] else { continue }
            let t = Timestamp(seconds: Double(number - first.number) / rate)
            let path = (imageFolder as NSString).appendingPathComponent(file)
            let stream = Self.cameraStream
            listing.record(stream: stream, timestamp: t, file: path, line: 1)
            rows.addImage(at: t, rank: 0, stream: stream, path: path, listedAs: "\(folderName)/\(file)", in: truthFile, line: listedIn[number] ?? 0) { path in
                AnyPacket(stream: stream, timestamp: t, payload: CameraFrame(cameraID: stream, image: try ImageDecoder.decode8Bit(path: path)))
            }
        }
        for (k, row) in truth.enumerated() {
            guard let box = row.box else { continue }
            let t = Timestamp(seconds: Double(k) / rate)
            rows.add(AnyPacket(stream: Self.boxStream, timestamp: t, payload: box), rank: 1)
            listing.record(stream: Self.boxStream, timestamp: t, file: truthFile, line: row.line)
        }
        missingImages = try rows.dropMissingImages(strict: strict)
        self.listing = listing
        boxTruth = truth.enumerated().compactMap { k, row in
            present.contains(first.number + k) ? (Timestamp(seconds: Double(k) / rate), row.box) : nil
        }
    }

    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }
}

/// OTB sequences: `img/` (numbered frames) and `groundtruth_rect.txt` (1-based `x,y,w,h`).
public enum OTBFormat: DatasetFormat {
    public static let name = "otb"
    public static let expects = "an OTB tracking sequence (img/, groundtruth_rect.txt)"
    public static func recognizes(_ path: String) -> Bool {
        isFolder(path) && FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("groundtruth_rect.txt"))
            && isFolder((path as NSString).appendingPathComponent("img"))
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try TrackingSequenceSource(formatName: "OTB", imageFolder: (path as NSString).appendingPathComponent("img"),
                                   truthFile: (path as NSString).appendingPathComponent("groundtruth_rect.txt"), convention: .otb,
                                   rateHz: options.imageRateHz, strict: options.strict)
    }
}

/// VOT sequences: `groundtruth.txt` (0-based rectangles or 4-point polygons) beside numbered
/// frames, or with them in `color/`.
public enum VOTFormat: DatasetFormat {
    public static let name = "vot"
    public static let expects = "a VOT tracking sequence (groundtruth.txt beside numbered frames or color/)"
    public static func recognizes(_ path: String) -> Bool {
        isFolder(path) && FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("groundtruth.txt"))
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        let color = (path as NSString).appendingPathComponent("color")
        return try TrackingSequenceSource(formatName: "VOT", imageFolder: isFolder(color) ? color : path,
                                          truthFile: (path as NSString).appendingPathComponent("groundtruth.txt"), convention: .vot,
                                          rateHz: options.imageRateHz, strict: options.strict)
    }
}

/// A dataset that knows where its tracked object truly is in each frame.
public protocol BoxTruthProviding {
    /// The frames the dataset plays that have a ground-truth row, in time order: the frame's
    /// time and the object's box, `nil` where the object is absent (hidden or out of view).
    var boxTruth: [(timestamp: Timestamp, box: BoundingBox?)] { get }
}

extension TrackingSequenceSource: BoxTruthProviding {}
