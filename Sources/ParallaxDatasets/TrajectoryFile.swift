import Foundation
import ParallaxCore
import ParallaxMath

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
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw TrajectoryFileError.unreadable(path: path)
        }
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let columns = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).count
            if columns == 8 { return .tum }
            if columns == 12 { return .kitti }
            if line.contains(","), columns >= 8 { return .euroc }
            break
        }
        throw TrajectoryFileError.unknownFormat(path: path)
    }
}

/// Why a trajectory file could not be read. Names the file and line.
public enum TrajectoryFileError: Error, Equatable, Sendable, CustomStringConvertible {
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
    /// Reads `path` in `format` (detected when nil). KITTI uses `kittiTimes` (a file of
    /// seconds, one per line) when given, else the line index as time.
    public static func read(path: String, format: TrajectoryFormat? = nil, kittiTimes: String? = nil) throws -> Trajectory {
        let format = try format ?? TrajectoryFormat.detect(path: path)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw TrajectoryFileError.unreadable(path: path) }
        var poses: [StampedPose] = []
        let name = URL(fileURLWithPath: path).lastPathComponent
        var kittiRow = 0
        let times = try kittiTimes.map { try readTimes($0) }
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let lineNumber = index + 1
            func fail(_ reason: String) -> TrajectoryFileError { .malformedLine(path: path, line: lineNumber, reason: reason) }
            switch format {
            case .tum:
                let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                guard f.count == 8 else { throw fail("expected 8 columns (t tx ty tz qx qy qz qw), found \(f.count)") }
                let v = try numbers(f, fail)
                let q = Quaternion(w: v[7], x: v[4], y: v[5], z: v[6])
                guard q.norm > 1e-9 else { throw fail("quaternion has zero norm") }
                poses.append(StampedPose(time: v[0], timestamp: decimalTimestamp(f[0]),
                                         pose: SE3(rotation: SO3(q), translation: Vector3(v[1], v[2], v[3]))))
            case .euroc:
                let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard f.count >= 8 else { throw fail("expected at least 8 columns (t[ns], p xyz, q wxyz), found \(f.count)") }
                guard let ns = Int64(f[0]) else { throw fail("timestamp '\(f[0])' is not an integer (ns)") }
                let v = try numbers(Array(f[1..<8]), fail)
                let q = Quaternion(w: v[3], x: v[4], y: v[5], z: v[6])
                guard q.norm > 1e-9 else { throw fail("quaternion has zero norm") }
                poses.append(StampedPose(time: Double(ns) / 1e9, timestamp: Timestamp(nanoseconds: ns),
                                         pose: SE3(rotation: SO3(q), translation: Vector3(v[0], v[1], v[2]))))
            case .kitti:
                let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                guard f.count == 12 else { throw fail("expected 12 numbers (3×4 [R|t] row-major), found \(f.count)") }
                let v = try numbers(f, fail)
                var m = Matrix.identity(4)
                for r in 0..<3 { for c in 0..<4 { m[r, c] = v[r * 4 + c] } }
                let pose: SE3
                do { pose = try SE3(homogeneous: m, tolerance: 1e-4) } catch { throw fail("\(error)") }
                let t: Double
                if let times {
                    guard kittiRow < times.count else { throw TrajectoryFileError.timesMismatch(path: path, poses: kittiRow + 1, times: times.count) }
                    t = times[kittiRow]
                } else {
                    t = Double(kittiRow)
                }
                kittiRow += 1
                poses.append(StampedPose(time: t, pose: pose))
            }
        }
        if let times, times.count != kittiRow { throw TrajectoryFileError.timesMismatch(path: path, poses: kittiRow, times: times.count) }
        guard !poses.isEmpty else { throw TrajectoryFileError.empty(path: path) }
        return Trajectory(poses: poses, name: name)
    }

    /// Writes TUM format (`t tx ty tz qx qy qz qw`), 9 decimals for time, full precision for
    /// the rest, so a file read back gives the same poses.
    public static func writeTUM(_ trajectory: Trajectory, to path: String) throws {
        var out = "# timestamp tx ty tz qx qy qz qw\n"
        for p in trajectory.poses {
            let t = p.pose.translation, q = p.pose.rotation.quaternion
            let ns = p.timestamp.nanoseconds
            let seconds = "\(ns / 1_000_000_000).\(String(format: "%09lld", abs(ns % 1_000_000_000)))"
            out += "\(seconds) \(t.x) \(t.y) \(t.z) \(q.x) \(q.y) \(q.z) \(q.w)\n"
        }
        try out.write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func numbers(_ fields: [String], _ fail: (String) -> TrajectoryFileError) throws -> [Double] {
        try fields.map {
            guard let v = Double($0), v.isFinite else { throw fail("'\($0)' is not a finite number") }
            return v
        }
    }

    /// Exact nanoseconds from a decimal seconds string ("1305031102.175304" → 1305031102175304000).
    static func decimalTimestamp(_ text: String) -> Timestamp? {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard let whole = Int64(parts[0]) else { return nil }
        var fraction: Int64 = 0
        if parts.count == 2 {
            let digits = String(parts[1].prefix(9)).padding(toLength: 9, withPad: "0", startingAt: 0)
            guard let f = Int64(digits), parts[1].allSatisfy(\.isNumber) else { return nil }
            fraction = f
        }
        return Timestamp(nanoseconds: whole * 1_000_000_000 + (text.hasPrefix("-") ? -fraction : fraction))
    }

    private static func readTimes(_ path: String) throws -> [Double] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw TrajectoryFileError.unreadable(path: path) }
        var out: [Double] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let v = Double(line), v.isFinite else {
                throw TrajectoryFileError.malformedLine(path: path, line: i + 1, reason: "'\(line)' is not a time in seconds")
            }
            out.append(v)
        }
        return out
    }
}
