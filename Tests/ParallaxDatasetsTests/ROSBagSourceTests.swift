import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles
@testable import ParallaxDatasets
import ParallaxOutputs

/// ROS 1 bags written by the Python rosbags package (`scripts/reference/to-rosbag fixtures`):
/// the same messages uncompressed, bz2 and lz4 give the same packets, each decoded exactly as
/// written; damaged bags are refused naming the file and the byte.
@Suite struct ROSBagSourceTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/rosbag")
    static func bag(_ name: String) -> String { folder.appendingPathComponent(name).path }
    static let t0: Int64 = 1_403_715_273_262_142_976

    static func packets(_ source: any DatasetSource) throws -> [AnyPacket] {
        var out: [AnyPacket] = []
        while let p = try source.next() { out.append(p) }
        return out
    }

    /// ROS 1 (packed) and ROS 2 (CDR in MCAP: uncompressed, zstd and lz4 chunks) bags of the
    /// same messages.
    @Test(arguments: ["tiny-none.bag", "tiny-bz2.bag", "tiny-lz4.bag", "tiny2-none", "tiny2-zstd", "tiny2-lz4"])
    func messagesDecodeAsWritten(_ name: String) throws {
        let source = try DatasetFolder.open(Self.bag(name))
        #expect(source.formatName == (name.hasSuffix(".bag") ? "ROS 1 bag" : "ROS 2 bag (MCAP)"))
        #expect(source.streams.map(\.name) == ["imu0", "cam0", DatasetStreams.groundTruth] || source.streams.map(\.name) == ["cam0", "imu0", DatasetStreams.groundTruth])
        let camera = try #require(source.streams.first { $0.name == "cam0" }?.metadata.camera)
        #expect(camera.model == CameraModel(width: 16, height: 12, intrinsics: PinholeIntrinsics(fx: 20.5, fy: 20.25, cx: 7.5, cy: 5.5),
                                            distortion: .radialTangential(k1: 0.01, k2: -0.002, p1: 0.0003, p2: -0.0004)))
        #expect(source.notes == ["/chatter: 1 std_msgs/String message(s) skipped (a type Parallax does not read)"])
        let all = try Self.packets(source)
        let frames = all.filter { $0.stream == "cam0" }
        #expect(frames.map(\.timestamp.nanoseconds) == (0..<3).map { Self.t0 + Int64($0) * 50_000_000 })
        for (k, p) in frames.enumerated() {
            let image = try #require(p.payload as? CameraFrame).image
            #expect(image.width == 16 && image.height == 12 && image.channels == 1)
            var expected: [UInt8] = []
            for y in 0..<12 { for x in 0..<16 { expected.append(UInt8((x + 2 * y + 40 * k) % 256)) } }
            #expect(image.samples == expected)
        }
        let imu = all.filter { $0.stream == "imu0" }
        #expect(imu.count == 10)
        for (k, p) in imu.enumerated() {
            let s = try #require(p.payload as? IMUSample)
            #expect(p.timestamp.nanoseconds == Self.t0 + Int64(k) * 10_000_000)
            #expect(s.gyroscope == Vector3(0.01 * Double(k), -0.02 * Double(k), 0.03) && s.accelerometer == Vector3(9.81, 0.1 * Double(k), -0.1))
        }
        let truth = try #require(source.groundTruth)
        #expect(truth.poses.count == 3 && truth.poses[2].pose.translation == Vector3(0.2, -0.2, 1.5))
        #expect(abs(truth.poses[0].pose.rotation.angle - .pi / 4) < 1e-12)
    }

    /// bgr8 frames become RGB.
    @Test func colourImagesAreRGB() throws {
        let source = try DatasetFolder.open(Self.bag("tiny-bgr8.bag"))
        #expect(source.streams.map(\.name) == ["camera"])
        let frame = try #require(try source.next()?.payload as? CameraFrame)
        #expect(frame.image.channels == 3 && frame.width == 8 && frame.height == 6)
        #expect(Array(frame.image.samples[0..<6]) == [200, 0, 0, 200, 0, 10])  // (R, G, B) of the first two pixels
    }

    /// `--topic` renames a stream (its camera info follows the image topic of its namespace);
    /// two topics meeting in one name must be told apart; a calibration renamed away from its
    /// images is a note, not dropped in silence.
    @Test(arguments: ["tiny-none.bag", "tiny2-none"])
    func topicsCanBeRenamed(_ name: String) throws {
        var options = DatasetOptions()
        options.topicNames = ["/cam0/image_raw": "left"]
        let source = try DatasetFolder.open(Self.bag(name), options: options)
        #expect(source.streams.contains { $0.name == "left" } && !source.streams.contains { $0.name == "cam0" })
        let camera = try #require(source.streams.first { $0.name == "left" }?.metadata.camera, "the camera info did not follow its renamed images")
        #expect(camera.model.intrinsics == PinholeIntrinsics(fx: 20.5, fy: 20.25, cx: 7.5, cy: 5.5))
        #expect(source.notes.allSatisfy { !$0.contains("camera calibration") })
        options.topicNames = ["/cam0/image_raw": "left", "/cam0/camera_info": "right"]
        let apart = try DatasetFolder.open(Self.bag(name), options: options)
        #expect(apart.streams.first { $0.name == "left" }?.metadata.camera == nil)
        #expect(apart.notes.contains { $0.hasPrefix("/cam0/camera_info: a camera calibration for stream 'right', which holds no images") })
        options.topicNames = ["/imu0": "cam0"]
        #expect { _ = try DatasetFolder.open(Self.bag("tiny-none.bag"), options: options) } throws: { "\($0)".contains("both become stream 'cam0'") }
    }

    /// A truncated bag, a chunk with an unknown compression, a damaged lz4 chunk, a bag without
    /// its index: errors that name the file (and where in it).
    @Test func damagedBagsAreRefused() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.bag("tiny-lz4.bag")))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-bags-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func refused(_ data: Data, _ fragment: String, line: Int = #line) throws {
            let path = dir.appendingPathComponent("case-\(line).bag").path
            try data.write(to: URL(fileURLWithPath: path))
            #expect(performing: { _ = try Self.packets(try DatasetFolder.open(path)) }, throws: { error in
                "\(error)".contains(path) && "\(error)".contains(fragment) && error is any BadInput
            })
        }
        try refused(original.prefix(original.count / 2), "truncated")
        try refused(original.prefix(10), "not a ROS 1 bag")
        func replacing(_ a: String, _ b: String, in data: Data) -> Data {
            var d = data
            if let r = d.range(of: Data(a.utf8)) { d.replaceSubrange(r, with: Data(b.utf8)) }
            return d
        }
        try refused(replacing("compression=lz4", "compression=xz4", in: original), "chunk compression 'xz4'")
        // The lz4 frame's first data bytes flipped.
        var damaged = original
        if let r = damaged.range(of: Data("compression=lz4".utf8)) {
            let start = r.upperBound + 40
            for i in start..<(start + 64) { damaged[i] ^= 0xA5 }
        }
        try refused(damaged, "does not decompress")
        // index_pos zeroed: a recording cut off before its index.
        var unindexed = original
        if let r = unindexed.range(of: Data("index_pos=".utf8)) { for i in r.upperBound..<(r.upperBound + 8) { unindexed[i] = 0 } }
        try refused(unindexed, "has no index")
    }

    /// A chunk declaring more than ``DecompressionLimit`` allows (2 GiB, or 100 MB from a few
    /// hundred bytes) is refused before anything is allocated: bz2 and lz4 alike, naming the
    /// file, the chunk's offset and the sizes.
    @Test(arguments: ["tiny-bz2.bag", "tiny-lz4.bag"])
    func chunksDeclaringTooMuchAreRefused(_ name: String) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.bag(name)))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-bombs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let codec = name.contains("bz2") ? "bz2" : "lz4"
        for declared: UInt32 in [0x8000_0000, 100_000_000] {
            var bomb = original
            // Every chunk's "size=" field (u32, the uncompressed size).
            var searchFrom = bomb.startIndex
            while let r = bomb.range(of: Data("size=".utf8), in: searchFrom..<bomb.endIndex) {
                withUnsafeBytes(of: declared.littleEndian) { bomb.replaceSubrange(r.upperBound..<(r.upperBound + 4), with: $0) }
                searchFrom = r.upperBound + 4
            }
            #expect(searchFrom != bomb.startIndex, "the bag has a chunk")
            let path = dir.appendingPathComponent("\(declared)-\(name)").path
            try bomb.write(to: URL(fileURLWithPath: path))
            #expect(performing: { _ = try Self.packets(try DatasetFolder.open(path)) }, throws: { error in
                guard let e = error as? DecompressionLimitError else { return false }
                return e.file == path && e.codec == codec && e.expandedBytes == UInt64(declared) && e.offset > 0 && "\(e)".contains(path)
            })
        }
    }

    /// Image messages honour the pixel budget (`--max-image-megapixels`, passed as
    /// ``DatasetOptions/maxImagePixels``): a message declaring more is refused when the bag is
    /// opened — its size is in its first bytes — before any image is allocated, naming the topic;
    /// ROS 1 and ROS 2 (CDR) alike.
    @Test(arguments: ["tiny-none.bag", "tiny2-none"])
    func imagesLargerThanThePixelBudgetAreRefusedBeforeDecoding(_ name: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-budget-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 16×12 frames against a budget of 100 pixels.
        var options = DatasetOptions()
        options.maxImagePixels = 100
        #expect(performing: { _ = try DatasetFolder.open(Self.bag(name), options: options) }, throws: { error in
            "\(error)".contains("/cam0/image_raw") && "\(error)".contains("16×12 exceeds the limit of 0.0001 megapixels") && error is any BadInput
        })
        options.maxImagePixels = 192
        #expect(try Self.packets(try DatasetFolder.open(Self.bag(name), options: options)).filter { $0.stream == "cam0" }.count == 3)
        // Frames declaring 100000×100000 (10 gigapixels) over 192 bytes of pixels: refused at open.
        let isBag1 = name.hasSuffix(".bag")
        let source = isBag1 ? URL(fileURLWithPath: Self.bag(name)) : URL(fileURLWithPath: Self.bag(name)).appendingPathComponent("\(name).mcap")
        var data = try Data(contentsOf: source)
        let size = Data([0x0c, 0, 0, 0, 0x10, 0, 0, 0, isBag1 ? 5 : 6, 0, 0, 0] + Array("mono8".utf8))
        var huge = Data()
        for v: UInt32 in [100_000, 100_000] { withUnsafeBytes(of: v.littleEndian) { huge.append(contentsOf: $0) } }
        var from = data.startIndex, patched = 0
        while let r = data.range(of: size, in: from..<data.endIndex) {
            data.replaceSubrange(r.lowerBound..<(r.lowerBound + 8), with: huge)
            from = r.upperBound
            patched += 1
        }
        #expect(patched == 3)
        let target: String
        if isBag1 {
            target = dir.appendingPathComponent(name).path
            try data.write(to: URL(fileURLWithPath: target))
        } else {
            target = dir.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: Self.bag(name), toPath: target)
            try data.write(to: URL(fileURLWithPath: target).appendingPathComponent("\(name).mcap"))
        }
        #expect(performing: { _ = try DatasetFolder.open(target) }, throws: { error in
            "\(error)".contains("100000×100000 exceeds the limit") && "\(error)".contains("/cam0/image_raw") && error is any BadInput
        })
    }

    /// An MCAP file cut after its data (no summary, no footer: a recording that was stopped)
    /// is read to its last whole record.
    @Test func anMCAPWithoutItsSummaryIsReadSequentially() throws {
        let folder = Self.folder.appendingPathComponent("tiny2-none")
        let file = try Data(contentsOf: folder.appendingPathComponent("tiny2-none.mcap"))
        let records = try MCAPRecords.records(file)
        let dataEnd = try #require(records.first { $0.op == 0x0F })
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-bag2-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(at: folder.appendingPathComponent("metadata.yaml"), to: dir.appendingPathComponent("metadata.yaml"))
        try file.prefix(dataEnd.offset).write(to: dir.appendingPathComponent("tiny2-none.mcap"))
        let cut = try DatasetFolder.open(dir.path)
        // Cut short, and said so (a whole file has no such note).
        #expect(cut.notes.contains { $0.contains("without MCAP's data-end record (cut short?)") })
        #expect(try DatasetFolder.open(folder.path).notes.allSatisfy { !$0.contains("cut short") })
        // Cut inside its footer only: said too.
        try file.prefix(file.count - 10).write(to: dir.appendingPathComponent("tiny2-none.mcap"))
        #expect(try DatasetFolder.open(dir.path).notes.contains { $0.contains("closing magic (its summary or footer cut short?)") })
        try file.prefix(dataEnd.offset).write(to: dir.appendingPathComponent("tiny2-none.mcap"))
        let packets = try Self.packets(cut)
        #expect(packets.filter { $0.stream == "cam0" }.count == 3 && packets.filter { $0.stream == "imu0" }.count == 10)
        // Cut inside the first record: nothing to read, said so.
        try file.prefix(20).write(to: dir.appendingPathComponent("tiny2-none.mcap"))
        #expect { _ = try DatasetFolder.open(dir.path) } throws: { "\($0)".contains("truncated") }
    }
}

