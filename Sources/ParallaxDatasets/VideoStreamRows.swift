import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxCodecs

/// A camera stream kept as one video file in a Parallax folder (`video: cam0/data.mkv`):
/// `data.csv` lists each frame's time and number (`t_ns,frame`, frames counted from 0 in the
/// video's presentation order), the video holds the pixels. The times are the listing's,
/// exactly (a container rounds its own: Matroska to the millisecond), so a stream written to
/// video and read back keeps them.
///
/// The listing is checked against the video when the folder opens: as many rows as the video
/// has frames, frame numbers 0, 1, 2, … and times strictly increasing (frames decode one after
/// another, so they must come out in the order they were encoded).
enum VideoStreamRows {
    /// Adds the rows of camera stream `name` (`csv` its listing, `video` the file) to `rows`.
    static func add(stream name: String, rank: Int, csv: String, table: DelimitedText, video: String, gray: Bool, support: VideoSupport?,
                    calibration: CameraCalibration?, to rows: inout IndexedRows, listing: inout StreamListing) throws {
        let support = try VideoSupport.require(support, for: video)
        guard FileManager.default.fileExists(atPath: video) else { throw DatasetError.notADataset(path: video, expected: "the video file of stream '\(name)', as parallax.yaml says") }
        var listed: [(time: Timestamp, line: Int)] = []
        try table.forEachRow(separatedBy: .comma) { row in
            guard row.count == 2 else { throw DatasetError.malformedRow(file: csv, line: row.line, reason: "expected 2 columns (t_ns,frame), found \(row.count)") }
            guard let ns = row.int64(0) else { throw DatasetError.malformedRow(file: csv, line: row.line, reason: "timestamp '\(row.string(0))' is not an integer (ns)") }
            guard row.int64(1) == Int64(listed.count) else {
                throw DatasetError.malformedRow(file: csv, line: row.line, reason: "frame '\(row.string(1))' out of sequence: the video's frames are listed in order, this row should be frame \(listed.count)")
            }
            if let previous = listed.last, ns <= previous.time.nanoseconds {
                throw DatasetError.malformedRow(file: csv, line: row.line, reason: "time \(ns) ns does not increase (the frames of a video must; the previous row is \(previous.time.nanoseconds) ns)")
            }
            listed.append((Timestamp(nanoseconds: ns), row.line))
            listing.record(stream: name, timestamp: Timestamp(nanoseconds: ns), file: csv, line: row.line)
        }
        let frames = try support.frameCount(video)
        guard frames == listed.count else {
            throw DatasetError.malformedRow(file: csv, line: listed.last?.line ?? 1,
                                            reason: "lists \(listed.count) frames, the video \(video) holds \(frames)")
        }
        let cursor = try Cursor(reader: support.reader(video, gray), path: video, stream: name, calibration: calibration)
        for (k, entry) in listed.enumerated() {
            rows.addInOrder(at: entry.time, rank: rank) { try cursor.frame(k, at: entry.time) }
        }
    }

    /// The decoder, handing out frames one after another (the rows ask in order; the lock only
    /// makes sharing it with the rows' closures sound).
    final class Cursor: @unchecked Sendable {
        private let lock = NSLock()
        private let reader: any VideoSupport.FrameReader
        private let path: String
        private let stream: String
        private let calibration: CameraCalibration?
        private var next = 0

        init(reader: any VideoSupport.FrameReader, path: String, stream: String, calibration: CameraCalibration?) {
            self.reader = reader
            self.path = path
            self.stream = stream
            self.calibration = calibration
        }

        /// Frame `k`, shown at `time`.
        func frame(_ k: Int, at time: Timestamp) throws -> AnyPacket {
            lock.lock()
            defer { lock.unlock() }
            guard k == next else { throw DatasetError.malformedRow(file: path, line: 0, reason: "frame \(k) asked for before frame \(next)") }
            guard let image = try reader.nextFrame() else {
                throw DatasetError.malformedRow(file: path, line: 0, reason: "the video ends before frame \(k) (at \(time.nanoseconds) ns)")
            }
            next += 1
            try ImageDecodingError.checkSize(path: "\(path) frame \(k)", width: image.width, height: image.height, calibration: calibration)
            return AnyPacket(stream: stream, timestamp: time, payload: CameraFrame(cameraID: stream, image: image))
        }
    }
}
