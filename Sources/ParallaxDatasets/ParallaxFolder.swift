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
    /// Each stream's `calibration:` file as `parallax.yaml` names it.
    private var calibrationFiles: [String: String] = [:]

    /// Opens the folder at `path` (must hold `parallax.yaml`); camera streams kept as video
    /// decode to gray with `grayVideo`, else as their `pixels:` says (RGB by default).
    public init(path: String, strict: Bool = false, validateOrder: Bool = true, grayVideo: Bool = false, videoSupport: VideoSupport? = nil) throws {
        let root = URL(fileURLWithPath: path)
        let yamlPath = root.appendingPathComponent("parallax.yaml").path
        let text: String
        switch FileContents.description(atPath: yamlPath) {
        case let .success(t): text = t
        case .failure(.unreadable): throw DatasetError.notADataset(path: path, expected: "a Parallax folder with parallax.yaml")
        case let .failure(problem): throw DatasetError.notADataset(path: yamlPath, expected: "a parallax.yaml (\(problem))")
        }
        let description = try YAMLDecoding.decode(ParallaxFolderDescription.self, from: text, file: yamlPath)
        calibrationFiles = Dictionary(description.streams.compactMap { e in e.calibration.map { (e.name, $0) } }, uniquingKeysWith: { a, _ in a })
        var reading = ParallaxFolderReading(root: root, yamlPath: yamlPath, grayVideo: grayVideo, videoSupport: videoSupport)
        for (rank, entry) in description.streams.enumerated() { try reading.read(entry, rank: rank) }
        var streams = reading.streams, rows = reading.rows, listing = reading.listing
        let faces = reading.faces, cameras = reading.cameras
        faceTruth = faces
        if validateOrder { try listing.validate() }
        self.missingImages = try rows.dropMissingImages(strict: strict)
        let partners = StereoPartner.pairs(cameras)
        for i in streams.indices where partners[streams[i].name] != nil { streams[i].metadata.stereo = partners[streams[i].name] }
        let gt = try description.groundTruth.map { try DatasetPath.resolve($0, under: root.path, listedIn: yamlPath, line: description.groundTruthLine) }
        groundTruth = try gt.map { try TrajectoryFile.read(path: $0, format: .euroc, requireIncreasingTimes: true) }
        if let trajectory = groundTruth {
            streams.declareGroundTruth()
            try rows.addGroundTruth(trajectory, file: gt ?? "", rank: description.streams.count, listing: &listing)
        }
        self.streams = streams
        self.listing = listing
        self.indexed = rows
    }

    public func nextDeferred() throws -> DeferredPacket? { try indexed.next() }

    /// A stream's calibration comes from the `sensor.yaml` its `calibration:` names.
    public func calibrationOrigin(of stream: String) -> String? { calibrationFiles[stream].map { "\($0) (parallax.yaml calibration:)" } }

    /// `--groundtruth FILE`: `trajectory` becomes ``groundTruth`` and the ``DatasetStreams/groundTruth`` stream.
    public func replaceGroundTruth(with trajectory: Trajectory, file: String) throws {
        try indexed.replaceGroundTruth(trajectory, file: file, streams: &streams, listing: &listing)
        groundTruth = trajectory
    }
}
