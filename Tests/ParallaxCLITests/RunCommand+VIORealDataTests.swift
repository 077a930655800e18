import Foundation
import Testing
@testable import ParallaxCLI
import ParallaxCodecs
import Parallax
import TestSupport

/// `vio` on real data damaged as recordings are: EuRoC MH_01's first 3 s with cam0's stamps moved
/// later, with the IMU starting after the camera, or both.
@Suite struct VIORealDataTests {
    /// MH_01's first 60 frames (and their IMU) in a new folder under `dir`, `damage` applied to its
    /// `mav0` folder, run through `klt ! vio`: the run's notes and its output folder.
    static func run(in dir: URL, damage: (URL) throws -> Void) throws -> (notes: [String], out: URL) {
        let clip = dir.appendingPathComponent("clip")
        try CalibrationOptionTests.eurocPrefix(of: RepositoryPaths.sharedData("euroc/MH_01_easy_20s").path, frames: 60, to: clip)
        try damage(clip.appendingPathComponent("mav0"))
        let out = dir.appendingPathComponent("out")
        #expect(parallax(["run", "klt ! vio", clip.path, "--out", out.path, "--quiet"]) == 0)
        let run = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        return ((run?["report"] as? [String: Any])?["notes"] as? [String] ?? [], out)
    }

    /// Damages an EuRoC `mav0` folder as a recording can be: cam0's stamps moved `cameraLate` ns
    /// later, each also off by up to `jitter` ns (frame `k` by `jitter · sin(1.7 k)`: irregular,
    /// as a camera stamping frames on arrival), and the IMU's readings before `imuLate` ns after
    /// the first frame (as stamped before the move) dropped.
    static func damage(_ mav0: URL, cameraLate: Int64 = 0, jitter: Int64 = 0, imuLate: Int64 = 0) throws {
        var first: Int64?
        var k = 0
        try rewrite(mav0.appendingPathComponent("cam0/data.csv")) { f in
            guard let stamp = Int64(f[0]) else { return nil }
            first = first ?? stamp
            defer { k += 1 }
            return "\(stamp + cameraLate + Int64((Double(jitter) * sin(1.7 * Double(k))).rounded())),\(f[1])"
        }
        guard imuLate > 0 else { return }
        let cut = (first ?? 0) + imuLate
        try rewrite(mav0.appendingPathComponent("imu0/data.csv")) { f in (Int64(f[0]) ?? 0) >= cut ? f.joined(separator: ",") : nil }
    }

