import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
import ParallaxCodecs
/// A reader that takes its ground truth from a file the user names (`--groundtruth FILE`,
/// a bench run's `groundtruth:`) instead of the one the dataset holds (or in addition to none).
/// The standard readers conform; a format registered by a plugin may.
public protocol GroundTruthReplacing: DatasetSource {
    /// Uses `trajectory` (read from `file`) as the dataset's ground truth: ``DatasetSource/groundTruth``,
    /// and the ``DatasetStreams/groundTruth`` pose stream where the reader has one. Called
    /// before the first packet is read.
    func replaceGroundTruth(with trajectory: Trajectory, file: String) throws
}

/// Why a ground-truth file cannot be used.
public enum GroundTruthFileError: Error, BadInput, CustomStringConvertible, Equatable {
    /// The dataset's format cannot take a ground-truth file.
    case notAccepted(file: String, format: String)
    /// KITTI poses carry no times; a dataset needs them.
    case noTimes(file: String)
    /// The file's times do not overlap the dataset's sensor streams.
    case noOverlap(file: String, first: Double, last: Double, datasetFirst: Double, datasetLast: Double)

    public var description: String {
        switch self {
        case let .notAccepted(file, format):
            return "\(file): the \(format) reader cannot take a ground-truth file (--groundtruth)"
        case let .noTimes(file):
            return "\(file): KITTI poses have no times; give ground truth as TUM (t x y z qx qy qz qw) or EuRoC CSV (t[ns], p, q)"
        case let .noOverlap(file, first, last, datasetFirst, datasetLast):
            return String(format: "%@: ground truth spans %.3f…%.3f s but the dataset's streams span %.3f…%.3f s: no overlap (times in other units, or the wrong file?)",
                          file, first, last, datasetFirst, datasetLast)
        }
    }
}

extension DatasetFolder {
    /// `source` with the trajectory in `file` (TUM, or EuRoC CSV; detected) as its ground truth.
    /// A file whose times do not overlap the dataset's streams is an error, as is a reader that
    /// cannot take one. Before the first packet is read.
    public static func replacingGroundTruth(of source: any DatasetSource, with file: String) throws -> any DatasetSource {
        guard let replacing = source as? any GroundTruthReplacing else {
            throw GroundTruthFileError.notAccepted(file: file, format: source.formatName)
        }
        let format = try TrajectoryFormat.detect(path: file)
        guard format != .kitti else { throw GroundTruthFileError.noTimes(file: file) }
        let trajectory = try TrajectoryFile.read(path: file, format: format, requireIncreasingTimes: true)
        let sensorStamps = source.listing.stamps.filter { $0.key != DatasetStreams.groundTruth }.values.joined()
        if let first = trajectory.poses.first?.timestamp, let last = trajectory.poses.last?.timestamp,
           let lo = sensorStamps.min(), let hi = sensorStamps.max(), last < lo || first > hi {
            throw GroundTruthFileError.noOverlap(file: file, first: first.seconds, last: last.seconds, datasetFirst: lo.seconds, datasetLast: hi.seconds)
        }
        try replacing.replaceGroundTruth(with: trajectory, file: file)
        return source
    }
}

extension Array where Element == StreamDescription {
    /// Declares the ``DatasetStreams/groundTruth`` pose stream (``Pose``, `T_WB`), once.
    mutating func declareGroundTruth() {
        if !contains(where: { $0.name == DatasetStreams.groundTruth }) { append(StreamDescription(StreamKey<Pose>(DatasetStreams.groundTruth))) }
    }
}
