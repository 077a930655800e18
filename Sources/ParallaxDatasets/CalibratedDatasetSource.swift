import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles

/// A dataset whose streams' calibrations are replaced or supplied from files
/// (``CalibrationOverride``: `--calibration STREAM=FILE`), before any analyzer reads them: its
/// packets, listing and ground truth are the wrapped source's, its streams' metadata the files'.
///
/// - A camera stream (frames, depth maps, face landmarks) takes a camera's calibration, an IMU
///   stream an IMU's; another kind of file is an error, as is a stream the dataset does not
///   have (with the closest name and the dataset's streams).
/// - A file that does not place the sensor on the body (a ROS camera_info) keeps the stream's own
///   `T_BS` (identity when it had none).
/// - Stereo pairs are declared as the folder readers declare them (``StereoPartner/pairs(_:)``,
///   from the cameras' `T_BS`) when a camera's calibration changes and the dataset declared a
///   pair, or when two files place cameras on the body.
/// - Image size: a file whose resolution differs from the calibration the dataset already had
///   for the stream is refused when the dataset opens (the reader checks its frames against its
///   own, so one of the two could not fit). A calibration supplied to a stream that had none is
///   checked against every frame as it is decoded: the first frame of another size stops the
///   run, naming the stream, the time, both sizes and the file (bad input, exit 2). Frame sizes
///   are known only once frames are decoded, and opening a dataset decodes none.
public final class CalibratedDatasetSource: WrappedDatasetSource, DeferredPacketSource {
    public let wrapped: any DatasetSource
    public let streams: [StreamDescription]
    /// What was applied, one per override, in the order given.
    public let applied: [AppliedCalibration]
    /// The calibrated size of each camera stream whose frames are checked here, and its file.
    private let frameSizes: [String: FrameSize]

    /// The size a stream's frames must have.
    struct FrameSize: Sendable {
        let width: Int, height: Int
        let given: String
    }

    public var formatName: String { wrapped.formatName }
    public var listing: StreamListing { wrapped.listing }
    public var groundTruth: Trajectory? { wrapped.groundTruth }
    public var missingImages: [String: Int] { wrapped.missingImages }
    public var notes: [String] { wrapped.notes }

    public func calibrationOrigin(of stream: String) -> String? {
        applied.last { $0.stream == stream }.map { "\($0.file) (\($0.origin))" } ?? wrapped.calibrationOrigin(of: stream)
    }