extension ROSBagSourceTests {
    /// A topic `/../image_raw` would become stream `..`, and `convert` would write beside its
    /// `--out`: refused when the bag is opened, naming the topic and the way out (`--topic`).
    /// A camera topic that becomes a name a converted folder keeps for itself ('groundtruth'
    /// was silently dropped by convert; 'parallax.yaml' failed with a file-system error) is
    /// refused at open, naming the topic; --topic renames it.
    @Test(arguments: ["/groundtruth/i", "/parallax.yaml/i"])
    func aTopicBecomingAReservedNameIsRefused(topic: String) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.bag("tiny-none.bag")))
        var bag = original
        // The topic becomes the stream named by its first part (/cam0/image_raw → cam0); padded
        // to the same length so every record keeps its size.
        let replacement = topic.padding(toLength: "/cam0/image_raw".count, withPad: "_", startingAt: 0)
        while let r = bag.range(of: Data("/cam0/image_raw".utf8)) { bag.replaceSubrange(r, with: Data(replacement.utf8)) }
        #expect(bag != original)
        let dir = try TemporaryFolder.make("bag-reserved")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("reserved.bag").path
        try bag.write(to: URL(fileURLWithPath: path))
        #expect { _ = try DatasetFolder.open(path) } throws: { error in
            error is any BadInput && "\(error)".contains(replacement) && "\(error)".contains("keeps for itself") && "\(error)".contains(path)
        }
        var options = DatasetOptions()
        options.topicNames = [replacement: "cam0"]
        #expect(try DatasetFolder.open(path, options: options).streams.contains { $0.name == "cam0" })
    }

    @Test func aTopicThatWouldLeaveTheOutputFolderIsRefused() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.bag("tiny-none.bag")))
        var bag = original
        // Same length, so every record keeps its size.
        while let r = bag.range(of: Data("/cam0/image_raw".utf8)) { bag.replaceSubrange(r, with: Data("/../image_raw__".utf8)) }
        #expect(bag != original)
        let dir = try TemporaryFolder.make("bag-topic")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("escape.bag").path
        try bag.write(to: URL(fileURLWithPath: path))
        #expect { _ = try DatasetFolder.open(path) } throws: { error in
            error is any BadInput && "\(error)".contains("/../image_raw__") && "\(error)".contains("--topic") && "\(error)".contains(path)
        }
        var options = DatasetOptions()
        options.topicNames = ["/../image_raw__": "cam0"]
        let renamed = try DatasetFolder.open(path, options: options)
        #expect(renamed.streams.contains { $0.name == "cam0" })
        // The writers refuse such a stream name too (a source that let one through).
        let out = dir.appendingPathComponent("out").path
        let writer = try ParallaxFolderWriter(path: out)
        #expect(throws: OutputPath.RefusedError.self) {
            try writer.write(AnyPacket(stream: "..", timestamp: Timestamp(nanoseconds: 1), payload: IMUSample(gyroscope: Vector3(0, 0, 0), accelerometer: Vector3(0, 0, 9.81))))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["escape.bag", "out"])
    }
}

