import ArgumentParser
import Foundation
import Testing
import TestSupport
import Parallax
@testable import ParallaxCLI
@testable import ParallaxApp

/// Runs the CLI in-process, as the executable does, and returns its exit status (0, 1 run
/// failed, 2 bad usage or input).
/// Benchmarks run by the tests are recorded in a database of their own, not the user's.
func parallax(_ arguments: [String]) -> Int32 {
    _ = testResultsDatabase
    return ParallaxCLI.run(arguments)
}

let testResultsDatabase: Void = {
    if ProcessInfo.processInfo.environment["PARALLAX_RESULTS_DB"] == nil {
        setenv("PARALLAX_RESULTS_DB", FileManager.default.temporaryDirectory.appendingPathComponent("parallax-test-results-\(getpid()).sqlite").path, 1)
    }
    // The files the tests write are remembered in a ledger of their own (OutputLedger).
    if ProcessInfo.processInfo.environment["PARALLAX_STATE_DIR"] == nil {
        setenv("PARALLAX_STATE_DIR", FileManager.default.temporaryDirectory.appendingPathComponent("parallax-test-state-\(getpid())").path, 1)
    }
}()

enum Paths {
    static let root = RepositoryPaths.root
    static let cut = root.appendingPathComponent("datasets/euroc_v1_01_cut").path
    static let tum = root.appendingPathComponent("datasets/tum_rgbd_frame").path
    static let sharedV101 = RepositoryPaths.sharedData("euroc/V1_01_easy_micro").path
    static let chains = root.appendingPathComponent("chains").path

    /// The built `parallax` executable, for tests that signal or limit a real process
    /// (`PARALLAX_TEST_BINARY` when set: `scripts/test --sanitize` points it at the sanitized build).
    static var executable: URL {
        ProcessInfo.processInfo.environment["PARALLAX_TEST_BINARY"].map { URL(fileURLWithPath: $0) }
            ?? root.appendingPathComponent(".build/debug/parallax")
    }

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("parallax-cli-\(name)-\(UUID())")
    }

    /// A writable copy of the bundled EuRoC cut.
    static func cutCopy() throws -> URL {
        let url = temporary("cut")
        try FileManager.default.copyItem(atPath: cut, toPath: url.path)
        return url
    }
}

@Suite struct InspectTests {
    @Test func bundledEuRoCCut() throws {
        let r = try DatasetInspection.inspect(path: Paths.cut)
        #expect(r.format == "EuRoC/ASL")
        #expect(r.streams.map(\.name) == ["cam0", "cam1", "imu0", "groundtruth"])
        #expect(r.streams.map(\.count) == [6, 6, 61, 7])
        #expect(abs(r.streams[0].rateHz - 20) < 0.01 && abs(r.streams[2].rateHz - 200) < 0.1)
        #expect(r.streams[0].imageSize == "752×480 gray8")
        #expect(r.streams[0].calibration?.contains("fx 458.654") == true)
        #expect(r.groundTruthPoses == 7)   // from groundtruth/, where the cut keeps it
        #expect(parallax(["inspect", Paths.cut]) == 0)
        #expect(parallax(["inspect", Paths.cut, "--json"]) == 0)
    }

