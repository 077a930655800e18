import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxImage
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs

/// Writes a ``Pose`` stream as a TUM trajectory (`t tx ty tz qx qy qz qw`, exact decimal
/// seconds, full precision), readable by `parallax eval` and evo. Only estimates are written:
/// poses of an estimator still initializing, relocalizing into a map, or without tracking
/// (`limited(initializing)`, `limited(relocalizing)`, `notAvailable`) carry no position and
/// are left out, as are poses that are not finite
/// (counted in ``skipped``). After a reset (`notAvailable`) the first pose written again is
/// preceded by ``TrajectoryFile/restartComment``: the estimator's new world frame starts there.
public final class TUMTrajectoryWriter: StreamFileWriter {
    /// The final path.
    public var path: String { file.path }
    /// Poses not written because a value was not finite.
    public private(set) var skipped = 0
    /// Poses without an estimate (initializing, relocalizing, not available), not written.
    public private(set) var withoutEstimate = 0
    /// Poses written.
    public private(set) var written = 0
    private let file: StagedTextFile
    /// Whether a `notAvailable` pose (the estimator reset) came since the last pose written.
    private var resetSinceLastWritten = false

    /// Starts `path.partial`.
    public init(path: String) throws {
        file = try StagedTextFile(path: path, name: "a pose list", header: "# timestamp tx ty tz qx qy qz qw\n")
    }

    public func write(_ packet: AnyPacket) throws {
        guard let pose = packet.payload as? Pose else { return }
        guard ![.limited(.initializing), .limited(.relocalizing), .notAvailable].contains(pose.trackingState) else {
            if pose.trackingState == .notAvailable, written > 0 { resetSinceLastWritten = true }
            withoutEstimate += 1
            return
        }
        let t = pose.worldFromBody.translation, q = pose.worldFromBody.rotation.quaternion
        guard [t.x, t.y, t.z, q.w, q.x, q.y, q.z].allSatisfy(\.isFinite) else { skipped += 1; return }
        if resetSinceLastWritten {
            try file.append(TrajectoryFile.restartComment + "\n")
            resetSinceLastWritten = false
        }
        try file.append("\(packet.timestamp.decimalSeconds) \(t.x) \(t.y) \(t.z) \(q.x) \(q.y) \(q.z) \(q.w)\n")
        written += 1
    }

    public var warnings: [String] {
        skipped == 0 ? [] : ["\(skipped) pose(s) with non-finite values not written to \(path)"]
    }

    public var notes: [String] {
        withoutEstimate == 0 ? [] : ["\(written) pose(s) written to \((path as NSString).lastPathComponent); \(withoutEstimate) without an estimate (initializing, relocalizing or not available) left out"]
    }

    public func finish() throws -> String { try file.finish() }
}
