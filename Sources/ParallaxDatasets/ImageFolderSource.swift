import Foundation
import ParallaxCore

/// A folder of still images as one camera stream `cam0`: the files (PNG, JPEG, binary
/// PPM/PGM) in natural name order (`2.ppm` before `10.ppm`), frame k at k seconds (such
/// folders carry no times). For image collections and registration benchmarks such as
/// HPatches (`1.ppm … 6.ppm` with ground-truth homographies `H_1_k`, which this reader leaves
/// to the evaluation). Images are decoded only when the bus asks for them.
public final class ImageFolderSource: DatasetSource, DeferredPacketSource, GroundTruthReplacing {
    public let formatName = "image folder"
    public private(set) var listing: StreamListing
    public private(set) var streams = [StreamDescription(StreamKey<CameraFrame>(ImageFolderSource.stream))]
    /// None of its own; the file given to ``replaceGroundTruth(with:file:)``.
    public private(set) var groundTruth: Trajectory?
    public let missingImages: [String: Int] = [:]
    /// The stream's name.
    public static let stream = "cam0"
    /// Seconds between consecutive frames.
    public static let frameInterval = 1.0
    /// File extensions read as images (lower case).
    public static let extensions: Set<String> = ["png", "jpg", "jpeg", "ppm", "pgm"]

    /// The image files, in stream order (full paths).
    public let files: [String]
    private var rows = IndexedRows()

    /// Opens the folder at `path`; it must hold at least one image file.
    public init(path: String) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let images = names.filter { Self.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
        guard !images.isEmpty else {
            throw DatasetError.notADataset(path: path, expected: "a folder of images (png, jpg, ppm, pgm)")
        }
        files = images.map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
        var listing = StreamListing()
        for (k, path) in files.enumerated() {
            let t = Self.timestamp(ofFrame: k)
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

    /// The time of frame `k` (k seconds).
    public static func timestamp(ofFrame k: Int) -> Timestamp { Timestamp(seconds: Double(k) * frameInterval) }

    public func nextDeferred() throws -> DeferredPacket? { rows.next() }

    /// `--groundtruth FILE`: `trajectory` becomes ``groundTruth`` and the ``DatasetStreams/groundTruth`` stream.
    public func replaceGroundTruth(with trajectory: Trajectory, file: String) throws {
        if !streams.contains(where: { $0.name == DatasetStreams.groundTruth }) {
            streams.append(StreamDescription(StreamKey<Pose>(DatasetStreams.groundTruth)))
        }
        try rows.replaceGroundTruth(trajectory, file: file, rank: streams.count, listing: &listing)
        groundTruth = trajectory
    }
}
