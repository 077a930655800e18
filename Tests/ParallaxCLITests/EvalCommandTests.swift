import Foundation
import Testing
import ParallaxMath
import ParallaxPayloads
import ParallaxEval
@testable import ParallaxCLI

/// `parallax eval`'s table.
@Suite struct EvalCommandTests {
    /// Truth and estimate of a platform standing still: positions within a millimetre, and
    /// errors as large.
    func still(_ n: Int) -> (Trajectory, Trajectory) {
        let truth = Trajectory(poses: (0..<n).map { i in
            StampedPose(time: Double(i) * 0.05, pose: SE3(translation: 0.0005 * Vector3(sin(Double(i)), cos(1.7 * Double(i)), sin(2.3 * Double(i)))))
        }, name: "gt.txt")
        let estimate = Trajectory(poses: truth.poses.enumerated().map { i, p in
            StampedPose(time: p.time, pose: SE3(rotation: .exp(Vector3(0, 0, 0.01 * Double(i))),
                                                translation: p.pose.translation + 0.001 * Vector3(cos(3.1 * Double(i)), sin(0.7 * Double(i)), 0)))
        }, name: "est.txt")
        return (truth, estimate)
    }

    @Test func aRotationTheMotionDoesNotDetermineIsSaidToBeSo() throws {
        let (truth, estimate) = still(80)
        let (result, _) = try TrajectoryEvaluation.evaluate(reference: truth, estimate: estimate)
        let table = EvalCommand.table(result)
        #expect(table.contains("the APE rotation measures the alignment, not the estimate"))
        #expect(table.contains("se3 alignment's rotation is undetermined"))
    }

    /// `--fit-offset`: an estimate stamped 7 ms early against its truth (200 Hz) is found so; with
    /// `--json` the line goes to the error stream, the standard output staying JSON.
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"))
    func theBestFittingClockOffsetIsFoundOnRequest() throws {
        let dir = Paths.temporary("fit-offset")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func position(_ t: Double) -> (Double, Double, Double) { (cos(1.3 * t), sin(0.9 * t), 0.4 * sin(1.7 * t)) }
        func tum(_ times: [Double], lag: Double) -> String {
            times.map { t in let p = position(t + lag); return "\(t) \(p.0) \(p.1) \(p.2) 0 0 0 1" }.joined(separator: "\n") + "\n"
        }
        let gt = dir.appendingPathComponent("gt.txt").path, est = dir.appendingPathComponent("est.txt").path
        try tum((0..<4000).map { 100 + Double($0) * 0.005 }, lag: 0).write(toFile: gt, atomically: true, encoding: .utf8)
        try tum((0..<380).map { 100.5 + Double($0) * 0.05 }, lag: 0.007).write(toFile: est, atomically: true, encoding: .utf8)
        let run = try RealExecutable.start(["eval", gt, est, "--align", "se3", "--fit-offset", "--json"])
        let errors = run.finish()
        #expect(run.process.terminationStatus == 0, "\(errors)")
        #expect(errors.contains("best-fitting clock offset: the reference 7.0 ms later"), "\(errors)")
    }

    @Test func aMovingTrajectoryGetsNoSuchLine() throws {
        let truth = Trajectory(poses: (0..<80).map { i in
            StampedPose(time: Double(i) * 0.05, pose: SE3(translation: Vector3(cos(0.1 * Double(i)), sin(0.13 * Double(i)), 0.01 * Double(i))))
        })
        let (result, _) = try TrajectoryEvaluation.evaluate(reference: truth, estimate: truth)
        #expect(!EvalCommand.table(result).contains("measures the alignment"))
    }
}
