import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs

/// A ROS 1 bag as a dataset (EuRoC and TUM-VI publish theirs so). Topics become streams by
/// their first name component — `/cam0/image_raw` → `cam0`, `/imu0` → `imu0` — or as
/// `topicNames` says (`--topic /cam0/image_raw=left`):
///
/// | message | becomes |
/// |---|---|
/// | `sensor_msgs/Image` (mono8, mono16 scaled to 8 bits, rgb8, bgr8, rgba8, bgra8), `CompressedImage` (JPEG, PNG) | a camera stream (``CameraFrame``) |
/// | `sensor_msgs/CameraInfo` | the calibration of the stream of the image topics beside it (`/ns/camera_info` → the stream `/ns/image_raw` becomes, renamed or not); one beside no images, or images of several streams, is a note |
/// | `sensor_msgs/Imu` | an IMU stream |
/// | `geometry_msgs/PoseStamped`, `TransformStamped`, `nav_msgs/Odometry` | the ground truth (`T_WB`), when one topic has them; several become pose streams |
///
/// Other message types are skipped, counted in ``notes``. Each message is at its header's stamp
/// (the sensor's time; the bag's receive time when the stamp is zero). The bag is read through
/// its index once to list every message (chunks decompressed one at a time); images are
/// decoded when the bus asks for them.
public final class ROSBagSource: DatasetSource, DeferredPacketSource {
    public let formatName: String
    public private(set) var streams: [StreamDescription] = []
    public private(set) var listing = StreamListing()
    public private(set) var groundTruth: Trajectory?
    public let missingImages: [String: Int] = [:]
    /// What was skipped (unknown message types per topic, a second camera info).
    public private(set) var notes: [String] = []
    /// Stream names a converted folder keeps for itself (lower case).
    static var reservedStreamNames: Set<String> { ParallaxFolder.reservedStreamNames }
    private var rows = IndexedRows()

    /// The stream a topic becomes by convention: its first name component.
    public static func streamName(forTopic topic: String) -> String {
        String(topic.split(separator: "/").first ?? Substring(topic))
    }

    /// A ROS 1 bag (`.bag`).
    public convenience init(path: String, topicNames: [String: String] = [:], validateOrder: Bool = true,
                            maxImagePixels: Int = ImageSizeLimit.maxPixels) throws {
        try self.init(bag: try ROSBag1File(path: path), topicNames: topicNames, validateOrder: validateOrder, maxImagePixels: maxImagePixels)
    }

