import ParallaxBus
import ParallaxMath

/// A pose at a time: one row of a trajectory file.
public struct StampedPose: Sendable, Equatable {
    /// Time in seconds exactly as the file gives it (TUM: the decimal text; EuRoC: ns / 1e9).
    /// Evaluation associates on this value, as evo does, so results match evo bit for bit.
    public var time: Double
    /// The same time in integer nanoseconds (exact for EuRoC's ns stamps).
    public var timestamp: Timestamp
    /// Body-to-world transform `T_WB`.
    public var pose: SE3
    /// The rotation block exactly as the file gives it, when the file gives a matrix (KITTI).
    /// Such files print 7 significant digits, so the block is orthonormal only to about 1e-7;
    /// `pose` holds the closest rotation, and evaluation uses this block as evo does (RPE
    /// composes the matrices as read), so that every statistic matches evo's.
    public var rotationAsRead: Matrix3?

    /// A stamped pose; `timestamp` defaults to `time` rounded to the nanosecond.
    public init(time: Double, timestamp: Timestamp? = nil, pose: SE3, rotationAsRead: Matrix3? = nil) {
        self.time = time
        self.timestamp = timestamp ?? Timestamp(seconds: time)
        self.pose = pose
        self.rotationAsRead = rotationAsRead
    }
}

/// A sequence of stamped poses (ground truth or an estimate), in file order.
public struct Trajectory: Sendable, Equatable {
    /// The poses.
    public var poses: [StampedPose]
    /// A name for reports (usually the file name).
    public var name: String

    /// A trajectory.
    public init(poses: [StampedPose], name: String = "") {
        self.poses = poses
        self.name = name
    }

    /// Number of poses.
    public var count: Int { poses.count }
    /// Positions `p_WB` (m).
    public var positions: [Vector3] { poses.map(\.pose.translation) }
    /// Times (s).
    public var times: [Double] { poses.map(\.time) }

    /// Total path length Σ‖p(i+1) − p(i)‖ (m).
    public var pathLength: Double {
        zip(poses.dropFirst(), poses).reduce(0) { $0 + ($1.0.pose.translation - $1.1.pose.translation).norm }
    }

    /// The poses at `indices`, in that order.
    public func subset(_ indices: [Int]) -> Trajectory {
        Trajectory(poses: indices.map { poses[$0] }, name: name)
    }
}

extension Trajectory {
    /// The pose at `time` (s, the file's time as ``StampedPose/time``), interpolated on SE(3)
    /// between the two surrounding poses (times must be increasing); `nil` outside the
    /// trajectory's time span.
    public func pose(at time: Double) -> SE3? {
        guard let first = poses.first, let last = poses.last, time >= first.time, time <= last.time else { return nil }
        let (a, b) = bracket { $0.time <= time }
        let s = b.time > a.time ? (time - a.time) / (b.time - a.time) : 0
        return a.pose.interpolated(to: b.pose, t: s)
    }

    /// The pose at `timestamp` (exact integer nanoseconds: a pose stamped `timestamp` is
    /// returned as is), interpolated on SE(3) between the two surrounding poses; `nil` outside
    /// the span, or when those two poses are more than `maxGap` apart.
    public func pose(at timestamp: Timestamp, maxGap: Nanoseconds? = nil) -> SE3? {
        guard let first = poses.first, let last = poses.last, timestamp >= first.timestamp, timestamp <= last.timestamp else { return nil }
        let (a, b) = bracket { $0.timestamp <= timestamp }
        if a.timestamp == timestamp { return a.pose }
        if b.timestamp == timestamp { return b.pose }
        let gap = b.timestamp.nanoseconds - a.timestamp.nanoseconds
        if let maxGap, gap > maxGap { return nil }
        return a.pose.interpolated(to: b.pose, t: Double(timestamp.nanoseconds - a.timestamp.nanoseconds) / Double(gap))
    }

    /// The last pose with `isAtOrBefore` true and the one after it (binary search; the caller
    /// has checked that the query lies in the span).
    private func bracket(_ isAtOrBefore: (StampedPose) -> Bool) -> (StampedPose, StampedPose) {
        var lo = 0, hi = poses.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if isAtOrBefore(poses[mid]) { lo = mid } else { hi = mid }
        }
        return (poses[lo], poses[hi])
    }
}