    /// `--groundtruth FILE` on inspect, run and bench: the file's poses are the ground truth
    /// (and the `groundtruth` stream); a file that cannot be is bad input (exit 2).
    @Test func groundTruthFromAFile() throws {
        let dir = Paths.temporary("gt-option")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let own = try TrajectoryFile.read(path: Paths.cut + "/groundtruth/V1_01_easy_openvins_vicon2gt_gt.csv")
        let file = dir.appendingPathComponent("gt.txt").path
        try TrajectoryFile.writeTUM(own.subset([0, 2, 4, 6]), to: file)
        let r = try DatasetInspection.inspect(path: Paths.cut, options: DatasetOptions(groundTruth: file))
        #expect(r.groundTruthPoses == 4 && r.streams.map(\.count) == [6, 6, 61, 4])
        #expect(parallax(["inspect", Paths.cut, "--groundtruth", file]) == 0)
        let out = dir.appendingPathComponent("run")
        #expect(parallax(["run", "stream-stats streams=groundtruth", Paths.cut, "--groundtruth", file, "--out", out.path]) == 0)
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.contains("\"packets\":4,") && events.contains("\"stream\":\"groundtruth\""))
        let bad = dir.appendingPathComponent("kitti.txt").path
        try "1 0 0 0 0 1 0 0 0 0 1 0\n".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(parallax(["run", "stream-stats", Paths.cut, "--groundtruth", bad, "--out", dir.appendingPathComponent("bad").path]) == 2)
        #expect(parallax(["inspect", Paths.cut, "--groundtruth", dir.appendingPathComponent("none.txt").path]) == 2)
        #expect(parallax(["bench", "--chain", "stream-stats", "--dataset", Paths.cut, "--groundtruth", bad, "--out", dir.appendingPathComponent("b").path, "--quiet"]) == 2)
    }

    /// `--image-rate` times a folder of images whose names are not times; names that are times
    /// are kept.
    @Test func imageFolderRate() throws {
        let dir = Paths.temporary("image-rate")
        let images = dir.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = try FileManager.default.contentsOfDirectory(atPath: Paths.cut + "/mav0/cam0/data").sorted().prefix(3)
        for (k, name) in frames.enumerated() {
            try FileManager.default.copyItem(atPath: Paths.cut + "/mav0/cam0/data/" + name, toPath: images.appendingPathComponent("frame\(k).png").path)
        }
        let out = dir.appendingPathComponent("out")
        #expect(parallax(["run", "stream-stats streams=cam0", images.path, "--image-rate", "10", "--quiet", "--out", out.path]) == 0)
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.contains("\"medianPeriodMilliseconds\":100,"), "\(events)")
        // One run's rate does not leak into the next: the default is 1 Hz again.
        #expect(abs((try DatasetInspection.inspect(path: images.path).streams.first?.rateHz ?? 0) - 1) < 1e-9)
        // The cut's own frames are named by their times (ns): 20 Hz, whatever the option says.
        let r = try DatasetInspection.inspect(path: Paths.cut + "/mav0/cam0/data")
        #expect(abs((r.streams.first?.rateHz ?? 0) - 20) < 0.01)
        for bad in ["0", "-5", "nan", "1e9"] {
            #expect(parallax(["inspect", images.path, "--image-rate", bad]) == 2, "\(bad)")
        }
    }

    @Test(.enabled(if: RepositoryPaths.hasSharedData("euroc/V1_01_easy_micro"), "../shared/data/euroc/V1_01_easy_micro is not present on this machine"))
    func realEuRoCClipWithItsMissingImages() throws {
        let r = try DatasetInspection.inspect(path: Paths.sharedV101)
        #expect(r.streams.map(\.count) == [95, 99, 29120, 2895])
        #expect(r.streams[1].missing == 4)
        #expect(abs(r.streams[2].durationSeconds - 145.595) < 0.001)
    }

    @Test func tumFrame() throws {
        let r = try DatasetInspection.inspect(path: Paths.tum)
        #expect(r.format == "TUM RGB-D")
        #expect(r.streams.map(\.name) == ["rgb", "depth"])
        #expect(r.streams.map(\.imageSize) == ["640×480 rgb8", "640×480 depth (m)"])
    }
}

/// `simulate` finds its bundled defaults (calibration, textures, face mesh) from any working
/// folder: next to the binary's checkout or install, not only relative to the repository.
@Suite struct BundledDataTests {
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"))
    func simulateRunsFromAnotherFolder() throws {
        let elsewhere = Paths.temporary("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        for scene in ["room", "face"] {
            let run = try RealExecutable.start(["simulate", "--scene", scene, "--seconds", "0.5", "--out", "sim-\(scene)"], in: elsewhere)
            let errors = run.finish()
            #expect(run.process.terminationStatus == 0, "\(scene): \(errors)")
            #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("sim-\(scene)/parallax.yaml").path))
        }
    }

