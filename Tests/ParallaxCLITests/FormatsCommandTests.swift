import Foundation
import Testing
import Parallax
@testable import ParallaxCLI
@testable import ParallaxApp

@Suite struct FormatsCommandTests {
    /// The bundled EuRoC cut in every format: 752×480 native first, each derived one delivered
    /// under cam0's name with its calibration binned, every k-th frame at its own time.
    @Test func formattedDatasetsKeepNamesAndTimes() throws {
        let formats = try FormatSweep.formats(of: Paths.cut, camera: "cam0", options: DatasetOptions())
        #expect(formats.count == 9 && formats[0].recommended && formats[0].width == 752)
        let half = try #require(formats.first { $0.scaleDivisor == 2 && $0.rateDivisor == 2 })
        let source = try FormattedDatasetSource(try DatasetFolder.open(Paths.cut), format: half)
        let camera = try #require(source.streams.first { $0.name == "cam0" }?.metadata.camera)
        #expect(camera.model.width == 376 && abs(camera.model.intrinsics.fx - 458.654 / 2) < 1e-9)
        var frames: [AnyPacket] = []
        while let p = try source.next() { if p.stream == "cam0" { frames.append(p) } }
        let native = try DatasetFolder.open(Paths.cut).listing.stamps["cam0"] ?? []
        #expect(frames.map(\.timestamp) == stride(from: 0, to: native.count, by: 2).map { native[$0] })
        #expect(source.listing.stamps["cam0"] == frames.map(\.timestamp))
        #expect((frames.first?.payload as? CameraFrame)?.width == 376)
        #expect(throws: DatasetError.self) { _ = try FormattedDatasetSource(try DatasetFolder.open(Paths.cut), format: VideoFormat(camera: "cam9", width: 1, height: 1, frameRateHz: nil, pixelFormat: .gray8)) }
    }

    /// A sweep scores every format, writes its table and plot, and gives the same errors twice.
    @Test func sweepIsReproducible() throws {
        var errors: [[Double]] = []
        for k in 0..<2 {
            let out = Paths.temporary("formats-\(k)")
            defer { try? FileManager.default.removeItem(at: out) }
            #expect(parallax(["formats", Paths.cut, "--chain", "imu-integrator camera=cam0 imu=imu0", "--evaluate", "gyro-rotation", "--min-fps", "10", "--out", out.path]) == 0)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("formats.json"))) as? [[String: Any]]
            errors.append((json ?? []).compactMap { $0["error"] as? Double })
            #expect(try String(contentsOf: out.appendingPathComponent("formats.svg"), encoding: .utf8).contains("Pareto front"))
        }
        #expect(errors[0].count == 9 && errors[0] == errors[1])
        #expect(parallax(["formats", Paths.cut, "--chain", "stream-stats"]) == 2)  // --evaluate missing
        #expect(parallax(["formats", Paths.cut, "--camera", "cam7"]) == 2)
        #expect(parallax(["formats", Paths.cut, "--out", Paths.temporary("formats-unused").path]) == 2)  // --out without a measurement
    }

    /// A folder written by `parallax simulate` keeps its scene's geometry (scene.txt): the
    /// `landmarks` evaluation scores `klt ! triangulate` on it (as `formats` does at every
    /// format) as it does on a simulation in memory.
    @Test func simulatedFoldersAreScoredByTheirScene() throws {
        let sim = Paths.temporary("formats-sim"), out = Paths.temporary("formats-sim-out")
        defer { for u in [sim, out] { try? FileManager.default.removeItem(at: u) } }
        // A small camera (188×120, no lens distortion) without depth keeps the debug build quick.
        let calibration = try String(contentsOfFile: Paths.cut + "/mav0/cam0/sensor.yaml", encoding: .utf8)
            .replacingOccurrences(of: "resolution: [752, 480]", with: "resolution: [188, 120]")
            .replacingOccurrences(of: "intrinsics: [458.654, 457.296, 367.215, 248.375]", with: "intrinsics: [114.66, 114.32, 91.68, 61.97]")
            .replacingOccurrences(of: "distortion_model: radial-tangential", with: "distortion_model: none")
        let camera = Paths.temporary("formats-sim-camera.yaml")
        defer { try? FileManager.default.removeItem(at: camera) }
        try calibration.write(to: camera, atomically: true, encoding: .utf8)
        #expect(parallax(["simulate", "--seconds", "1", "--depth-rate", "0", "--camera-calibration", camera.path, "--out", sim.path]) == 0)
        #expect(FileManager.default.fileExists(atPath: sim.appendingPathComponent("scene.txt").path))
        #expect(parallax(["bench", "--chain", "klt camera=cam0 ! triangulate", "--dataset", sim.path, "--evaluate", "landmarks", "--out", out.path]) == 0)
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("| ok |"))
    }
}
