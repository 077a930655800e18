import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
import ParallaxFiles

/// Trajectory file formats.
public enum TrajectoryFormat: String, Sendable, CaseIterable {
    /// TUM: `t[s] tx ty tz qx qy qz qw`, space-separated, `#` comments.
    case tum
    /// EuRoC ground truth CSV: `t[ns], px, py, pz, qw, qx, qy, qz[, v, bw, ba]` (≥ 8 columns).
    case euroc
    /// KITTI: 12 numbers per line, the 3×4 `[R | t]` row-major; times from a separate file
    /// (one time in seconds per line) or the line index.
    case kitti

    /// Guesses from the extension and the first data row's column count.
    public static func detect(path: String) throws -> TrajectoryFormat {
        if path.lowercased().hasSuffix(".csv") { return .euroc }
        // The first 64 KiB are enough to see the first data row.
        guard let handle = FileHandle(forReadingAtPath: path) else { throw TrajectoryFileError.unreadable(path: path) }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1 << 16)) ?? Data()
        let text = String(decoding: head, as: UTF8.self)
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let columns = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).count
            if columns == 8 { return .tum }
            if columns == 12 { return .kitti }
            if line.contains(","), columns >= 8 { return .euroc }
            throw TrajectoryFileError.unknownFormat(path: path)
        }
        // Only comments and blank lines (an estimator that wrote no pose): said as such.
        if head.count < 1 << 16 { throw TrajectoryFileError.empty(path: path) }
        throw TrajectoryFileError.unknownFormat(path: path)
    }
}

/// Why a trajectory file could not be read. Names the file and line.
public enum TrajectoryFileError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case unknownFormat(path: String)
    case malformedLine(path: String, line: Int, reason: String)
    case empty(path: String)
    case timesMismatch(path: String, poses: Int, times: Int)

    public var description: String {
        switch self {
        case let .unreadable(p): return "\(p): cannot read trajectory file"
        case let .unknownFormat(p): return "\(p): unknown trajectory format (expected TUM with 8 columns, EuRoC CSV with ≥ 8, or KITTI with 12)"
        case let .malformedLine(p, l, r): return "\(p):\(l): \(r)"
        case let .empty(p): return "\(p): no poses"
        case let .timesMismatch(p, n, t): return "\(p): \(n) poses but \(t) times in the times file"
        }
    }
}

/// Reads and writes trajectory files.
public enum TrajectoryFile {
    /// The comment a pose writer puts before the first pose of an estimator that started again
    /// in a new world frame (after a reset): a TUM reader skips it as any comment, but the poses
    /// on its two sides are in different frames, and one alignment over both mixes them.
    public static let restartComment = "# restart: the estimator started again in a new world frame here; align each stretch on its own"

