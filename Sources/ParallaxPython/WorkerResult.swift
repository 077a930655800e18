import Foundation

/// A worker's answer to `open`, `process` or `close` (``WorkerProtocol/Kind/result``): what the
/// analyzer emitted, warned and noted.
struct WorkerResult: Decodable, Sendable {
    /// One emitted packet.
    struct Emit: Decodable, Sendable {
        /// The output port's name.
        var port: String
        /// Its timestamp (ns).
        var t: Int64
        /// Numbers, JSON values and the JSON forms of tracks, boxes, landmarks, matches.
        var value: JSONValue?
        /// Poses: the 4×4 world-from-body matrix, row-major (m).
        var matrix: [Double]?
        /// Poses: the 6×6 covariance, row-major, or none.
        var covariance: [Double]?
        /// Poses: the tracking state (`normal`, `limited(initializing)`, `notAvailable`).
        var state: String?
        /// Depth maps: (offset, bytes) of the float32 values in the frame's blob.
        var blob: [Int]?
        /// Depth maps: (height, width).
        var shape: [Int]?
        /// Depth maps: `depth`, `disparity` or `pixelDisparity`.
        var kind: String?
    }

    var emits: [Emit]
    var warnings: [String]
    var notes: [String]
}

/// A worker's error answer (``WorkerProtocol/Kind/error``).
struct WorkerErrorAnswer: Decodable, Sendable {
    /// `import`, `no-analyzer`, `exception` or `protocol`.
    var kind: String
    var message: String
    var traceback: String?
}

/// The worker's first words (``WorkerProtocol/Kind/hello``).
struct WorkerHello: Decodable, Sendable {
    var `protocol`: Int
    var python: String?
    var numpy: String?
}