    /// The bag `bag` reads. An image message declaring more than `maxImagePixels` pixels
    /// (width × height) is refused naming the topic and time — when the bag is opened if its
    /// size is in the message's first bytes, else when it is read — before its image is allocated.
    public init(bag: any ROSBagReading, topicNames: [String: String] = [:], validateOrder: Bool = true,
                maxImagePixels: Int = ImageSizeLimit.maxPixels) throws {
        let path = bag.path
        formatName = bag.formatName
        let serialization = bag.serialization
        func imageName(_ topic: String) -> String { topicNames[topic] ?? Self.streamName(forTopic: topic) }
        // A camera's calibration follows its images, as ROS keeps them: `/ns/camera_info` goes to
        // the stream of the image topic(s) under `/ns/` (`/ns/image_raw`, `/ns/image_raw/compressed`),
        // renamed or not. None there, or images of several streams: it goes to no stream (a note).
        let imageTopics = bag.connections.values.filter { $0.type == ROSMessages.image || $0.type == ROSMessages.compressedImage }.map(\.topic)
        func calibrationStream(_ topic: String) -> String? {
            if let renamed = topicNames[topic] { return renamed }
            let namespace = topic.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/") + "/"
            let streams = Set(imageTopics.filter { $0.hasPrefix(namespace) }.map(imageName))
            return streams.count == 1 ? streams.first : nil
        }
        func name(_ c: ROSBag1File.Connection) -> String { imageName(c.topic) }
        // A rename of a topic the bag does not have is a typo, not a no-op.
        let topics = Set(bag.connections.values.map(\.topic))
        if let missing = topicNames.keys.sorted().first(where: { !topics.contains($0) }) {
            throw ROSBag1File.BagError(path: path, offset: nil, reason: "--topic \(missing): the bag has no such topic (it has \(topics.sorted().joined(separator: ", ")))")
        }
        // Which topics hold what.
        var skipped: [String: (type: String, count: Int)] = [:]
        let poseTopics = Set(bag.connections.values.filter { ROSMessages.poseTypes.contains($0.type) }.map(\.topic))
        var owner: [String: (topic: String, type: String)] = [:]
        for c in bag.connections.values.sorted(by: { $0.id < $1.id }) where ROSMessages.known.contains(c.type) && c.type != ROSMessages.cameraInfo {
            if poseTopics.count == 1, ROSMessages.poseTypes.contains(c.type) { continue }
            let kind = c.type == ROSMessages.compressedImage ? ROSMessages.image : c.type
            // A stream's name becomes a folder's when the bag is converted: one that could leave
            // the output folder ('..' from '/../image_raw') is refused before anything is read.
            do { try OutputPath.checkRelativeName(name(c), kind: "stream") } catch let error as OutputPath.RefusedError {
                throw ROSBag1File.BagError(path: path, offset: nil, reason: "topic '\(c.topic)' becomes stream '\(name(c))', which \(error.reason); "
                                           + "name it with --topic \(c.topic)=NAME")
            }
            // Names the folder layouts keep for themselves: a camera stream called 'groundtruth'
            // would be taken for the ground truth when converted, 'parallax.yaml' would be the
            // folder's own description.
            if !ROSMessages.poseTypes.contains(c.type), Self.reservedStreamNames.contains(name(c).lowercased()) {
                throw ROSBag1File.BagError(path: path, offset: nil, reason: "topic '\(c.topic)' becomes stream '\(name(c))', a name Parallax keeps for itself; "
                                           + "name it with --topic \(c.topic)=NAME")
            }
            // Topics compared byte for byte: Swift's String equality is Unicode-canonical, so `/é/imu`
            // written precomposed and decomposed would otherwise be merged into one stream.
            if let other = owner[name(c)], Array(other.topic.utf8) != Array(c.topic.utf8) {
                let alike = other.topic == c.topic ? " (they differ only in their Unicode form)" : ""
                throw ROSBag1File.BagError(path: path, offset: nil, reason: "topics \(other.topic) and \(c.topic) both become stream '\(name(c))'\(alike); name one with --topic \(c.topic)=NAME")
            }
            owner[name(c)] = (c.topic, kind)
        }
        var calibrations: [String: CameraCalibration] = [:]
        var calibrationTopics: [String: String] = [:]
        var unplaced: Set<String> = []
        var truth: [StampedPose] = []
        var order: [String] = []
        /// A message read as a stream's packet; `index` counts the bag's messages from 1, in file order.
        struct Row { var stream: String; var topic: String; var index: Int; var time: Timestamp; var ref: ROSBag1File.MessageRef; var type: String }
        var found: [Row] = []
        var index = 0
        for k in 0..<bag.chunkCount {
            for ref in try bag.messages(inChunk: k) {
                index += 1
                guard let c = bag.connections[ref.connection] else {
                    throw ROSBag1File.BagError(path: path, offset: nil, reason: "a message of connection \(ref.connection) in chunk \(k), which the index does not list")
                }
                guard ROSMessages.known.contains(c.type) else {
                    skipped[c.topic, default: (c.type, 0)].count += 1
                    continue
                }
                // The header's stamp is in the first bytes: an image is not copied to find it.
                // Messages decoded now (calibration, ground truth) are read whole.
                let decodedNow = c.type == ROSMessages.cameraInfo || (poseTopics.count == 1 && ROSMessages.poseTypes.contains(c.type))
                var head = ref
                if !decodedNow { head.range = ref.range.lowerBound..<min(ref.range.upperBound, ref.range.lowerBound + 512) }
                let data = try bag.data(of: head)
                let stamp = ROSMessages.stamp(data, serialization).flatMap { $0.nanoseconds > 0 ? $0 : nil } ?? ref.receiveTime
                func failed(_ error: any Error) -> ROSBag1File.BagError {
                    ROSBag1File.BagError(path: path, offset: nil, reason: "message \(index) on '\(c.topic)' (\(c.type)) at \(stamp.nanoseconds) ns: \(error)")
                }
                do {
                    // A raw image's size is in its first bytes: checked against the budget now.
                    if c.type == ROSMessages.image, let size = ROSMessages.imageSize(data, serialization),
                       case let .failure(refusal) = ImageSizeLimit.check(width: size.width, height: size.height, limit: maxImagePixels) {
                        throw ROSMessages.DecodeError(reason: "image \(refusal)")
                    }
                    switch c.type {
                    case ROSMessages.cameraInfo:
                        if let stream = calibrationStream(c.topic) {
                            if calibrations[stream] == nil {
                                calibrations[stream] = try ROSMessages.calibration(data, serialization)
                                calibrationTopics[stream] = c.topic
                            }
                        } else {
                            unplaced.insert(c.topic)
                        }
                    case _ where poseTopics.count == 1 && ROSMessages.poseTypes.contains(c.type):
                        truth.append(StampedPose(time: stamp.seconds, timestamp: stamp, pose: try ROSMessages.pose(data, serialization, type: c.type)))
                    default:
                        if !order.contains(name(c)) { order.append(name(c)) }
                        found.append(Row(stream: name(c), topic: c.topic, index: index, time: stamp, ref: ref, type: c.type))
                    }
                } catch {
                    throw failed(error)
                }
            }
        }
        // A bag without a message (no topic, or topics that never published) has nothing to
        // read: said here, naming the bag, as for any dataset with nothing in it.
        guard index > 0 else {
            let topicList = topics.sorted().joined(separator: ", ")
            throw ROSBag1File.BagError(path: path, offset: nil, reason: topics.isEmpty ? "the bag has no topics and no messages: nothing to read"
                                       : "the bag holds no messages (\(topics.count == 1 ? "its topic" : "its topics") \(topicList)"
                                       + " \(topics.count == 1 ? "has" : "have") none): nothing to read")
        }
        notes = bag.notes + skipped.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.count) \($0.value.type) message(s) skipped (a type Parallax does not read)" }
        // A calibration no image stream takes is said, not dropped in silence.
        for (stream, topic) in calibrationTopics.sorted(by: { $0.key < $1.key }) where owner[stream]?.type != ROSMessages.image {
            notes.append("\(topic): a camera calibration for stream '\(stream)', which holds no images: not used (name it as its image topic's stream with --topic \(topic)=NAME)")
        }
        for topic in unplaced.sorted() {
            notes.append("\(topic): a camera calibration beside no image topic of one stream (ROS keeps camera_info beside its images): not used "
                         + "(name the stream it belongs to with --topic \(topic)=NAME)")
        }
        // Streams in the order they first appear; their packets.
        for stream in order {
            guard let kind = owner[stream]?.type else { continue }
            switch kind {
            case ROSMessages.image: streams.append(StreamDescription(StreamKey<CameraFrame>(stream), metadata: StreamMetadata(camera: calibrations[stream])))
            case ROSMessages.imu: streams.append(StreamDescription(StreamKey<IMUSample>(stream)))
            default: streams.append(StreamDescription(StreamKey<Pose>(stream)))
            }
        }
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        for row in found {
            listing.record(stream: row.stream, timestamp: row.time, file: path, message: row.index, topic: row.topic)
            let r = rank[row.stream] ?? 0
            switch row.type {
            case ROSMessages.image, ROSMessages.compressedImage:
                let (stream, time, ref, type, calibration) = (row.stream, row.time, row.ref, row.type, calibrations[row.stream])
                let (topic, index) = (row.topic, row.index)
                rows.add(at: time, rank: r) {
                    let where_ = "\(path): \(stream) at \(time.nanoseconds) ns"
                    let frame: CameraFrame
                    do { frame = try ROSMessages.frame(try bag.data(of: ref), serialization, type: type, camera: stream, name: where_, maxPixels: maxImagePixels) } catch let error as ROSBag1File.BagError {
                        throw error
                    } catch {
                        throw ROSBag1File.BagError(path: path, offset: nil, reason: "message \(index) on '\(topic)' at \(time.nanoseconds) ns: \(error)")
                    }
                    try ImageDecodingError.checkSize(path: where_, width: frame.width, height: frame.height, calibration: calibration)
                    return AnyPacket(stream: stream, timestamp: time, payload: frame)
                }
            case ROSMessages.imu:
                let sample: IMUSample
                do { sample = try ROSMessages.imuSample(try bag.data(of: row.ref), serialization) } catch {
                    throw ROSBag1File.BagError(path: path, offset: nil, reason: "message \(row.index) on '\(row.topic)' at \(row.time.nanoseconds) ns: \(error)")
                }
                rows.add(AnyPacket(stream: row.stream, timestamp: row.time, payload: sample), rank: r)
            default:
                let pose: SE3
                do { pose = try ROSMessages.pose(try bag.data(of: row.ref), serialization, type: row.type) } catch {
                    throw ROSBag1File.BagError(path: path, offset: nil, reason: "message \(row.index) on '\(row.topic)' at \(row.time.nanoseconds) ns: \(error)")
                }
                rows.add(AnyPacket(stream: row.stream, timestamp: row.time, payload: Pose(worldFromBody: pose)), rank: r)
            }
        }
        if validateOrder { try listing.validate() }
        if !truth.isEmpty {
            let trajectory = Trajectory(poses: truth, name: poseTopics.first ?? "")
            streams.declareGroundTruth()
            try rows.addGroundTruth(trajectory, file: path, rank: order.count, listing: &listing)
            groundTruth = trajectory
        }
    }

    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }

    /// A camera's calibration comes from the bag's `sensor_msgs/CameraInfo` (its first message).
    public func calibrationOrigin(of stream: String) -> String? {
        streams.first { $0.name == stream }?.metadata.camera == nil ? nil : "the bag's CameraInfo"
    }
}

