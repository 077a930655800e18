import Foundation
import Parallax
import ParallaxApp
import ParallaxCLI
import ParallaxFetch

/// The fuzz targets (`scripts/fuzz`, the `Fuzz/` package): each takes libFuzzer's bytes as the contents of one or more files a user
/// could hand Parallax and runs the real reader on them. Errors are the expected outcome for
/// bad input; a crash, a trap, a hang or a runaway allocation is a finding. Here, not in the
/// fuzz executable, so that `swift test` replays the seeds and every saved crash through the
/// same code (FuzzRegressionTests).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Trajectory files (TUM, EuRoC CSV, KITTI; format detected as for `parallax eval`).
    case trajectory
    /// An EuRoC/ASL folder: cam0/data.csv, imu0/data.csv and the ground-truth CSV (parts split
    /// at NUL bytes), read and replayed.
    case euroc
    /// A TUM RGB-D folder: rgb.txt, depth.txt, accelerometer.txt, groundtruth.txt.
    case tum
    /// A Parallax folder: parallax.yaml and one stream's data.csv.
    case parallaxFolder = "parallax-folder"
    /// Kalibr/EuRoC sensor.yaml (camera and IMU).
    case sensorYAML = "sensor-yaml"
    /// Chains: a one-line pipeline and a YAML chain, wired to a stereo-inertial dataset's streams
    /// (option values and ranges checked, analyzers made).
    case chain
    /// Image and depth headers and bodies: PNG, JPEG, PNM (chosen by content, as for every
    /// camera and depth image), PFM and Middlebury .flo.
    case image
    /// HPatches homography files.
    case homography
    /// Bench suites (`parallax bench SUITE`): the YAML, then every run's one-line chain parsed
    /// and wired to a stereo-inertial dataset's streams, as the bench does before it runs.
    case benchSuite = "bench-suite"
    /// Tracking ground truth: OTB's groundtruth_rect.txt and VOT's groundtruth.txt (rectangles
    /// and polygons, any separator).
    case boxTruth = "box-truth"
    /// Point-cloud PLY files (binary little-endian and ASCII), as `PLYFile.read` takes them.
    case ply
    /// MATLAB v5 MAT-files (plain and zlib-compressed elements), as the AFLW2000-3D reader takes
    /// them: every variable read, then `Pose_Para` and `pt3d_68` asked for.
    case mat
    /// iBUG `.pts` landmark files (300-W, Menpo).
    case pts
    /// Live Link Face CSV takes (ARKit face tracking), read and replayed.
    case livelink
    /// Video files through FFmpeg (`VideoFileSource`): opened, listed, every frame decoded, as RGB
    /// and as gray.
    case video
    /// ROS bags (`ROSBagSource`): a ROS 1 bag (index, chunks none/bz2/lz4) or a ROS 2 bag's MCAP
    /// file (chunks none/zstd/lz4, CDR), every message decoded.
    case rosbag
    /// A shard's `shard.json` (`parallax bench merge` reads it): decoded, checked, every case rebuilt.
    case shardFile = "shard-file"
    /// A dataset catalog (`parallax datasets|fetch --catalog FILE`).
    case datasetCatalog = "dataset-catalog"
    /// A world map file (`vio map=FILE`): decoded, and when it is a map, its points matched
    /// against descriptors of its own (the relocalizer's index built from it).
    case worldMap = "world-map"
    /// MCAP chunk decompression: byte 0 picks the compression (zstd, lz4, none), bytes 1–4 the
    /// declared uncompressed size (u32), the rest are the chunk's compressed records; wrapped in
    /// an MCAP file of that one chunk, opened (the limit checked, the chunk decompressed, its
    /// channels read) and every message's bytes read.
    case mcapChunk = "mcap-chunk"

    /// Scratch folders in memory, one per process and target (targets may run concurrently, as
    /// the tests do).
    static let scratchRoot: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let url = URL(fileURLWithPath: base).appendingPathComponent("parallax-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// `data` split at NUL bytes into `count` parts (missing parts are empty).
    static func parts(_ data: Data, _ count: Int) -> [Data] {
        var parts = data.split(separator: 0, maxSplits: count - 1, omittingEmptySubsequences: false).map { Data($0) }
        while parts.count < count { parts.append(Data()) }
        return parts
    }

    /// This target's scratch folder.
    var scratch: URL { Self.scratchRoot.appendingPathComponent(rawValue) }

    /// Removes this target's scratch folder (and the process's, once empty).
    public func removeScratch() {
        try? FileManager.default.removeItem(at: scratch)
        rmdir(Self.scratchRoot.path)
    }

    /// Writes `contents` at `relative` under the scratch folder and returns its path.
    @discardableResult
    func put(_ contents: Data, _ relative: String) -> String {
        let url = scratch.appendingPathComponent(relative)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? contents.write(to: url)
        return url.path
    }

    /// An MCAP file (magic, one chunk record) holding `records` compressed as `compression` and
    /// declaring `uncompressed` bytes.
    static func mcap(chunk records: ArraySlice<UInt8>, compression: String, uncompressed: UInt64) -> Data {
        func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        var body = le(UInt64(0)) + le(UInt64(0)) + le(uncompressed) + le(UInt32(0))
        body += le(UInt32(compression.utf8.count)) + Array(compression.utf8)
        body += le(UInt64(records.count))
        body += records
        var file: [UInt8] = [0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A, 0x06]
        file += le(UInt64(body.count))
        file += body
        return Data(file)
    }

    /// Reads every packet a source gives (images that fail to decode end the replay).
    static func drain(_ source: any PacketSource) {
        var n = 0
        while n < 100_000, let p = try? source.next() { _ = p.timestamp; n += 1 }
    }

    static let cameraYAML = Data("""
        sensor_type: camera
        T_BS:
          cols: 4
          rows: 4
          data: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
        rate_hz: 20
        resolution: [752, 480]
        camera_model: pinhole
        intrinsics: [458.654, 457.296, 367.215, 248.375]
        distortion_model: radial-tangential
        distortion_coefficients: [-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05]

        """.utf8)

    /// Runs the target on one input; returns whether the reader accepted it (errors are fine
    /// for fuzzed input, but every seed must be accepted).
    @discardableResult
    public func run(_ data: Data) -> Bool {
        try? FileManager.default.removeItem(at: scratch)
        switch self {
        case .trajectory:
            return ["t.txt", "t.csv"].map { (try? TrajectoryFile.read(path: put(data, $0))) != nil }.contains(true)
        case .euroc:
            let p = Self.parts(data, 3)
            put(Self.cameraYAML, "mav0/cam0/sensor.yaml")
            put(p[0], "mav0/cam0/data.csv")
            put(p[1], "mav0/imu0/data.csv")
            put(p[2], "mav0/state_groundtruth_estimate0/data.csv")
            guard let source = try? EuRoCSource(path: scratch.path) else { return false }
            Self.drain(source)
            return true
        case .tum:
            let p = Self.parts(data, 4)
            for (part, name) in zip(p, ["rgb.txt", "depth.txt", "accelerometer.txt", "groundtruth.txt"]) { put(part, name) }
            guard let source = try? TUMRGBDSource(path: scratch.path) else { return false }
            Self.drain(source)
            return true
        case .parallaxFolder:
            let p = Self.parts(data, 2)
            put(p[0], "parallax.yaml")
            put(p[1], "s/data.csv")
            put(Self.cameraYAML, "s/sensor.yaml")
            guard let source = try? ParallaxFolderSource(path: scratch.path) else { return false }
            Self.drain(source)
            return true
        case .sensorYAML:
            let path = put(data, "sensor.yaml")
            let camera = (try? EuRoCSensorFile.loadCamera(path: path)) != nil
            let imu = (try? EuRoCSensorFile.loadIMU(path: path)) != nil
            return camera || imu
        case .chain:
            let text = String(decoding: data, as: UTF8.self)
            var accepted = false
            for chain in [try? Chain.parse(pipeline: text), try? Chain.parse(yaml: text, file: "chain.yaml")] {
                guard let chain else { continue }
                if (try? chain.instantiate(registry: BuiltinAnalyzers.registry, sourceStreams: Self.streams)) != nil { accepted = true }
            }
            return accepted
        case .image:
            let path = put(data, "image")
            let image = (try? ImageDecoder.decode(path: path)) != nil
            let pfm = (try? DenseFiles.readPFM(path: path)) != nil
            let flo = (try? DenseFiles.readFlo(path: path)) != nil
            return image || pfm || flo
        case .homography:
            return (try? HomographyFile.read(path: put(data, "H_1_2"))) != nil
        case .boxTruth:
            let path = put(data, "groundtruth_rect.txt")
            let otb = (try? BoxTruthFile.read(path, convention: .otb)) != nil
            let vot = (try? BoxTruthFile.read(path, convention: .vot)) != nil
            return otb || vot
        case .ply:
            return (try? PLYFile.read(path: put(data, "cloud.ply"))) != nil
        case .video:
            // Both deliveries: RGB goes through swscale, gray takes the luma plane when it can.
            let path = put(data, "clip.avi")
            var accepted = false
            for pixels in VideoFile.Pixels.allCases {
                guard let source = try? VideoFileSource(path: path, pixels: pixels) else { continue }
                while (try? source.next()) != nil {}
                accepted = true
            }
            return accepted
        case .rosbag:
            let source: ROSBagSource?
            if data.starts(with: [0x89, 0x4D, 0x43, 0x41, 0x50]) {
                source = (try? MCAPFile(path: put(data, "data.mcap"))).flatMap { try? ROSBagSource(bag: $0) }
            } else {
                source = try? ROSBagSource(path: put(data, "data.bag"))
            }
            guard let source else { return false }
            while (try? source.next()) != nil {}
            return true
        case .livelink:
            guard let source = try? LiveLinkFaceSource(path: put(data, "take.csv")) else { return false }
            while (try? source.next()) != nil {}
            return true
        case .pts:
            return (try? PTSFaceFolderSource.readPTS(put(data, "face.pts"))) != nil
        case .mat:
            guard let file = try? MATFile(path: put(data, "image00001.mat")) else { return false }
            _ = try? file.variable("Pose_Para")
            _ = try? file.matrix("pt3d_68", rows: 3, columns: 68)
            return true
        case .shardFile:
            return (try? BenchShardFileFuzzing.read(folder: URL(fileURLWithPath: put(data, "shard/shard.json")).deletingLastPathComponent())) != nil
        case .datasetCatalog:
            return (try? DatasetCatalog(yaml: String(decoding: data, as: UTF8.self), file: "catalog.yaml")) != nil
        case .mcapChunk:
            guard data.count >= 5 else { return false }
            let bytes = [UInt8](data)
            let compression = ["zstd", "lz4", ""][Int(bytes[0]) % 3]
            let declared = UInt64(bytes[1]) | UInt64(bytes[2]) << 8 | UInt64(bytes[3]) << 16 | UInt64(bytes[4]) << 24
            guard let file = try? MCAPFile(path: put(Self.mcap(chunk: bytes[5...], compression: compression, uncompressed: declared), "chunk.mcap")) else { return false }
            for k in 0..<file.chunkCount {
                for message in (try? file.messages(inChunk: k)) ?? [] { _ = try? file.data(of: message) }
            }
            return true
        case .worldMap:
            guard let map = try? WorldMapFile.decode([UInt8](data), path: "map.pxmap") else { return false }
            let localizer = MapLocalizer(map: map)
            _ = localizer.match(map.points.prefix(20).map { $0.descriptors.first })
            return true
        case .benchSuite:
            guard let suite = try? BenchSuite.load(put(data, "suite.yaml")) else { return false }
            for run in suite.runs where !run.chain.hasSuffix(".yaml") && !run.chain.hasSuffix(".yml") {
                _ = try? Chain.parse(pipeline: run.chain).instantiate(registry: BuiltinAnalyzers.registry, sourceStreams: Self.streams)
            }
            return true
        }
    }

    /// A stereo-inertial dataset's streams, with calibration, for wiring chains.
    static let streams: [StreamDescription] = {
        let model = CameraModel(width: 752, height: 480, intrinsics: PinholeIntrinsics(fx: 458, fy: 457, cx: 367, cy: 248))
        let calibration = CameraCalibration(model: model)
        let imu = IMUCalibration(rateHz: 200, noise: IMUNoiseModel(gyroscopeNoiseDensity: 1.7e-4, gyroscopeRandomWalk: 1.9e-5,
                                                                    accelerometerNoiseDensity: 2e-3, accelerometerRandomWalk: 3e-3))
        return [StreamDescription(StreamKey<CameraFrame>("cam0"), metadata: StreamMetadata(camera: calibration)),
                StreamDescription(StreamKey<CameraFrame>("cam1"), metadata: StreamMetadata(camera: calibration)),
                StreamDescription(StreamKey<IMUSample>("imu0"), metadata: StreamMetadata(imu: imu)),
                StreamDescription(StreamKey<Pose>("groundtruth"))]
    }()
}