    @Test func anInstalledBinaryFindsThemUnderItsPrefix() throws {
        // An installed binary finds them in PREFIX/share/parallax (where the README copies them).
        let prefix = Paths.temporary("prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let installed = prefix.appendingPathComponent("share/parallax/datasets/face_model/face.obj")
        try FileManager.default.createDirectory(at: installed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("v 0 0 0\n".utf8).write(to: installed)
        let binary = prefix.appendingPathComponent("bin/parallax")
        #expect(BundledData.resolve("datasets/face_model/face.obj", executable: binary) == installed.path)
        #expect(BundledData.resolve("datasets/none.obj", executable: binary) == "datasets/none.obj")
        // A path outside datasets/ is used as given.
        #expect(BundledData.resolve("my/own.yaml") == "my/own.yaml")
    }

    /// A binary installed without the repository's datasets/ says where it looked and what to do.
    @Test func aMissingBundledFileIsExplained() {
        let binary = URL(fileURLWithPath: "/nowhere/prefix/bin/parallax")
        let message = "datasets/none/sensor.yaml: cannot read calibration file (no such file)"
        let explained = BundledData.explainingMissing(message, files: [("datasets/none/sensor.yaml", "--camera-calibration")], executable: binary)
        #expect(explained.hasPrefix(message))
        #expect(explained.contains("looked for under the working folder, /nowhere/prefix/share/parallax, /nowhere/prefix"))
        #expect(explained.hasSuffix("or give --camera-calibration"))
        // Only a bundled path the message names, and only when it is missing.
        #expect(BundledData.explainingMissing("something else failed", files: [("datasets/none/sensor.yaml", "--x")], executable: binary) == "something else failed")
        #expect(BundledData.explainingMissing("my/own.yaml: bad", files: [("my/own.yaml", "--x")], executable: binary) == "my/own.yaml: bad")
    }
}

@Suite struct RunTests {
    @Test func runsTheDiagnosticsChainAndWritesItsFiles() throws {
        let out = Paths.temporary("run")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["run", Paths.chains + "/diagnostics.yaml", Paths.cut, "--out", out.path]) == 0)
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8)
        let lines = events.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("{\"stream\":\"cam0/gyro-rotation\"") }.count == 5)
        #expect(lines.filter { $0.hasPrefix("{\"stream\":\"stats\"") }.count == 2)
        let run = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as! [String: Any]
        let report = run["report"] as! [String: Any]
        let streams = report["streams"] as! [[String: Any]]
        #expect(streams.map { $0["packets"] as! Int } == [6, 6, 61, 7, 2, 5])
    }

    @Test func runsOverTUMWithAPipeline() throws {
        let out = Paths.temporary("tum")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(parallax(["run", "stream-stats streams=rgb,depth", Paths.tum, "--out", out.path]) == 0)
    }

    @Test func singleThreadedAndWorkerDecodedRunsWriteTheSameEvents() throws {
        let a = Paths.temporary("a"), b = Paths.temporary("b")
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        #expect(parallax(["run", Paths.chains + "/diagnostics.yaml", Paths.cut, "--out", a.path]) == 0)
        #expect(parallax(["run", Paths.chains + "/diagnostics.yaml", Paths.cut, "--out", b.path, "--single-thread"]) == 0)
        #expect(try Data(contentsOf: a.appendingPathComponent("events.jsonl")) == Data(contentsOf: b.appendingPathComponent("events.jsonl")))
    }
}

/// Every bad input: a clear message (tested on the library error) and the right exit status.
@Suite struct BadInputTests {
    let out = Paths.temporary("bad")
    /// Where a failed run leaves what it computed.
    var partial: URL { URL(fileURLWithPath: out.path + ".partial") }

