import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxGeometry
import ParallaxImage

/// A video file (mp4, mov, avi, mkv, webm, m4v) as a dataset of one camera stream `cam0`: each
/// frame at its presentation time, decoded only when the bus reads it, one at a time.
///
/// The listing (for `inspect`, progress and `--validate-order`) comes from a first pass over the
/// container's packets without decoding: their presentation times, sorted; packets with no data
/// (AVI drop chunks) or marked for discarding (outside an MP4 edit list) are no frames. Frames
/// then decode in presentation order, and the k-th takes the k-th listed time: the decoder's own
/// guess can be a frame late (FFmpeg on AVI's packed B-frames, OpenCV's `Megamind.avi`). A
/// decoder that gives more frames than listed has the extra ones dropped (``droppedFrames``).
public final class VideoFileSource: DatasetSource {
    public let formatName = "video"
    public private(set) var listing: StreamListing
    public let streams: [StreamDescription]
    public let groundTruth: Trajectory? = nil
    public let missingImages: [String: Int] = [:]
    /// What the reader dropped (frames at a repeated time), said when it opens.
    public private(set) var notes: [String] = []
    /// The stream's name.
    public static let stream = "cam0"
    /// What the file's header claims.
    public var header: VideoFile.Header { file.header }
    /// Frames dropped because their time repeated an earlier frame's (a container whose
    /// times went back, clamped by its muxer), or because the decoder gave more frames than
    /// the container lists.
    public private(set) var droppedFrames = 0

    private let file: VideoFile
    private let pixels: VideoFile.Pixels
    private let times: [Timestamp]
    /// Frames decoded so far (the index of the next one's time in ``times``).
    private var decoded = 0
    /// The time of the last frame given out.
    private var lastTime: Timestamp?

    /// Opens the video at `path`, converting frames to `pixels`; frames over `maxPixels` are
    /// refused before any is decoded (``VideoFile/init(path:maxPixels:)``).
    public init(path: String, pixels: VideoFile.Pixels = .rgb, maxPixels: Int = ImageSizeLimit.maxPixels) throws {
        // One pass over the packets for the listing; the frames then come from a fresh demuxer
        // (seeking back is not exact in every container).
        let times = try VideoFile(path: path, maxPixels: maxPixels).packetTimes()
        guard !times.isEmpty else { throw VideoError.noFrames(path: path) }
        file = try VideoFile(path: path, maxPixels: maxPixels)
        self.pixels = pixels
        self.times = times
        var listing = StreamListing()
        var previous: Timestamp?
        for (k, t) in times.enumerated() where t != previous {
            listing.record(stream: Self.stream, timestamp: t, file: path, line: k + 1)
            previous = t
        }
        self.listing = listing
        let repeated = times.count - zip(times, times.dropFirst()).filter { $0 != $1 }.count - 1
        if repeated > 0 {
            notes = ["\(path): \(repeated) frame(s) at a time an earlier frame already has (the container repeats a presentation time): the first frame at each time is kept, the others dropped"]
        }
        // A container that declares a longer duration than its packets span was cut short (a
        // copy stopped half-way): the frames there are read, and the note says where they end.
        // (Its frame count is no guide: AVI counts empty "drop" chunks, some MP4s repeat times.)
        if let first = times.first, let last = times.last, let declared = file.header.duration {
            let span = Double(last.nanoseconds - first.nanoseconds) / 1e9
            let interval = file.header.frameRate.map { 1 / $0 } ?? 0
            if declared - span - interval > max(0.5, 3 * interval) {
                notes.append("\(path): the container declares \(String(format: "%.3f", declared)) s, but its frames end at \(last.nanoseconds) ns "
                             + "after \(times.count) frame(s): the file may be cut short")
            }
        }
        if !file.otherVideoStreams.isEmpty {
            notes.append("\(path): stream \(file.streamNumber) (\(file.header.codec) \(file.header.width)×\(file.header.height)) is read as \(Self.stream); "
                         + "the file's other video stream(s) are not: \(file.otherVideoStreams.joined(separator: ", "))")
        }
        if let rotation = file.displayRotationDegrees {
            notes.append("\(path): the stream is tagged to be shown turned by \(String(format: "%g", rotation))° (a display matrix, as phones record upright video); "
                         + "its frames are read as stored, \(file.header.width)×\(file.header.height), not turned")
        }
        streams = [StreamDescription(StreamKey<CameraFrame>(Self.stream))]
    }

    public func next() throws -> AnyPacket? {
        while let image = try file.nextFrame(pixels, at: decoded < times.count ? times[decoded] : nil) {
            guard decoded < times.count else {
                droppedFrames += 1
                continue
            }
            let time = times[decoded]
            decoded += 1
            // Two packets at one presentation time (a muxer clamping a time that went back):
            // the stream keeps the first frame.
            if let last = lastTime, time <= last {
                droppedFrames += 1
                continue
            }
            lastTime = time
            return AnyPacket(stream: Self.stream, timestamp: time, payload: CameraFrame(cameraID: Self.stream, image: image))
        }
        if lastTime == nil { throw VideoError.noFrames(path: file.path) }
        return nil
    }
}

/// Video files as datasets (``VideoFileSource``), recognized by their extension.
public enum VideoFileFormat: DatasetFormat {
    public static let name = "video"
    public static let expects = "a video file (mp4, mov, avi, mkv, webm, m4v)"
    /// File extensions read as video (lower case).
    public static let extensions: Set<String> = ["mp4", "mov", "avi", "mkv", "webm", "m4v"]

    public static func recognizes(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && extensions.contains((path as NSString).pathExtension.lowercased())
    }

    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try VideoFileSource(path: path, pixels: options.grayVideo ? .gray : .rgb, maxPixels: options.maxImagePixels)
    }
}
