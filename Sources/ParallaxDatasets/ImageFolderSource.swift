import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
/// A folder of still images as one camera stream `cam0`, for image collections, registration
/// benchmarks such as HPatches (`1.ppm … 6.ppm` with ground-truth homographies `H_1_k`, which
/// this reader leaves to the evaluation) and frames exported from a recording.
///
/// Times: when every file name (without extension) is a time — integer nanoseconds of at least
/// 16 digits (`1403715273262142976.png`, EuRoC's naming) or decimal seconds
/// (`1341847980.722988.png`, TUM's) — frames are at those times, in time order. Otherwise the
/// files play in natural name order (`2.ppm` before `10.ppm`), frame k at k / rate seconds
/// (``DatasetOptions/imageRateHz``: 1 Hz unless `--image-rate` says otherwise). Images are
/// decoded only when the bus asks for them.
public final class ImageFolderSource: DatasetSource, DeferredPacketSource, GroundTruthReplacing {
    public let formatName = "image folder"
    public private(set) var listing: StreamListing
    public private(set) var streams = [StreamDescription(StreamKey<CameraFrame>(ImageFolderSource.stream))]
    /// None of its own; the file given to ``replaceGroundTruth(with:file:)``.
    public private(set) var groundTruth: Trajectory?
    public let missingImages: [String: Int] = [:]
    /// The stream's name.
    public static let stream = "cam0"
    /// File extensions read as images (lower case).
    public static let extensions: Set<String> = ["png", "jpg", "jpeg", "ppm", "pgm"]

    /// Where the frames' times come from.
    public enum Timing: Equatable, Sendable {
        /// File names are integer nanoseconds.
        case namesInNanoseconds
        /// File names are decimal seconds.
        case namesInSeconds
        /// Frame k at k / rate seconds (Hz).
        case rate(Double)
    }

    /// The image files, in stream order (full paths).
    public let files: [String]
    /// Each file's time, in stream order (increasing).
    public let times: [Timestamp]
    /// How ``times`` were found.
    public let timing: Timing
    private var rows = IndexedRows()

    /// Opens the folder at `path`; it must hold at least one image file. `rateHz`: frames per
    /// second when the names are not times (positive and finite).
    public init(path: String, rateHz: Double = 1) throws {
        let rateHz = try DatasetError.requireRate(rateHz, path: path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        var images = names.filter { Self.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
        guard !images.isEmpty else {
            throw DatasetError.notADataset(path: path, expected: "a folder of images (png, jpg, ppm, pgm)")
        }
        var times: [Timestamp]
        if let (nameTiming, named) = Self.timesFromNames(images) {
            timing = nameTiming
            let order = named.indices.sorted { named[$0] < named[$1] }
            images = order.map { images[$0] }
            times = order.map { named[$0] }
            for k in times.indices.dropFirst() where times[k] == times[k - 1] {
                throw DatasetError.malformedRow(file: URL(fileURLWithPath: path).appendingPathComponent(images[k]).path, line: 1,
                                                reason: "the file names are times, and \(images[k - 1]) names the same time")
            }
        } else {
            timing = .rate(rateHz)
            times = images.indices.map { Timestamp(seconds: Double($0) / rateHz) }
        }
        self.times = times
        files = images.map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
        var listing = StreamListing()
        for (k, path) in files.enumerated() {
            let t = times[k]
            listing.record(stream: Self.stream, timestamp: t, file: path, line: 1)
            rows.add(at: t, rank: 0) {
                AnyPacket(stream: Self.stream, timestamp: t, payload: CameraFrame(cameraID: Self.stream, image: try ImageDecoder.decode8Bit(path: path)))
            }
        }
        self.listing = listing
    }

    /// Whether `path` holds at least one image file (the reader's detection rule).
    public static func looksLikeImageFolder(_ path: String) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).contains {
            extensions.contains(($0 as NSString).pathExtension.lowercased())
        }
    }

    /// The file at time `t`, if a frame is there.
    public func file(at t: Timestamp) -> String? {
        var lo = 0, hi = times.count
        while lo < hi { let mid = (lo + hi) / 2; if times[mid] < t { lo = mid + 1 } else { hi = mid } }
        return lo < times.count && times[lo] == t ? files[lo] : nil
    }

    private static func isDigit(_ c: Character) -> Bool { c >= "0" && c <= "9" }

    /// The times the names give, when every name is one (see the type's documentation).
    static func timesFromNames(_ names: [String]) -> (Timing, [Timestamp])? {
        let stems = names.map { ($0 as NSString).deletingPathExtension }
        if stems.allSatisfy({ $0.count >= 16 && $0.count <= 19 && $0.allSatisfy(Self.isDigit) }),
           case let ns = stems.compactMap({ Int64($0) }), ns.count == stems.count {
            return (.namesInNanoseconds, ns.map { Timestamp(nanoseconds: $0) })
        }
        let decimal = stems.compactMap { stem -> Timestamp? in
            let parts = stem.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts.allSatisfy({ $0.allSatisfy(Self.isDigit) }),
                  let ns = Timestamp.nanoseconds(decimalSeconds: stem.utf8) else { return nil }
            return Timestamp(nanoseconds: ns)
        }
        return decimal.count == stems.count ? (.namesInSeconds, decimal) : nil
    }

    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }

    /// `--groundtruth FILE`: `trajectory` becomes ``groundTruth`` and the ``DatasetStreams/groundTruth`` stream.
    public func replaceGroundTruth(with trajectory: Trajectory, file: String) throws {
        try rows.replaceGroundTruth(trajectory, file: file, streams: &streams, listing: &listing)
        groundTruth = trajectory
    }
}