    @Test func missingImageWarnsOrFailsWithStrict() throws {
        let copy = try Paths.cutCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("mav0/cam1/data/1403715273362142976.png"))
        #expect(parallax(["run", "stream-stats streams=cam1", copy.path, "--out", out.path]) == 0)
        #expect(parallax(["run", "stream-stats streams=cam1", copy.path, "--out", out.path, "--strict"]) == 2)
        #expect { _ = try EuRoCSource(path: copy.path, strict: true) } throws: { error in
            "\(error)".hasSuffix("cam1/data.csv:4: image '1403715273362142976.png' does not exist")
        }
    }

    @Test func malformedCSVRowNamesFileAndLine() throws {
        let copy = try Paths.cutCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let csv = copy.appendingPathComponent("mav0/imu0/data.csv")
        var lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[5] = lines[5].replacingOccurrences(of: ",", with: ",abc,", options: [], range: lines[5].range(of: ","))
        try lines.joined(separator: "\n").write(to: csv, atomically: true, encoding: .utf8)
        #expect(parallax(["inspect", copy.path]) == 2)
        #expect { _ = try EuRoCSource(path: copy.path) } throws: { error in
            "\(error)".hasSuffix("imu0/data.csv:6: expected 7 columns, found 8")
        }
        lines[5] = lines[5].replacingOccurrences(of: ",abc,", with: ",")
        lines[6] = lines[6].replacingOccurrences(of: "9.", with: "nine.")
        try lines.joined(separator: "\n").write(to: csv, atomically: true, encoding: .utf8)
        #expect { _ = try EuRoCSource(path: copy.path) } throws: { error in
            "\(error)".hasSuffix("imu0/data.csv:7: expected an integer timestamp (ns) and 6 finite numbers")
        }
    }

    @Test func timestampsBackwardsOrDuplicated() throws {
        let copy = try Paths.cutCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let csv = copy.appendingPathComponent("mav0/cam0/data.csv")
        var lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.swapAt(3, 4)
        try (lines.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        #expect(parallax(["run", "stream-stats streams=cam0", copy.path, "--out", out.path]) == 2)
        #expect { _ = try EuRoCSource(path: copy.path) } throws: { error in
            "\(error)".hasSuffix("cam0/data.csv:5: timestamp goes back in time from 1403715273412143104 to 1403715273362142976 ns")
        }
        let inspection = try DatasetInspection.inspect(path: copy.path)
        #expect(inspection.streams[0].outOfOrder == 1)
        lines.swapAt(3, 4)
        lines[4] = lines[3]
        try (lines.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        #expect { _ = try EuRoCSource(path: copy.path) } throws: { error in
            "\(error)".hasSuffix("cam0/data.csv:5: timestamp repeats timestamp 1403715273362142976 ns")
        }
    }

    @Test func groundTruthGoingBackIsAnErrorNotSilentlyDropped() throws {
        let copy = try Paths.cutCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let folder = copy.appendingPathComponent("mav0/state_groundtruth_estimate0")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "#t,px,py,pz,qw,qx,qy,qz\n100,0,0,0,1,0,0,0\n200,0,0,0,1,0,0,0\n200,1,0,0,1,0,0,0\n".write(
            to: folder.appendingPathComponent("data.csv"), atomically: true, encoding: .utf8)
        #expect(parallax(["inspect", copy.path]) == 2)
        // Named by file and line (the header is line 1), as any other bad row.
        #expect { _ = try EuRoCSource(path: copy.path) } throws: { error in
            return "\(error)".contains("state_groundtruth_estimate0/data.csv:4:") && "\(error)".contains("repeats")
        }
    }

    @Test func corruptPNGFailsTheRunButKeepsWhatWasComputed() throws {
        let copy = try Paths.cutCopy()
        defer { try? FileManager.default.removeItem(at: copy); try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: partial) }
        let png = copy.appendingPathComponent("mav0/cam0/data/1403715273412143104.png")
        let bytes = try Data(contentsOf: png)
        try bytes.prefix(bytes.count / 3).write(to: png)
        // The data is at fault: exit 2, as when a bad file is found before the run (what was
        // computed is kept all the same).
        #expect(parallax(["run", "stream-stats streams=cam0,imu0", copy.path, "--out", out.path]) == 2)
        let run = try String(contentsOf: partial.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(run.contains("1403715273412143104.png"))
        // stream-stats was closed and flushed its statistics of what came before the bad frame.
        let events = try String(contentsOf: partial.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.contains("\"packets\":3"))
    }

    @Test func truncatedImageInAnImageFolderFailsTheRunNamingTheFile() throws {
        let folder = Paths.temporary("image-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder); try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: partial) }
        let header = Data("P5 8 8 255\n".utf8)
        try (header + Data(repeating: 100, count: 64)).write(to: folder.appendingPathComponent("1.pgm"))
        try (header + Data(repeating: 100, count: 64)).write(to: folder.appendingPathComponent("2.pgm"))
        try (header + Data(repeating: 100, count: 20)).write(to: folder.appendingPathComponent("3.pgm"))
        #expect(parallax(["run", "stream-stats streams=cam0", folder.path, "--out", out.path]) == 2)
        let run = try String(contentsOf: partial.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(run.contains("3.pgm") && run.contains("PNM has 20 sample bytes"))
        // The two good frames were counted and flushed.
        let events = try String(contentsOf: partial.appendingPathComponent("events.jsonl"), encoding: .utf8)
        #expect(events.contains("\"packets\":2"))
    }

    /// An analyzer that can only judge its option or its data once frames come (a start box
    /// against the first image's size, an image that changes size) reports bad input: exit 2,
    /// not the run-failed 1, with what was written kept in `.partial`.
    @Test func badInputFoundByAnAnalyzerMidRunExitsWithTwo() throws {
        let folder = Paths.temporary("track-folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder); try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: partial) }
        let pixels = Data((0..<(32 * 24)).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        for k in 1...3 { try (Data("P5 32 24 255\n".utf8) + pixels).write(to: folder.appendingPathComponent("\(k).pgm")) }
        #expect(parallax(["run", "track-object box={x: 500, y: 2, width: 8, height: 8}", folder.path, "--out", out.path]) == 2)
        let run = try String(contentsOf: partial.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(run.contains("option 'box'") && run.contains("outside the 32×24 image"))
        try FileManager.default.removeItem(at: partial)
        #expect(parallax(["run", "track-object box={x: 4, y: 4, width: 8, height: 8}", folder.path, "--out", out.path]) == 0)
        try FileManager.default.removeItem(at: out)
        try (Data("P5 24 24 255\n".utf8) + pixels.prefix(24 * 24)).write(to: folder.appendingPathComponent("3.pgm"))
        #expect(parallax(["run", "track-object box={x: 4, y: 4, width: 8, height: 8}", folder.path, "--out", out.path]) == 2)
        // A truncated image is the data's fault too, whoever finds it: exit 2.
        try FileManager.default.removeItem(at: partial)
        try (Data("P5 32 24 255\n".utf8) + pixels.prefix(20)).write(to: folder.appendingPathComponent("3.pgm"))
        #expect(parallax(["run", "track-object box={x: 4, y: 4, width: 8, height: 8}", folder.path, "--out", out.path]) == 2)
    }

    @Test func missingOrMalformedSensorYAML() throws {
        let copy = try Paths.cutCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let yaml = copy.appendingPathComponent("mav0/cam0/sensor.yaml")
        try FileManager.default.removeItem(at: yaml)
        #expect(parallax(["inspect", copy.path]) == 2)
        #expect { _ = try EuRoCSource(path: copy.path) } throws: { "\($0)".hasSuffix("cam0/sensor.yaml: cannot read calibration file (no such file)") }
        try "camera_model: pinhole\nintrinsics: [1, 2\n".write(to: yaml, atomically: true, encoding: .utf8)
        #expect(parallax(["run", "stream-stats", copy.path, "--out", out.path]) == 2)
        #expect { _ = try EuRoCSource(path: copy.path) } throws: { "\($0)".contains("cam0/sensor.yaml:") && "\($0)".contains("malformed YAML") }
    }

    @Test func usageErrorsExitWithTwo() {
        #expect(parallax(["run", "--bogus"]) == 2)
        #expect(parallax(["simulate", "--textures", "--out", "/tmp/x"]) == 2)  // a list option given no value
        // The depth analyzers' names for noise models, and only those.
        #expect(parallax(["simulate", "--depth-noise", "none", "--out", "/tmp/x"]) == 2)
        #expect(parallax(["simulate", "--scene", "face", "--depth-noise", "kinect", "--out", "/tmp/x"]) == 2)
        #expect(parallax(["frobnicate"]) == 2)
        #expect(parallax(["plugins"]) == 0)
    }

    @Test func notADatasetSaysWhatWasExpected() {
        #expect(parallax(["inspect", Paths.chains]) == 2)
        #expect(parallax(["inspect", "/nonexistent/folder"]) == 2)
        // (video files are asked first once the CLI has registered them)
        #expect { _ = try DatasetFolder.open(Paths.chains) } throws: { "\($0)".contains("a Parallax folder (parallax.yaml), or EuRoC/ASL (a mav0/ folder), or TUM RGB-D") }
    }

    @Test func unknownAnalyzerOrOptionGetsDidYouMean() {
        #expect(parallax(["run", "stream-stat", Paths.cut, "--out", out.path]) == 2)
        #expect(parallax(["run", "stream-stats streamz=cam0", Paths.cut, "--out", out.path]) == 2)
        #expect(parallax(["eval", "/nonexistent.txt", "/nonexistent.txt"]) == 2)
        #expect(parallax(["eval", "a", "b", "--align", "se4"]) == 2)
    }
}
