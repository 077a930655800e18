import ParallaxBus
import ParallaxPayloads
/// The timestamps of every row of a dataset's streams in file order, gathered while a reader
/// parses its index files (before any image is decoded). `parallax inspect` reports from it;
/// readers use it to reject timestamps that go backwards or repeat.
public struct StreamListing: Sendable {
    /// Per stream: timestamps in file order.
    public private(set) var stamps: [String: [Timestamp]] = [:]
    /// Per stream: the first out-of-order row, if any (file, line or message, previous, current).
    public private(set) var firstDisorder: [String: DatasetError] = [:]
    /// Stream names in the order they were first seen.
    public private(set) var order: [String] = []

    public init() {}

    /// Records a row; remembers the first row whose timestamp is not after the previous one.
    public mutating func record(stream: String, timestamp: Timestamp, file: String, line: Int) {
        record(stream: stream, timestamp: timestamp) { .outOfOrder(file: file, line: line, previous: $0, current: timestamp) }
    }

    /// Records a message of a binary file (a bag), `message` counting the file's messages from 1
    /// and `topic` its topic: a disorder names those, not a line.
    public mutating func record(stream: String, timestamp: Timestamp, file: String, message: Int, topic: String) {
        record(stream: stream, timestamp: timestamp) {
            .messageOutOfOrder(file: file, message: message, topic: topic, previous: $0, current: timestamp)
        }
    }

    /// Records `timestamp`; `disorder` (given the previous timestamp) is the error when it is not after it.
    private mutating func record(stream: String, timestamp: Timestamp, disorder: (Timestamp) -> DatasetError) {
        if stamps[stream] == nil { order.append(stream) }
        if let previous = stamps[stream]?.last, timestamp <= previous, firstDisorder[stream] == nil {
            firstDisorder[stream] = disorder(previous)
        }
        stamps[stream, default: []].append(timestamp)
    }

    /// Forgets `stream` (its rows are about to be replaced).
    public mutating func remove(stream: String) {
        stamps[stream] = nil
        firstDisorder[stream] = nil
        order.removeAll { $0 == stream }
    }

    /// Throws the first disorder found, in stream order.
    public func validate() throws {
        for s in order { if let e = firstDisorder[s] { throw e } }
    }
}

/// What every dataset reader offers besides its packets.
public protocol DatasetSource: PacketSource {
    /// The format's name (`EuRoC/ASL`, `TUM RGB-D`).
    var formatName: String { get }
    /// Row timestamps per stream, in file order.
    var listing: StreamListing { get }
    /// Ground truth, when the dataset has it.
    var groundTruth: Trajectory? { get }
    /// Listed images that do not exist, per stream.
    var missingImages: [String: Int] { get }
    /// What the reader skipped or assumed, one sentence each (`inspect` and `run` print them).
    var notes: [String] { get }
    /// Where the reader took `stream`'s calibration from, in words (`the bag's CameraInfo`,
    /// `mav0/cam0/sensor.yaml`), for the line that says a `--calibration` replaced it; `nil`:
    /// not said (or none).
    func calibrationOrigin(of stream: String) -> String?
}

extension DatasetSource {
    public var notes: [String] { [] }
    public func calibrationOrigin(of stream: String) -> String? { nil }
}

/// Stream names readers give to what is not a sensor.
public enum DatasetStreams {
    /// Ground-truth body poses (``Pose``, `T_WB`), when the dataset has them.
    public static let groundTruth = "groundtruth"
}