    /// `source` with `overrides` applied (bag topics renamed as `topicNames` say, for matching a
    /// Kalibr entry's `rostopic`). Reads every file now: every error is bad input naming the
    /// override and the file.
    public init(_ source: any DatasetSource, overrides: [CalibrationOverride], topicNames: [String: String] = [:]) throws {
        try CalibrationOverride.checkDistinct(overrides)
        wrapped = source
        var streams = source.streams
        var applied: [AppliedCalibration] = []
        var frameSizes: [String: FrameSize] = [:]
        var cameraChanged = false, placedCameras = 0
        for override in overrides {
            guard let index = streams.firstIndex(where: { $0.name == override.stream }) else {
                let names = streams.map(\.name)
                let hint = Spelling.closest(to: override.stream, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw CalibrationOverrideError(given: override.given, reason: "the dataset has no stream '\(override.stream)'\(hint) (its streams: \(names.joined(separator: ", ")))")
            }
            let stream = streams[index]
            guard let kind = StreamCalibrationFile.kind(of: stream) else {
                throw CalibrationOverrideError(given: override.given, reason: "'\(stream.name)' is a \(stream.type) stream: a calibration is for a camera (frames, depth, face landmarks) or an IMU stream")
            }
            let file = try StreamCalibrationFile.load(override, for: kind, topicNames: topicNames)
            let change: Change
            switch file.sensor {
            case let .camera(calibration):
                change = try Self.camera(calibration, from: file, override, for: stream, in: source)
                if stream.type == PayloadType(CameraFrame.self) {
                    cameraChanged = true
                    placedCameras += file.placesSensor ? 1 : 0
                }
            case let .imu(calibration):
                change = Self.imu(calibration, from: file, override, for: stream, in: source)
            }
            streams[index].metadata = change.metadata
            applied.append(change.applied)
            frameSizes[stream.name] = change.frameSize
        }
        // Stereo pairs as the readers declare them, from the cameras' calibrations as they are now.
        let cameraStreams = streams.indices.filter { streams[$0].type == PayloadType(CameraFrame.self) }
        if cameraChanged, placedCameras >= 2 || cameraStreams.contains(where: { source.streams[$0].metadata.stereo != nil }) {
            var cameras: [String: CameraCalibration] = [:]
            for i in cameraStreams { cameras[streams[i].name] = streams[i].metadata.camera }
            let pairs = StereoPartner.pairs(cameras)
            for i in cameraStreams { streams[i].metadata.stereo = pairs[streams[i].name] }
        }
        self.streams = streams
        self.applied = applied
        self.frameSizes = frameSizes
    }

    /// What one override does to its stream: the new metadata, the line that says it, and the
    /// size its frames are to be checked against (when the stream had no calibration).
    struct Change {
        var metadata: StreamMetadata
        var applied: AppliedCalibration
        var frameSize: FrameSize?
    }

    /// A camera's `calibration` for `stream` (frames, face landmarks; a depth stream's registered
    /// camera): what the file does not say (where the camera sits, its rate, its description)
    /// is kept from the stream's own; a size other than the stream's own is refused.
    static func camera(_ calibration: CameraCalibration, from file: StreamCalibration, _ override: CalibrationOverride,
                       for stream: StreamDescription, in source: any DatasetSource) throws -> Change {
        var calibration = calibration, metadata = stream.metadata, remarks = file.remarks
        let isDepth = stream.type == PayloadType(DepthMap.self)
        let old = isDepth ? metadata.depth?.camera : metadata.camera
        if !file.placesSensor {
            calibration.bodyFromSensor = old?.bodyFromSensor ?? .identity
            remarks.append(old == nil ? "it does not place the camera: T_BS identity" : "it does not place the camera: T_BS kept")
        }
        if calibration.rateHz == nil { calibration.rateHz = old?.rateHz }
        if calibration.comment == nil { calibration.comment = old?.comment }
        let size = FrameSize(width: calibration.model.width, height: calibration.model.height, given: override.given)
        if let old, old.model.width != size.width || old.model.height != size.height {
            throw CalibrationOverrideError(given: override.given, reason: "\(override.file) is for \(size.width)×\(size.height) px "
                + "but \(stream.name)'s own calibration (\(source.calibrationOrigin(of: stream.name) ?? "the dataset's")) is for \(old.model.width)×\(old.model.height) px, "
                + "which its frames are checked against")
        }
        if isDepth {
            var depth = metadata.depth ?? DepthSensor(kind: .depth)
            depth.camera = calibration
            metadata.depth = depth
        } else {
            metadata.camera = calibration
        }
        return Change(metadata: metadata, applied: applied(file, override, for: stream, replacing: old != nil, in: source, remarks: remarks),
                      frameSize: old == nil ? size : nil)
    }

    /// An IMU's `calibration` for `stream`; where the IMU sits is kept when the file does not say.
    static func imu(_ calibration: IMUCalibration, from file: StreamCalibration, _ override: CalibrationOverride,
                    for stream: StreamDescription, in source: any DatasetSource) -> Change {
        var calibration = calibration, metadata = stream.metadata, remarks = file.remarks
        let old = metadata.imu
        if !file.placesSensor {
            calibration.bodyFromSensor = old?.bodyFromSensor ?? .identity
            remarks.append(old == nil ? "it does not place the IMU: T_BS identity" : "it does not place the IMU: T_BS kept")
        }
        metadata.imu = calibration
        return Change(metadata: metadata, applied: applied(file, override, for: stream, replacing: old != nil, in: source, remarks: remarks))
    }

    /// The line that says what `override` did to `stream`.
    static func applied(_ file: StreamCalibration, _ override: CalibrationOverride, for stream: StreamDescription, replacing: Bool,
                        in source: any DatasetSource, remarks: [String]) -> AppliedCalibration {
        AppliedCalibration(stream: stream.name, file: override.file, origin: file.origin,
                           replaced: replacing ? source.calibrationOrigin(of: stream.name) ?? "the dataset's own" : nil, remarks: remarks)
    }

    public func nextDeferred() throws -> DeferredPacket? {
        let next: DeferredPacket?
        if let deferred = wrapped as? any DeferredPacketSource {
            next = try deferred.nextDeferred()
        } else {
            next = try wrapped.next().map { .ready($0) }
        }
        guard let next else { return nil }
        guard case let .work(produce) = next else {
            if case let .ready(packet) = next { try Self.check(packet, frameSizes) }
            return next
        }
        guard !frameSizes.isEmpty else { return next }
        let sizes = frameSizes
        return .work {
            let packet = try produce()
            try Self.check(packet, sizes)
            return packet
        }
    }

    /// Refuses a frame of another size than its stream's supplied calibration.
    static func check(_ packet: AnyPacket, _ sizes: [String: FrameSize]) throws {
        guard let size = sizes[packet.stream] else { return }
        let found: (width: Int, height: Int)
        if let frame = packet.payload as? CameraFrame {
            found = (frame.width, frame.height)
        } else if let depth = packet.payload as? DepthMap {
            found = (depth.values.width, depth.values.height)
        } else {
            return
        }
        guard found.width != size.width || found.height != size.height else { return }
        throw CalibrationOverrideError(given: size.given, reason: "\(packet.stream) at \(packet.timestamp.nanoseconds) ns: the frame is \(found.width)×\(found.height) px "
                                       + "but the calibration is for \(size.width)×\(size.height) px")
    }
}
