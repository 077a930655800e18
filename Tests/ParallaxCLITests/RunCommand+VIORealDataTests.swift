import Foundation
import Testing
@testable import ParallaxCLI
import TestSupport

/// `vio` on real data damaged as recordings are: EuRoC MH_01's first 3 s with cam0's stamps moved
/// 30 ms later, or with the IMU starting after the camera.
@Suite struct VIORealDataTests {
    /// Before the clock-offset search the filter, 6 σ outside its time-offset prior, diverged
    /// (10.7 m APE over the 20 s clip); now the start finds the offset and says so, and the filter
    /// starts from it.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/MH_01_easy_20s"), "../shared/data/euroc/MH_01_easy_20s is not on this machine"))
    func framesStampedLateAreFoundBeforeTheStart() throws {
        let dir = try TemporaryFolder.make("vio-clock-offset")
        defer { try? FileManager.default.removeItem(at: dir) }
        let late = dir.appendingPathComponent("late")
        try CalibrationOptionTests.eurocPrefix(of: RepositoryPaths.sharedData("euroc/MH_01_easy_20s").path, frames: 60, to: late)
        let csv = late.appendingPathComponent("mav0/cam0/data.csv")
        let rows = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").map { row -> String in
            let fields = row.split(separator: ",")
            guard let stamp = Int64(fields[0]) else { return String(row) }
            return "\(stamp + 30_000_000),\(fields[1])"
        }
        try (rows.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        #expect(parallax(["run", "klt ! vio", late.path, "--out", out.path, "--quiet"]) == 0)
        let run = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        let notes = (run?["report"] as? [String: Any])?["notes"] as? [String] ?? []
        let found = try #require(notes.first { $0.contains("camera–IMU time offset") }, "notes: \(notes)")
        let value = try #require(found.firstMatch(of: /t_camera\) (-?[0-9.]+) ± ([0-9.]+) ms/), "\(found)")
        let offset = try #require(Double(value.1)), sigma = try #require(Double(value.2))
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
        let late = dir.appendingPathComponent("late")
        try CalibrationOptionTests.eurocPrefix(of: RepositoryPaths.sharedData("euroc/MH_01_easy_20s").path, frames: 60, to: late)
        let firstFrame = try #require(Int64(String(contentsOf: late.appendingPathComponent("mav0/cam0/data.csv"), encoding: .utf8)
            .split(separator: "\n").first { !$0.hasPrefix("#") }?.split(separator: ",")[0] ?? ""))
        let imu = late.appendingPathComponent("mav0/imu0/data.csv")
        let rows = try String(contentsOf: imu, encoding: .utf8).split(separator: "\n").filter { row in
            row.hasPrefix("#") || (Int64(row.split(separator: ",")[0]) ?? 0) >= firstFrame + 500_000_000
        }
        try (rows.joined(separator: "\n") + "\n").write(to: imu, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        #expect(parallax(["run", "klt ! vio", late.path, "--out", out.path, "--quiet"]) == 0)
        let run = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        let notes = (run?["report"] as? [String: Any])?["notes"] as? [String] ?? []
        let start = try #require(notes.first { $0.contains("initialized at") }, "notes: \(notes)")
        let value = try #require(start.firstMatch(of: /initialized at ([0-9.]+) s/), "\(start)")
        // Seconds after the first IMU reading: a moving start needs a second of frames after it.
        #expect((Double(value.1) ?? 0) >= 0.95, "\(start)")
    }
}