/// ROS 1 bags (`.bag`) as datasets.
public enum ROSBagFormat: DatasetFormat {
    public static let name = "rosbag"
    public static let expects = "a ROS 1 bag (.bag)"
    public static let readsTopics = true
    public static func recognizes(_ path: String) -> Bool {
        !isFolder(path) && (path as NSString).pathExtension.lowercased() == "bag"
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try ROSBagSource(path: path, topicNames: options.topicNames, validateOrder: options.validateOrder, maxImagePixels: options.maxImagePixels)
    }
}

/// ROS 2 bags: a folder with `metadata.yaml` (rosbag2) and one MCAP file.
public enum ROS2BagFormat: DatasetFormat {
    public static let name = "rosbag2"
    public static let expects = "a ROS 2 bag (a folder with metadata.yaml and an .mcap file)"
    public static let readsTopics = true
    /// A folder whose `metadata.yaml` is rosbag2's, or that holds a `metadata.yaml` beside a
    /// storage file (`.mcap`, `.db3`): a bag whose metadata is broken is then read as a bag, and
    /// refused naming `metadata.yaml` and the YAML error, not as "not a dataset".
    public static func recognizes(_ path: String) -> Bool {
        let folder = URL(fileURLWithPath: path)
        let metadata = folder.appendingPathComponent("metadata.yaml").path
        guard isFolder(path), FileManager.default.fileExists(atPath: metadata) else { return false }
        if FileContents.string(atPath: metadata)?.contains("rosbag2_bagfile_information") == true { return true }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return files.contains { ["mcap", "db3"].contains(($0 as NSString).pathExtension.lowercased()) }
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        let metadata = URL(fileURLWithPath: path).appendingPathComponent("metadata.yaml").path
        guard let text = FileContents.string(atPath: metadata) else {
            throw DatasetError.notADataset(path: metadata, expected: "a readable UTF-8 YAML file (rosbag2's metadata)")
        }
        let description = try YAMLDecoding.decode(ROS2BagMetadata.self, from: text, file: metadata)
        let file = try DatasetPath.resolve(description.file, under: path, listedIn: metadata, line: description.filesLine)
        return try ROSBagSource(bag: try MCAPFile(path: file), topicNames: options.topicNames, validateOrder: options.validateOrder,
                                maxImagePixels: options.maxImagePixels)
    }
}