    /// The offset note's value and σ (ms).
    static func offsetFound(in notes: [String]) throws -> (offset: Double, sigma: Double, note: String) {
        let found = try #require(notes.first { $0.contains("camera–IMU time offset") }, "notes: \(notes)")
        let value = try #require(found.firstMatch(of: /t_camera\) (-?[0-9.]+) ± ([0-9.]+) ms/), "\(found)")
        return (try #require(Double(value.1)), try #require(Double(value.2)), found)
    }

    /// Rewrites the CSV at `file` keeping its comment lines and mapping each row's fields.
    static func rewrite(_ file: URL, _ row: ([Substring]) -> String?) throws {
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            line.hasPrefix("#") ? String(line) : row(line.split(separator: ","))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    /// Before the clock-offset search the filter, 6 σ outside its time-offset prior, diverged
    /// (10.7 m APE over the 20 s clip); now the start finds the offset and says so, and the filter
    /// starts from it.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/MH_01_easy_20s"), "../shared/data/euroc/MH_01_easy_20s is not on this machine"))
    func framesStampedLateAreFoundBeforeTheStart() throws {
        let dir = try TemporaryFolder.make("vio-clock-offset")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (notes, out) = try Self.run(in: dir) { try Self.damage($0, cameraLate: 30_000_000) }
        let (offset, sigma, found) = try Self.offsetFound(in: notes)
        #expect(abs(offset + 30) < 2 && sigma < 2, "\(found)")
        #expect(found.contains("the filter starts from"), "\(found)")
        let poses = try String(contentsOf: out.appendingPathComponent("vio/pose.tum"), encoding: .utf8).split(separator: "\n").count
        #expect(poses >= 15, "\(poses) poses")
    }

    /// The IMU starting 0.5 s after the first frame: the moving start used to align frames from
    /// before the first reading (14.5 m APE over the 20 s clip); it now waits for frames the IMU
    /// covers, and the first pose comes a second after the IMU's first reading.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/MH_01_easy_20s"), "../shared/data/euroc/MH_01_easy_20s is not on this machine"))
    func anIMUStartingAfterTheCameraStartsTheFilterWithinItsData() throws {
        let dir = try TemporaryFolder.make("vio-imu-late")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (notes, _) = try Self.run(in: dir) { try Self.damage($0, imuLate: 500_000_000) }
        let start = try #require(notes.first { $0.contains("initialized at") }, "notes: \(notes)")
        let value = try #require(start.firstMatch(of: /initialized at ([0-9.]+) s/), "\(start)")
        // Seconds after the first IMU reading: a moving start needs a second of frames after it.
        #expect((Double(value.1) ?? 0) >= 0.95, "\(start)")
    }

    /// Frames stamped 130 ms late and the IMU starting a second after the first frame: the
    /// search sees a short stretch of frames, over which a shift and a gyro bias turn the pairs
    /// alike. With the bias fitted once and kept for every shift the offset came out 8 σ
    /// toward zero (−118.5 ± 1.4 ms on the whole clip); fitted at every shift, it is found.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/MH_01_easy_20s"), "../shared/data/euroc/MH_01_easy_20s is not on this machine"))
    func aLateCameraWithALateIMUIsFoundWithoutBias() throws {
        let dir = try TemporaryFolder.make("vio-late-both")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (notes, _) = try Self.run(in: dir) { try Self.damage($0, cameraLate: 130_000_000, imuLate: 1_000_000_000) }
        let (offset, sigma, found) = try Self.offsetFound(in: notes)
        #expect(abs(offset + 130) < 3 * sigma, "\(found)")
    }

    /// Frames stamped 50 ms early and ±3 ms at random (σ 2.1 ms): the search's pairs are compared
    /// at stamps that far off, and its offset (46.3 ± 2.5 ms) was refused as undetermined at the
    /// 2 ms a found offset had to reach; the filter then started from 0 and was lost. An offset
    /// within twice the stamps' own jitter now counts as found.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/MH_01_easy_20s"), "../shared/data/euroc/MH_01_easy_20s is not on this machine"))
    func anEarlyCameraWithJitteryStampsIsFound() throws {
        let dir = try TemporaryFolder.make("vio-early-jitter")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (notes, _) = try Self.run(in: dir) { try Self.damage($0, cameraLate: -50_000_000, jitter: 3_000_000) }
        let (offset, sigma, found) = try Self.offsetFound(in: notes)
        #expect(abs(offset - 50) < 3 * sigma, "\(found)")
    }
    /// Frames stamped 450 ms early, beyond the set search (±100 ms): their exposures lie 450 ms
    /// past their stamps, so the search needs the IMU that far past the frames. The input used to
    /// reach only 100 ms, the offset stayed undetermined and the filter started only when
    /// standing still (17.75 s into the 20 s clip); the pose at each stamp, carried back 450 ms
    /// from the exposure, then went first order past the 0.35 s of readings kept (84 mm at 400 ms).
    /// Now found, and the poses near the undamaged clip's.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/MH_01_easy_20s"), "../shared/data/euroc/MH_01_easy_20s is not on this machine"))
    func aCameraStampingFarEarlyIsFoundAndItsPosesCarriedBack() throws {
        let dir = try TemporaryFolder.make("vio-far-early")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (notes, out) = try Self.run(in: dir) { try Self.damage($0, cameraLate: -450_000_000) }
        let (offset, sigma, found) = try Self.offsetFound(in: notes)
        #expect(abs(offset - 450) < 2 && sigma < 2, "\(found)")
        let truth = RepositoryPaths.sharedData("euroc/MH_01_easy_20s").appendingPathComponent("mav0/state_groundtruth_estimate0/data.csv").path
        let early = try Self.apeSE3(truth: truth, estimate: out.appendingPathComponent("vio/pose.tum").path)
        let plainDir = try TemporaryFolder.make("vio-far-early-plain")
        defer { try? FileManager.default.removeItem(at: plainDir) }
        let (_, plainOut) = try Self.run(in: plainDir) { _ in }
        let plain = try Self.apeSE3(truth: truth, estimate: plainOut.appendingPathComponent("vio/pose.tum").path)
        // It starts 0.3 s later (the wider search needs its frames' readings on both sides), so
        // over a shorter, different stretch: 34 poses against 40, 4.8 against 1.4 mm.
        #expect(early.poses >= plain.poses - 8, "\(early.poses) poses, undamaged \(plain.poses)")
        #expect(early.rmse < 2.5 * plain.rmse + 0.002, "APE \(early.rmse) m, undamaged \(plain.rmse) m")
    }

    /// SE3-aligned position APE (RMSE, m) of a pose file against EuRoC ground truth, and its poses.
    static func apeSE3(truth: String, estimate: String) throws -> (rmse: Double, poses: Int) {
        let reference = try TrajectoryFile.read(path: truth, format: .euroc)
        let poses = try TrajectoryFile.read(path: estimate, format: .tum)
        let (result, _) = try TrajectoryEvaluation.evaluate(reference: reference, estimate: poses)
        return (result.apeTranslation.rmse, poses.count)
    }
}