    /// How many ``restartComment`` lines the file at `path` holds (0 when unreadable).
    public static func restarts(path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).count { $0.hasPrefix(restartComment) }
    }

    /// How far a quaternion's norm may be from 1 (relative: |‖q‖ − 1| ≤ 10⁻³) and still be read
    /// as a rotation (normalized). Files written with 4 decimals (TUM RGB-D's ground truth) are
    /// within 10⁻⁴; a quaternion further off is a wrong column or a broken writer, and
    /// normalizing it would silently change the rotation the file meant (a doubled qw turned
    /// an APE of 0.94° into 6.7°).
    public static let quaternionNormTolerance = 1e-3

    /// Reads `path` in `format` (detected when nil). KITTI uses `kittiTimes` (a file of
    /// seconds, one per line) when given, else the line index as time. A TUM or EuRoC
    /// quaternion whose norm is off 1 by more than ``quaternionNormTolerance`` is refused
    /// naming the file and line. With `requireIncreasingTimes`, a time that is not after the
    /// previous line's (going back, or repeated) is refused naming the file (the times file
    /// for KITTI) and line, as the dataset readers refuse theirs.
    public static func read(path: String, format: TrajectoryFormat? = nil, kittiTimes: String? = nil,
                            requireIncreasingTimes: Bool = false) throws -> Trajectory {
        let format = try format ?? TrajectoryFormat.detect(path: path)
        guard let table = DelimitedText(path: path) else { throw TrajectoryFileError.unreadable(path: path) }
        var poses: [StampedPose] = []
        let name = URL(fileURLWithPath: path).lastPathComponent
        let times = try kittiTimes.map { try readTimes($0, requireIncreasing: requireIncreasingTimes) }
        try table.forEachRow(separatedBy: format == .euroc ? .comma : .whitespace) { row in
            func fail(_ reason: String) -> TrajectoryFileError { .malformedLine(path: path, line: row.line, reason: reason) }
            /// `q` as a rotation, when its norm is 1 within the tolerance.
            func rotation(_ q: Quaternion) throws -> SO3 {
                guard q.norm > 1e-9 else { throw fail("quaternion has zero norm") }
                guard abs(q.norm - 1) <= quaternionNormTolerance else {
                    throw fail("quaternion (w \(q.w), x \(q.x), y \(q.y), z \(q.z)) has norm \(String(format: "%.6f", q.norm)), not 1 (within \(quaternionNormTolerance)): not a rotation")
                }
                return SO3(q)
            }
            /// `stamp` when it is after the previous pose's (or order is not checked).
            func ordered(_ stamp: Timestamp, unit: (Timestamp) -> String) throws -> Timestamp {
                if requireIncreasingTimes, let previous = poses.last?.timestamp, stamp <= previous {
                    throw fail(stamp == previous ? "timestamp repeats timestamp \(unit(stamp))"
                               : "timestamp goes back in time from \(unit(previous)) to \(unit(stamp))")
                }
                return stamp
            }
            func numbers(_ range: Range<Int>) throws -> [Double] {
                try range.map { i in
                    guard let v = row.double(i) else { throw fail("'\(row.string(i))' is not a finite number") }
                    return v
                }
            }
            switch format {
            case .tum:
                guard row.count == 8 else { throw fail("expected 8 columns (t tx ty tz qx qy qz qw), found \(row.count)") }
                let v = try numbers(0..<8)
                let q = try rotation(Quaternion(w: v[7], x: v[4], y: v[5], z: v[6]))
                // Times are kept as written (evo associates on them). The exact stamp: decimal seconds;
                // a stamp too large for seconds (an integer ≥ 10¹⁵, e.g. EuRoC nanoseconds written
                // into a TUM file) is read as nanoseconds — `parallax eval` warns about such units.
                let stamp: Timestamp
                if let ns = row.decimalNanoseconds(0) {
                    stamp = Timestamp(nanoseconds: ns)
                } else if let ns = row.int64(0), abs(v[0]) >= 1e15 {
                    stamp = Timestamp(nanoseconds: ns)
                } else if abs(v[0]) < 9e9 {
                    stamp = Timestamp(seconds: v[0])
                } else {
                    throw fail("timestamp '\(row.string(0))' is out of range (seconds, or integer nanoseconds)")
                }
                poses.append(StampedPose(time: v[0], timestamp: try ordered(stamp) { "\($0.decimalSeconds) s" },
                                         pose: SE3(rotation: q, translation: Vector3(v[1], v[2], v[3]))))
            case .euroc:
                guard row.count >= 8 else { throw fail("expected at least 8 columns (t[ns], p xyz, q wxyz), found \(row.count)") }
                guard let ns = row.int64(0) else { throw fail("timestamp '\(row.string(0))' is not an integer (ns)") }
                let v = try numbers(1..<8)
                let q = try rotation(Quaternion(w: v[3], x: v[4], y: v[5], z: v[6]))
                poses.append(StampedPose(time: Double(ns) / 1e9, timestamp: try ordered(Timestamp(nanoseconds: ns)) { "\($0.nanoseconds) ns" },
                                         pose: SE3(rotation: q, translation: Vector3(v[0], v[1], v[2]))))
            case .kitti:
                guard row.count == 12 else { throw fail("expected 12 numbers (3×4 [R|t] row-major), found \(row.count)") }
                let v = try numbers(0..<12)
                var m = Matrix.identity(4)
                for r in 0..<3 { for c in 0..<4 { m[r, c] = v[r * 4 + c] } }
                let pose: SE3
                do { pose = try SE3(homogeneous: m, tolerance: 1e-4) } catch { throw fail("\(error)") }
                let index = poses.count
                if let times, index >= times.count {
                    throw TrajectoryFileError.timesMismatch(path: path, poses: index + 1, times: times.count)
                }
                let asRead = Matrix3(rows: Vector3(v[0], v[1], v[2]), Vector3(v[4], v[5], v[6]), Vector3(v[8], v[9], v[10]))
                poses.append(StampedPose(time: times?[index] ?? Double(index), pose: pose, rotationAsRead: asRead))
            }
        }
        if let times, times.count != poses.count { throw TrajectoryFileError.timesMismatch(path: path, poses: poses.count, times: times.count) }
        guard !poses.isEmpty else { throw TrajectoryFileError.empty(path: path) }
        return Trajectory(poses: poses, name: name)
    }

    /// Writes EuRoC ground-truth CSV (`t[ns], p xyz, q wxyz`), full round-trip precision.
    public static func writeEuRoC(_ trajectory: Trajectory, to path: String) throws {
        var text = "#timestamp [ns],p_x [m],p_y [m],p_z [m],q_w [],q_x [],q_y [],q_z []\n"
        for p in trajectory.poses {
            let t = p.pose.translation, q = p.pose.rotation.quaternion
            text += "\(p.timestamp.nanoseconds),\(t.x),\(t.y),\(t.z),\(q.w),\(q.x),\(q.y),\(q.z)\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Writes TUM format (`t tx ty tz qx qy qz qw`), 9 decimals for time, full precision for
    /// the rest, so a file read back gives the same poses.
    public static func writeTUM(_ trajectory: Trajectory, to path: String) throws {
        var out = "# timestamp tx ty tz qx qy qz qw\n"
        for p in trajectory.poses {
            let t = p.pose.translation, q = p.pose.rotation.quaternion
            out += "\(p.timestamp.decimalSeconds) \(t.x) \(t.y) \(t.z) \(q.x) \(q.y) \(q.z) \(q.w)\n"
        }
        try out.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A KITTI times file: one time (s) per line; with `requireIncreasing`, each after the last.
    private static func readTimes(_ path: String, requireIncreasing: Bool) throws -> [Double] {
        guard let table = DelimitedText(path: path) else { throw TrajectoryFileError.unreadable(path: path) }
        var out: [Double] = []
        try table.forEachRow(separatedBy: .whitespace) { row in
            guard row.count == 1, let v = row.double(0) else {
                throw TrajectoryFileError.malformedLine(path: path, line: row.line, reason: "expected one time in seconds per line")
            }
            guard Timestamp.isRepresentable(seconds: v) else {
                throw TrajectoryFileError.malformedLine(path: path, line: row.line, reason: "time \(row.string(0)) s is out of range (|t| < 9e9 s)")
            }
            if requireIncreasing, let previous = out.last, v <= previous {
                throw TrajectoryFileError.malformedLine(path: path, line: row.line, reason: v == previous ? "time repeats time \(row.string(0)) s"
                                                        : "time goes back in time from \(previous) s to \(row.string(0)) s")
            }
            out.append(v)
        }
        return out
    }
}