extension ROSBagSourceTests {
    /// A bag with no connection (rosbags' `Writer` opened and closed: 4109 bytes, its index
    /// position its end) is a valid bag; it and a bag whose one topic never published have
    /// nothing to read: both refused alike, naming the bag and saying so. A bag cut right after
    /// its first chunk, its index at the new end, is still a truncated bag.
    @Test func bagsWithoutMessagesAreRefusedAsHavingNothingToRead() throws {
        let empty = Self.bag("empty.bag")
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).count == 4109)
        #expect { _ = try DatasetFolder.open(empty) } throws: { error in
            error is any BadInput && "\(error)" == "\(empty): the bag has no topics and no messages: nothing to read"
        }
        let silent = Self.bag("no-messages.bag")
        #expect { _ = try DatasetFolder.open(silent) } throws: { error in
            error is any BadInput && "\(error)" == "\(silent): the bag holds no messages (its topic /imu0 has none): nothing to read"
        }
        // tiny-none.bag's index position pointing at the end of its data (its index cut off).
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.bag("tiny-none.bag")))
        let field = try #require(original.range(of: Data("index_pos=".utf8)))
        let indexPosition = original[field.upperBound..<(field.upperBound + 8)].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let dir = try TemporaryFolder.make("bag-cut-index")
        defer { try? FileManager.default.removeItem(at: dir) }
        let cut = dir.appendingPathComponent("cut.bag").path
        try original.prefix(indexPosition).write(to: URL(fileURLWithPath: cut))
        #expect { _ = try DatasetFolder.open(cut) } throws: { "\($0)".contains("truncated") && "\($0)".contains(cut) }
    }

    /// A camera info goes to the stream of the images beside it (ROS's layout), also in nested
    /// namespaces and when those images are renamed; one beside no images is a note, not another
    /// camera's calibration (`/stereo/left/camera_info` went to stream `stereo`, whichever camera
    /// held that name).
    @Test(arguments: ["tiny-none.bag", "tiny2-none"])
    func aCameraInfoGoesToTheImagesBesideIt(_ name: String) throws {
        let dir = try TemporaryFolder.make("bag-namespace")
        defer { try? FileManager.default.removeItem(at: dir) }
        let nested = try Self.patched(name, Data("/cam0/".utf8), Data("/s/c0/".utf8), in: dir)
        var options = DatasetOptions()
        options.topicNames = ["/s/c0/image_raw": "left"]
        let renamed = try DatasetFolder.open(nested, options: options)
        #expect(renamed.streams.first { $0.name == "left" }?.metadata.camera?.model.intrinsics.fx == 20.5)
        #expect(renamed.notes.allSatisfy { !$0.contains("camera_info") })
        #expect(try DatasetFolder.open(nested).streams.first { $0.name == "s" }?.metadata.camera?.model.intrinsics.fx == 20.5)
        let other = try TemporaryFolder.make("bag-apart")
        defer { try? FileManager.default.removeItem(at: other) }
        let apart = try Self.patched(name, Data("/cam0/camera_info".utf8), Data("/cam9/camera_info".utf8), in: other)
        let source = try DatasetFolder.open(apart)
        #expect(source.streams.first { $0.name == "cam0" }?.metadata.camera == nil)
        #expect(source.notes.contains { $0.hasPrefix("/cam9/camera_info: a camera calibration beside no image topic") })
    }

    /// `tiny-none.bag` (or the ROS 2 bag's MCAP file) with every occurrence of `from` replaced
    /// by `to` (same length), written under `dir`; the path to open.
    static func patched(_ name: String, _ from: Data, _ to: Data, in dir: URL) throws -> String {
        let isBag1 = name.hasSuffix(".bag")
        let source = isBag1 ? URL(fileURLWithPath: bag(name)) : URL(fileURLWithPath: bag(name)).appendingPathComponent("\(name).mcap")
        var data = try Data(contentsOf: source)
        var from_ = data.startIndex
        while let r = data.range(of: from, in: from_..<data.endIndex) {
            data.replaceSubrange(r, with: to)
            from_ = r.upperBound
        }
        let target = dir.appendingPathComponent(name)
        if isBag1 {
            try data.write(to: target)
        } else {
            try FileManager.default.copyItem(atPath: bag(name), toPath: target.path)
            try data.write(to: target.appendingPathComponent("\(name).mcap"))
        }
        return target.path
    }

    static func bytes(_ v: Double) -> Data { withUnsafeBytes(of: v.bitPattern.littleEndian) { Data($0) } }

    /// A NaN or infinite angular velocity or acceleration in a sensor_msgs/Imu is refused (as
    /// in an EuRoC data.csv), naming the bag, the message, its topic and time; ROS 1 and ROS 2
    /// alike. Image messages, whose header fields are integers, are not affected.
    @Test(arguments: ["tiny-none.bag", "tiny2-none"], [Double.nan, -.infinity])
    func nonFiniteIMUValuesAreRefused(_ name: String, _ value: Double) throws {
        let dir = try TemporaryFolder.make("bag-nan")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Every IMU message's angular velocity z is 0.03 rad/s.
        let path = try Self.patched(name, Self.bytes(0.03), Self.bytes(value), in: dir)
        #expect { _ = try DatasetFolder.open(path) } throws: { error in
            let text = "\(error)"
            // The bag's 4th message (after the camera info, the first frame and pose at the same time).
            return error is any BadInput && text.hasPrefix(path) && text.contains(": message 4 on '/imu0' at \(Self.t0) ns: ")
                && text.contains("angular velocity (0.0, -0.0, \(value)) rad/s is not finite")
        }
        // The same bag with a finite value reads, frames and all.
        let fine = try Self.patched(name, Self.bytes(0.03), Self.bytes(0.04), in: try TemporaryFolder.make("bag-finite"))
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: fine).deletingLastPathComponent().path) }
        let packets = try Self.packets(try DatasetFolder.open(fine))
        #expect(packets.filter { $0.stream == "cam0" }.count == 3 && packets.filter { $0.stream == "imu0" }.count == 10)
    }

    /// Timestamps going back in a bag are said by message (its index in the bag, topic and
    /// time), not as `bag:N`, which reads as a line number.
    @Test func aRepeatedStampNamesTheMessageNotALine() throws {
        let dir = try TemporaryFolder.make("bag-dupstamp")
        defer { try? FileManager.default.removeItem(at: dir) }
        func stamp(_ ns: Int64) -> Data {
            var d = Data()
            for v in [UInt32(ns / 1_000_000_000), UInt32(ns % 1_000_000_000)] { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
            return d
        }
        // The second IMU sample's stamp (header and receive time) made the first's.
        let path = try Self.patched("tiny-none.bag", stamp(Self.t0 + 10_000_000), stamp(Self.t0), in: dir)
        #expect { _ = try DatasetFolder.open(path) } throws: { error in
            guard case let DatasetError.messageOutOfOrder(file, message, topic, _, current) = error else { return false }
            return file == path && topic == "/imu0" && current.nanoseconds == Self.t0 && message > 1
                && "\(error)" == "\(path): message \(message) on '/imu0' at \(Self.t0) ns: timestamp repeats timestamp \(Self.t0) ns"
        }
    }
}

extension ROSBagSourceTests {
    /// A ROS 2 bag folder whose metadata.yaml is not YAML is read as a bag (it holds an .mcap
    /// file) and refused naming metadata.yaml and the YAML error's line and column, not as
    /// "not a dataset".
    @Test func aBrokenMetadataFileIsNamedWithItsYAMLError() throws {
        let dir = try TemporaryFolder.make("bag2-metadata")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bag = dir.appendingPathComponent("m_garbage")
        try FileManager.default.copyItem(atPath: Self.bag("tiny2-none"), toPath: bag.path)
        let metadata = bag.appendingPathComponent("metadata.yaml")
        try "{{{\n".write(to: metadata, atomically: true, encoding: .utf8)
        #expect { _ = try DatasetFolder.open(bag.path) } throws: { error in
            guard let e = error as? YAMLDecodingError else { return false }
            return e.file == metadata.path && e.line == 2 && e.column == 1 && "\(e)".contains("malformed YAML")
        }
        // A folder with a metadata.yaml and no storage file is not taken for a bag.
        try FileManager.default.removeItem(at: bag.appendingPathComponent("tiny2-none.mcap"))
        #expect(!ROS2BagFormat.recognizes(bag.path))
    }
}
