import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxMath
@testable import ParallaxCodecs

@Suite struct TrajectoryFileTests {
    func temp(_ name: String, _ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-\(UUID())-\(name)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func readsTUMWithExactNanosecondsAndCRLF() throws {
        let path = try temp("a.txt", "# t tx ty tz qx qy qz qw\r\n1305031102.175304 1 2 3 0 0 0 1\r\n\r\n1305031102.2 1.5 2 3 0 0 0.7071067811865476 0.7071067811865476\r\n")
        let t = try TrajectoryFile.read(path: path)
        #expect(t.count == 2)
        #expect(t.poses[0].timestamp.nanoseconds == 1_305_031_102_175_304_000)
        #expect(t.poses[0].time == 1305031102.175304)
        #expect(abs(t.poses[1].pose.rotation.angle - .pi / 2) < 1e-12)
    }

    @Test func tumRoundTripIsLossless() throws {
        // Negative stamps too (a clock whose epoch is inside the recording): -1.25 s, -0.5 s.
        let stamps: [Int64] = [-1_250_000_001, -500_000_000] + (0..<18).map { 1_403_715_273_262_142_976 + Int64($0) * 50_000_123 }
        let poses = (0..<20).map { i in
            StampedPose(time: 0, timestamp: Timestamp(nanoseconds: stamps[i]),
                        pose: SE3(rotation: .exp(Vector3(0.1 * Double(i), -0.3, 0.2)), translation: Vector3(Double(i) / 3, 1e-9, -2.5)))
        }
        let path = try temp("rt.txt", "")
        try TrajectoryFile.writeTUM(Trajectory(poses: poses), to: path)
        let back = try TrajectoryFile.read(path: path)
        #expect(back.poses.map(\.timestamp) == poses.map(\.timestamp))
        for (a, b) in zip(back.poses, poses) {
            #expect(a.pose.translation == b.pose.translation)
            #expect((a.pose.rotation.inverse * b.pose.rotation).angle < 1e-15)
        }
    }

    @Test func readsEuRoCAndKITTI() throws {
        let euroc = try temp("gt.csv", "#timestamp, p_x, p_y, p_z, q_w, q_x, q_y, q_z\n1403715524907143168,0.5,2.0,0.9,1,0,0,0\n")
        let e = try TrajectoryFile.read(path: euroc)
        #expect(e.poses[0].timestamp.nanoseconds == 1403715524907143168)
        #expect(e.poses[0].time == Double(1403715524907143168) / 1e9)
        let kitti = try temp("k.txt", "1 0 0 1 0 1 0 2 0 0 1 3\n1 0 0 4 0 1 0 5 0 0 1 6\n")
        let times = try temp("times.txt", "0.0\n0.1\n")
        let k = try TrajectoryFile.read(path: kitti, kittiTimes: times)
        #expect(k.positions == [Vector3(1, 2, 3), Vector3(4, 5, 6)] && k.times == [0, 0.1])
        #expect(throws: TrajectoryFileError.timesMismatch(path: kitti, poses: 2, times: 1)) {
            _ = try TrajectoryFile.read(path: kitti, kittiTimes: try temp("t1.txt", "0.0\n"))
        }
        // A times file with a time beyond 64-bit nanoseconds trapped; now its line is named.
        let huge = try temp("t2.txt", "0.0\n1e300\n")
        #expect(throws: TrajectoryFileError.malformedLine(path: huge, line: 2, reason: "time 1e300 s is out of range (|t| < 9e9 s)")) {
            _ = try TrajectoryFile.read(path: kitti, kittiTimes: huge)
        }
        // Timestamps from seconds never trap: they saturate (readers check the range first).
        #expect(Timestamp(seconds: 1e300).nanoseconds == .max && Timestamp(seconds: -.infinity).nanoseconds == .min)
        #expect(Timestamp(seconds: .nan).nanoseconds == 0 && Timestamp(seconds: 1.5).nanoseconds == 1_500_000_000)
    }

    @Test func badLinesNameFileAndLine() throws {
        let path = try temp("bad.txt", "1 0 0 0 0 0 0 1\n2 0 0 zero 0 0 0 1\n")
        #expect(throws: TrajectoryFileError.malformedLine(path: path, line: 2, reason: "'zero' is not a finite number")) {
            _ = try TrajectoryFile.read(path: path)
        }
        let short = try temp("short.txt", "1 0 0 0 0 0 0 1\n2 0 0 0 0 0 1\n")
        #expect(throws: TrajectoryFileError.self) { _ = try TrajectoryFile.read(path: short, format: .tum) }
        let zeroQ = try temp("q.txt", "1 0 0 0 0 0 0 0\n")
        #expect(throws: TrajectoryFileError.malformedLine(path: zeroQ, line: 1, reason: "quaternion has zero norm")) {
            _ = try TrajectoryFile.read(path: zeroQ)
        }
        #expect(throws: TrajectoryFileError.unreadable(path: "/nonexistent.txt")) { _ = try TrajectoryFile.read(path: "/nonexistent.txt") }
        let empty = try temp("empty.txt", "# nothing\n")
        #expect(throws: TrajectoryFileError.self) { _ = try TrajectoryFile.read(path: empty, format: .tum) }
        // Without a format given: an estimator's pose file with only its header says "no poses",
        // not "unknown format"; a row of another width is still an unknown format.
        #expect(throws: TrajectoryFileError.empty(path: empty)) { _ = try TrajectoryFile.read(path: empty) }
        let blank = try temp("blank.txt", "")
        #expect(throws: TrajectoryFileError.empty(path: blank)) { _ = try TrajectoryFile.read(path: blank) }
        let wide = try temp("wide.txt", "# t x\n1 2 3 4 5\n")
        #expect(throws: TrajectoryFileError.unknownFormat(path: wide)) { _ = try TrajectoryFile.read(path: wide) }
    }

    /// Times that go back or repeat are refused with `requireIncreasingTimes` (as `parallax
    /// eval` reads), naming the file and line; TUM, EuRoC and a KITTI times file alike.
    @Test func timesGoingBackAreRefusedWhenAsked() throws {
        let swapped = try temp("swapped.txt", "1 0 0 0 0 0 0 1\n3 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n")
        #expect(try TrajectoryFile.read(path: swapped).poses.count == 3)
        #expect(throws: TrajectoryFileError.malformedLine(path: swapped, line: 3, reason: "timestamp goes back in time from 3.000000000 s to 2.000000000 s")) {
            _ = try TrajectoryFile.read(path: swapped, requireIncreasingTimes: true)
        }
        let repeated = try temp("repeated.csv", "#t,px,py,pz,qw,qx,qy,qz\n100,0,0,0,1,0,0,0\n200,0,0,0,1,0,0,0\n200,1,0,0,1,0,0,0\n")
        #expect(throws: TrajectoryFileError.malformedLine(path: repeated, line: 4, reason: "timestamp repeats timestamp 200 ns")) {
            _ = try TrajectoryFile.read(path: repeated, requireIncreasingTimes: true)
        }
        let kitti = try temp("poses.txt", "1 0 0 0 0 1 0 0 0 0 1 0\n1 0 0 1 0 1 0 0 0 0 1 0\n")
        let times = try temp("times.txt", "0.5\n0.25\n")
        #expect(throws: TrajectoryFileError.malformedLine(path: times, line: 2, reason: "time goes back in time from 0.5 s to 0.25 s")) {
            _ = try TrajectoryFile.read(path: kitti, format: .kitti, kittiTimes: times, requireIncreasingTimes: true)
        }
    }

    /// A quaternion whose norm is off 1 by more than 10⁻³ (qw doubled) is refused naming the
    /// file and line; one within it is normalized.
    @Test func nonUnitQuaternionsAreRefusedBeyondTheTolerance() throws {
        let doubled = try temp("doubled.txt", "1 0 0 0 0 0 0.6 1.6\n")
        #expect(throws: TrajectoryFileError.malformedLine(path: doubled, line: 1,
                                                          reason: "quaternion (w 1.6, x 0.0, y 0.0, z 0.6) has norm 1.708801, not 1 (within 0.001): not a rotation")) {
            _ = try TrajectoryFile.read(path: doubled)
        }
        let csv = try temp("doubled.csv", "100,0,0,0,1.6,0,0,0.6\n")
        #expect(throws: TrajectoryFileError.self) { _ = try TrajectoryFile.read(path: csv) }
        // 0.6² + 0.8² = 1; written to 4 decimals with a slip in the last one: norm 1.00008.
        let rounded = try temp("rounded.txt", "1 0 0 0 0 0 0.6001 0.8\n")
        let q = try TrajectoryFile.read(path: rounded).poses[0].pose.rotation.quaternion
        #expect(abs(q.norm - 1) < 1e-12 && abs(q.z - 0.6001 / (0.6001 * 0.6001 + 0.64).squareRoot()) < 1e-12)
    }
}
