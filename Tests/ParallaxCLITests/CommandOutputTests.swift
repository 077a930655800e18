import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Parallax
@testable import ParallaxCLI
@testable import ParallaxApp
import ParallaxFiles
import ParallaxCodecs
import ParallaxDatasets

/// `--out` is finished atomically: a folder named OUT holds one complete result set, a failed
/// or interrupted command never replaces it (its partial results go to OUT.partial), a folder
/// Parallax did not write is never replaced, and output that cannot be written is a clear error.
@Suite struct OutputFolderTests {
    let out = Paths.temporary("atomic")
    var partial: URL { URL(fileURLWithPath: out.path + ".partial") }

    func cleanUp() { for u in [out, partial] { try? FileManager.default.removeItem(at: u) } }

    @Test func aFailedRunKeepsThePreviousResultsAndItsOwnPartialOnes() throws {
        defer { cleanUp() }
        #expect(parallax(["run", "stream-stats streams=cam0,imu0", Paths.cut, "--out", out.path]) == 0)
        let good = try Data(contentsOf: out.appendingPathComponent("events.jsonl"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(OutputFolder.markerName).path))
        #expect(!FileManager.default.fileExists(atPath: partial.path))

        let copy = try Paths.cutCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let png = copy.appendingPathComponent("mav0/cam0/data/1403715273412143104.png")
        try Data(try Data(contentsOf: png).prefix(100)).write(to: png)
        // A frame that does not decode is the data's fault: exit 2, as when it is found up front.
        #expect(parallax(["run", "stream-stats streams=cam0,imu0", copy.path, "--out", out.path]) == 2)
        #expect(try Data(contentsOf: out.appendingPathComponent("events.jsonl")) == good, "the failed run replaced the good results")
        let failed = try String(contentsOf: partial.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(failed.contains("1403715273412143104.png"))

        // The next good run replaces both the old results and the stale partial folder.
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path]) == 0)
        #expect(try Data(contentsOf: out.appendingPathComponent("events.jsonl")) != good)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    /// Whether /sys refuses a new folder here (a folder it took is removed at once).
    static var sysRefusesFolders: Bool {
        if mkdir("/sys/parallax-test", 0o755) == 0 { rmdir("/sys/parallax-test"); return false }
        return [EROFS, EPERM, EACCES].contains(errno)
    }

    /// A failed run lists what it left in OUT.partial: a file the user then puts there (notes on
    /// the partial results) makes the next run on OUT refuse (exit 2) rather than remove it; once
    /// it is moved out, the next run removes the stale folder and succeeds.
    @Test func filesPutIntoAStalePartialFolderAreRefusedNotRemoved() throws {
        defer { cleanUp() }
        let copy = try Paths.cutCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let png = copy.appendingPathComponent("mav0/cam0/data/1403715273412143104.png")
        try Data(try Data(contentsOf: png).prefix(100)).write(to: png)
        #expect(parallax(["run", "stream-stats streams=cam0,imu0", copy.path, "--out", out.path]) == 2)
        let marker = try String(contentsOf: partial.appendingPathComponent(OutputFolder.markerName), encoding: .utf8)
        #expect(marker.contains(OutputFolder.manifestLine) && marker.contains("\nrun.json\n"), "\(marker)")
        let notes = partial.appendingPathComponent("my_analysis/notes.md")
        try FileManager.default.createDirectory(at: notes.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "important".write(to: notes, atomically: true, encoding: .utf8)
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path]) == 2)
        #expect(try String(contentsOf: notes, encoding: .utf8) == "important")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        try FileManager.default.removeItem(at: notes.deletingLastPathComponent())
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path]) == 0)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    /// Where the file system refuses to make the folder (read-only, no permission: /sys here) the
    /// command fails (exit 1) naming the folder, as for any file that cannot be written; a
    /// name that cannot be a folder (a file's) stays bad input (exit 2).
    @Test(.enabled(if: Self.sysRefusesFolders, "/sys is writable here"))
    func aFolderTheFileSystemRefusesIsAFailure() throws {
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", "/sys/parallax-test/out"]) == 1)
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", "/sys/parallax-test"]) == 1)
        #expect(parallax(["convert", Paths.cut, "--to", "mcap", "--out", "/sys/parallax-test.mcap"]) == 1)
    }

    /// --mcap and --save-map naming one file outside --out: the clash is said as such (it was
    /// reported as the file being in use by another command: the first option's own lock).
    @Test func mcapAndSaveMapOnOneFileAreRefusedAsSuch() throws {
        defer { cleanUp() }
        let file = out.path + "-same.x"
        #expect(parallax(["run", "klt ! vio images=cam0", Paths.cut, "--out", out.path, "--mcap", file, "--save-map", file]) == 2)
        #expect(!FileManager.default.fileExists(atPath: file) && !FileManager.default.fileExists(atPath: file + ".lock"))
        // Nor one the other's staging or lock file (the recording was lost, exit 0), outside --out or in it.
        for (mcap, map) in [(file + ".partial", file), (file, file + ".lock"), (out.path + "/a.pxmap.partial", out.path + "/a.pxmap")] {
            #expect(parallax(["run", "klt ! vio images=cam0", Paths.cut, "--out", out.path, "--mcap", mcap, "--save-map", map]) == 2, "\(mcap) \(map)")
            #expect(!FileManager.default.fileExists(atPath: mcap) && !FileManager.default.fileExists(atPath: map))
        }
    }

    /// What marks a folder as Parallax's is a marker naming its command: a user's folder with a
    /// run.json of theirs (versions before the marker were recognized by it) or an empty marker
    /// file is refused; names are compared byte for byte (a user's `é` as e + U+0301 beside a
    /// listed `é` is another file); another output's staging folder or lock is no --out.
    @Test func onlyAMarkedFolderIsReplacedAndNamesCompareAsBytes() throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "my run notes".write(to: out.appendingPathComponent("run.json"), atomically: true, encoding: .utf8)
        try "my thesis".write(to: out.appendingPathComponent("thesis.tex"), atomically: true, encoding: .utf8)
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path]) == 2)
        try Data().write(to: out.appendingPathComponent(OutputFolder.markerName))
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path]) == 2)
        #expect(try String(contentsOf: out.appendingPathComponent("thesis.tex"), encoding: .utf8) == "my thesis")
        try FileManager.default.removeItem(at: out)

        let folder = try OutputFolder(path: out.path, command: "parallax test")
        try FileManager.default.createDirectory(at: folder.staging.appendingPathComponent("\u{E9}"), withIntermediateDirectories: true)
        try folder.commit()
        let decomposed = out.appendingPathComponent("e\u{301}")
        try FileManager.default.createDirectory(at: decomposed, withIntermediateDirectories: true)
        #expect(throws: OutputFolder.RefusedError.self) { _ = try OutputFolder(path: self.out.path, command: "parallax test") }
        #expect(FileManager.default.fileExists(atPath: decomposed.path))

        for other in [".partial", ".lock", ".replaced-123"] {
            #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path + other]) == 2, "\(other)")
        }
    }

    /// A closed console (`parallax run … 2>&1 | head -c 1`) does not kill the run (SIGPIPE, exit
    /// 141, results half-written): it goes on, commits its results and exits 0.
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"))
    func aClosedConsoleDoesNotStopTheRun() throws {
        defer { cleanUp() }
        let status = Paths.temporary("pipe-status")
        defer { try? FileManager.default.removeItem(at: status) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "\"$0\" run 'klt ! vio' \"$1\" --out \"$2\" 2>&1 | head -c 1 > /dev/null; echo ${PIPESTATUS[0]} > \"$3\"",
                             Paths.executable.path, Paths.cut, out.path, status.path]
        try process.run()
        process.waitUntilExit()
        #expect(try String(contentsOf: status, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("vio/pose.tum").path))
        #expect(!FileManager.default.fileExists(atPath: partial.path))
    }

    /// `--out` inside the data read, or inside another command's results (finished or still
    /// staging), is refused as a single file there is: the data would gain results, the other
    /// folder a folder its next run refuses (or its commit adopts).
    @Test func anOutputFolderInsideTheInputOrAnotherOutputIsRefused() throws {
        let copy = try Paths.cutCopy()
        defer { cleanUp(); try? FileManager.default.removeItem(at: copy) }
        #expect(parallax(["run", "stream-stats", copy.path, "--out", copy.appendingPathComponent("mav0/results").path]) == 2)
        #expect(!FileManager.default.fileExists(atPath: copy.appendingPathComponent("mav0/results").path))
        #expect(parallax(["run", "stream-stats", Paths.cut, "--out", out.path]) == 0)
        for inner in [out.appendingPathComponent("sub"), partial.appendingPathComponent("sub")] {
            if inner.path.hasPrefix(partial.path) { try FileManager.default.copyItem(at: out, to: partial) }
            #expect(parallax(["convert", Paths.cut, "--out", inner.path]) == 2, "\(inner.path)")
            #expect(!FileManager.default.fileExists(atPath: inner.path))
        }
    }

    @Test func foldersParallaxDidNotWriteAreNeverReplaced() throws {
        defer { cleanUp() }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let thesis = out.appendingPathComponent("thesis.tex")
        try "my work".write(to: thesis, atomically: true, encoding: .utf8)
        // The same rule for every command that takes --out.
        let gt = out.appendingPathComponent("gt.txt").path
        try "0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n2 2 0 0 0 0 0 1\n".write(toFile: gt, atomically: true, encoding: .utf8)
        for arguments in [["run", "stream-stats", Paths.cut], ["convert", Paths.cut], ["simulate", "--seconds", "1"],
                          ["bench", "--chain", "stream-stats", "--dataset", Paths.cut], ["eval", gt, gt]] {
            #expect(parallax(arguments + ["--out", out.path]) == 2, "\(arguments[0])")
        }
        #expect(try String(contentsOf: thesis, encoding: .utf8) == "my work")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["gt.txt", "thesis.tex"])
        // A file where the folder should be, and the working folder itself, are refused too.
        #expect(parallax(["run", "stream-stats", Paths.cut, "--out", thesis.path]) == 2)
        #expect(throws: OutputFolder.RefusedError.self) { try OutputFolder(path: FileManager.default.currentDirectoryPath, command: "test") }
        #expect(throws: OutputFolder.RefusedError.self) { try OutputFolder(path: "/", command: "test") }
    }

    /// A symbolic link of the user's where the staging folder goes (OUT.partial) is refused, not
    /// replaced by a folder: the link and what it points to stay.
    @Test func aSymbolicLinkAtThePartialFolderIsRefusedAndKept() throws {
        defer { cleanUp() }
        let target = Paths.temporary("atomic-target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: target) }
        try FileManager.default.createSymbolicLink(atPath: partial.path, withDestinationPath: target.path)
        #expect(parallax(["run", "stream-stats", Paths.cut, "--out", out.path]) == 2)
        #expect(OutputPath.isSymbolicLink(partial.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func anOutputThatCannotBeCreatedIsAnErrorNamingIt() throws {
        // /proc refuses new files even to root: the file system's refusal, a failure (exit 1) as for
        // any file that cannot be written; a file where the folder would go is bad input (exit 2).
        #expect(throws: OutputFolder.UnwritableError.self) { try OutputFolder(path: "/proc/parallax-out", command: "test") }
        #expect(parallax(["run", "stream-stats", Paths.cut, "--out", "/proc/parallax-out"]) == 1)
        #expect(parallax(["simulate", "--seconds", "1", "--out", "/proc/parallax-out"]) == 1)
        #expect(parallax(["run", "stream-stats", Paths.cut, "--out", "/proc/version/out"]) == 2)
    }

    /// A full disk, as the kernel reports it to a process over its file-size limit (EFBIG, with
    /// SIGXFSZ ignored): the real executable reports the file and the reason and exits 1; no trap,
    /// nothing takes the final folder's name.
    // ThreadSanitizer's runtime faults (SIGBUS) at start-up under any small file-size limit,
    // before main (`parallax --help` alike): this case is for the other builds.
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"),
          .disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "under ThreadSanitizer, whose runtime cannot start under `ulimit -f`"))
    func aFullDiskIsAnErrorNotATrap() throws {
        defer { cleanUp() }
        // 16 KiB per file: klt's tracks of the first frames already need more.
        let run = try RealExecutable.start(["run", "klt camera=cam0", Paths.cut, "--quiet", "--single-thread", "--out", out.path],
                                           shellSetup: "ulimit -f 16; trap '' XFSZ")
        let message = run.finish()
        #expect(run.process.terminationReason == .exit, "\(message)")
        #expect(run.process.terminationStatus == 1, "\(message)")
        #expect(message.contains("events.jsonl") && message.contains("File too large"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A PNG that cannot be written (a full disk, a file over `ulimit -f`) fails the run (exit 1)
    /// with the system's reason, naming the file: not "a corrupt image" and exit 2.
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"),
          .disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "under ThreadSanitizer, whose runtime cannot start under `ulimit -f`"))
    func anImageThatCannotBeWrittenIsAFailureWithItsReason() throws {
        defer { cleanUp() }
        let run = try RealExecutable.start(["run", "video-format camera=cam0", Paths.cut, "--quiet", "--single-thread", "--out", out.path],
                                           shellSetup: "ulimit -f 64; trap '' XFSZ")
        let message = run.finish()
        #expect(run.process.terminationStatus == 1, "\(message)")
        #expect(message.contains(".png': File too large") && !message.contains("corrupt"), "\(message)")
    }

    /// A file named by the user that Parallax cannot remember as its own (the state folder not
    /// writable) is said when it is written: the next run refuses to replace it.
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"))
    func aFileThatCannotBeRememberedIsSaidWhenWritten() throws {
        let mcap = Paths.temporary("unremembered").appendingPathExtension("mcap")
        defer { cleanUp(); try? FileManager.default.removeItem(at: mcap) }
        let run = try RealExecutable.start(["run", "stream-stats", Paths.cut, "--quiet", "--out", out.path, "--mcap", mcap.path],
                                           shellSetup: "export PARALLAX_STATE_DIR=/dev/null/state")
        let message = run.finish()
        #expect(run.process.terminationStatus == 0, "\(message)")
        #expect(message.contains("'\(mcap.path)' was written, but Parallax's record of the files it wrote could not be updated"), "\(message)")
    }

    /// A recording (`--mcap`) that cannot be written fails the run with the system's reason,
    /// said once (its writer fails the run, then its finish fails again with the same error).
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"),
          .disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "under ThreadSanitizer, whose runtime cannot start under `ulimit -f`"))
    func aRecordingThatCannotBeWrittenIsOneErrorWithItsReason() throws {
        let mcap = Paths.temporary("full").appendingPathExtension("mcap")
        defer { cleanUp(); for p in [mcap.path, OutputPath.staged(mcap.path)] { try? FileManager.default.removeItem(atPath: p) } }
        let run = try RealExecutable.start(["run", "stream-stats streams=cam0", Paths.cut, "--quiet", "--single-thread", "--out", out.path, "--mcap", mcap.path],
                                           shellSetup: "ulimit -f 16; trap '' XFSZ")
        let message = run.finish()
        #expect(run.process.terminationStatus == 1, "\(message)")
        #expect(message.components(separatedBy: "cannot write the MCAP file (File too large)").count == 2, "\(message)")
        #expect(!FileManager.default.fileExists(atPath: mcap.path))
    }

    /// `simulate` (like `convert` and `bench`) stops on SIGTERM with its partial folder finished
    /// and readable, exit 143.
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"))
    func simulateStopsOnASignalAndKeepsAReadableFolder() throws {
        defer { cleanUp() }
        let run = try RealExecutable.start(["simulate", "--seconds", "600", "--depth-rate", "0", "--out", out.path], in: Paths.root)
        guard let message = run.interrupt(SIGTERM, once: partial.appendingPathComponent("cam0/data"), startup: 60, within: 30) else { return }
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 143)
        #expect(message.contains("SIGTERM: stopped"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let folder = try ParallaxFolderSource(path: partial.path)
        #expect(folder.streams.contains { $0.name == "cam0" })
    }

    /// `bench` stops on SIGTERM while it renders a long simulated case (minutes of work), not
    /// after: the case is reported interrupted and the report of what ran is kept.
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"))
    func benchStopsOnASignalWhileSimulating() throws {
        defer { cleanUp() }
        let suite = Paths.temporary("long-suite.yaml")
        defer { try? FileManager.default.removeItem(at: suite) }
        try "runs:\n  - name: long\n    simulate: {seconds: 3000, width: 94}\n    chain: stream-stats\n".write(to: suite, atomically: true, encoding: .utf8)
        let run = try RealExecutable.start(["bench", suite.path, "--out", out.path], in: Paths.root)
        guard let message = run.interrupt(SIGTERM, once: partial.appendingPathComponent("scratch/sim-long/cam0/data"), startup: 60, within: 30) else { return }
        #expect(run.process.terminationReason == .exit && run.process.terminationStatus == 143, "\(message)")
        let report = try String(contentsOf: partial.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("| long | simulated (3000 s, seed 1) | interrupted |"), "\(report)")
    }

    @Test func consoleSummaryCountsWarningsPerSourceAndShowsDrops() {
        let warnings = (1...5).map { "klt: frame \($0) has too few features" } + ["vio: IMU gap of 40 ms"]
        let lines = RunSummary.warningLines(warnings)
        #expect(lines.first == "klt: 5 warnings (the first 3 below; all in run.json)")
        #expect(lines.filter { $0.hasPrefix("warning: klt:") }.count == 3)
        #expect(lines.last == "warning: vio: IMU gap of 40 ms")
        // Notes (what went as it should) are never worded as warnings.
        let notes = ["vio: initialized at 0.52 s after the first IMU sample: still IMU", "vio: relocalized into place.pxmap at 1 ns"]
        #expect(RunSummary.noteLines(notes) == notes.map { "note: " + $0 })
        // Six of a source's notes (its results come as notes when it closes), three of its warnings.
        #expect(RunSummary.noteLines((1...7).map { "vio: n\($0)" }).first == "vio: 7 notes (the first 6 below; all in run.json)")
        #expect(RunSummary.noteLines((1...7).map { "vio: n\($0)" }).filter { $0.hasPrefix("note: vio:") }.count == 6)
        var report = RunReport()
        report.streams = [RunReport.StreamCount(stream: "cam0", type: "CameraFrame", packets: 100)]
        report.skipped = [RunReport.Skip(analyzer: "klt", stream: "cam0", count: 69, reason: RunReport.Skip.realtimeDropReason)]
        #expect(RunSummary.dropLines(report) == ["klt dropped 69 of 100 cam0 packets (69.0 %): it could not keep up in real time"])
    }
}

/// `parallax eval` refuses an association that keeps a small share of the poses.
@Suite struct EvalOverlapTests {
    @Test func aSmallOverlapIsAnErrorUnlessAccepted() throws {
        let dir = Paths.temporary("overlap")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func tum(_ times: [Double]) -> String {
            times.enumerated().map { i, t in "\(t) \(Double(i) * 0.1) \(sin(Double(i))) \(cos(Double(i) * 0.3)) 0 0 0 1" }.joined(separator: "\n") + "\n"
        }
        let gt = dir.appendingPathComponent("gt.txt").path, est = dir.appendingPathComponent("est.txt").path
        // Ground truth at 10 Hz; the estimate's "times" are frame indices (1 Hz): 10 of 100 pair up.
        try tum((0..<100).map { Double($0) * 0.1 }).write(toFile: gt, atomically: true, encoding: .utf8)
        try tum((0..<100).map { Double($0) }).write(toFile: est, atomically: true, encoding: .utf8)
        #expect(parallax(["eval", gt, est]) == 2)
        #expect(parallax(["eval", gt, est, "--min-overlap", "0"]) == 0)
        #expect(parallax(["eval", gt, est, "--min-overlap", "1.5"]) == 2)
        var options = TrajectoryEvaluation.Options()
        let a = try TrajectoryFile.read(path: gt), b = try TrajectoryFile.read(path: est)
        #expect { _ = try TrajectoryEvaluation.evaluate(reference: a, estimate: b, options: options) } throws: { error in
            "\(error)".contains("only 10 of 100 poses (10.0 %)")
        }
        options.minimumOverlap = 0.05
        #expect(try TrajectoryEvaluation.evaluate(reference: a, estimate: b, options: options).0.pairs == 10)
    }
}

/// `--max-image-megapixels` sets the size limit image headers are checked against.
@Suite struct ImageLimitOptionTests {
    @Test func theLimitIsAnOptionWithARange() throws {
        #expect(parallax(["inspect", Paths.cut, "--max-image-megapixels", "0"]) == 2)
        #expect(parallax(["inspect", Paths.cut, "--max-image-megapixels", "nan"]) == 2)
    }

    /// The limit is process-wide: lowered in a process of its own, not in this one.
    @Test(.enabled(if: RealExecutable.isBuilt, "the parallax executable is not built (swift build builds it)"))
    func aLowerLimitRefusesTheCutsFrames() throws {
        let out = Paths.temporary("limit")
        defer { for u in [out, URL(fileURLWithPath: out.path + ".partial")] { try? FileManager.default.removeItem(at: u) } }
        // The cut's frames are 752×480 = 0.36 MP.
        let run = try RealExecutable.start(["run", "stream-stats streams=cam0", Paths.cut, "--quiet", "--single-thread",
                                            "--max-image-megapixels", "0.3", "--out", out.path])
        let message = run.finish()
        // The calibration declares the size first: refused as bad input, naming its file and line.
        #expect(run.process.terminationStatus == 2, "\(message)")
        #expect(message.contains("cam0/sensor.yaml:17:") && message.contains("resolution: 752×480 exceeds the limit of 0.3 megapixels"), "\(message)")
    }
}

/// Issue 42, "outputs never destroy or escape": the commands on a user's folder, extra outputs
/// inside `--out`, two commands on one `--out`, names from data and suites.
extension OutputFolderTests {
    /// A user's folder (with files) named where a file is expected: `run --mcap DIR`,
    /// `convert --to mcap|video --out DIR`: exit 2 naming it, before any work; nothing removed.
    @Test func fileOutputsOntoAUsersFolderAreRefusedAndTheFolderKept() throws {
        let dir = Paths.temporary("users")
        defer { cleanUp(); try? FileManager.default.removeItem(at: dir) }
        var folders: [URL] = []
        for name in ["rec.mcap", "cut.mcap", "cut.mkv"] {
            let folder = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "my work".write(to: folder.appendingPathComponent("thesis.tex"), atomically: true, encoding: .utf8)
            folders.append(folder)
        }
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path, "--mcap", folders[0].path, "--quiet"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: partial.path), "refused after the staging folder was made")
        #expect(parallax(["convert", Paths.cut, "--to", "mcap", "--out", folders[1].path]) == 2)
        #expect(parallax(["convert", Paths.cut, "--to", "video", "--out", folders[2].path]) == 2)
        for folder in folders {
            #expect(try String(contentsOf: folder.appendingPathComponent("thesis.tex"), encoding: .utf8) == "my work", "\(folder.lastPathComponent)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["thesis.tex"])
        }
    }

    /// `--mcap` inside the `--out` of an earlier run: written into the staging folder, so the
    /// commit that replaces the old folder carries it; the run's own files cannot be named.
    @Test func anExtraOutputInsideOutSurvivesTheCommit() throws {
        defer { cleanUp() }
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path, "--quiet"]) == 0)
        let mcap = out.appendingPathComponent("recordings/imu.mcap")
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path, "--mcap", mcap.path, "--quiet"]) == 0)
        let bytes = try Data(contentsOf: mcap)
        #expect(bytes.prefix(8) == Data([0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]) && bytes.count > 1000, "the recording is gone after the commit")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("run.json").path))
        for bad in [out.appendingPathComponent("run.json").path, out.path, partial.appendingPathComponent("x.mcap").path] {
            #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path, "--mcap", bad, "--quiet"]) == 2, "\(bad)")
        }
        #expect(try Data(contentsOf: mcap) == bytes, "a refused run changed the previous results")
    }

    /// A second command on an `--out` in use is refused (exit 2) and leaves the first one's
    /// staging folder as it was.
    @Test func aSecondRunOnTheSameOutIsRefused() throws {
        defer { cleanUp() }
        let first = try OutputFolder(path: out.path, command: "parallax run")
        try Data("first\n".utf8).write(to: first.staging.appendingPathComponent("events.jsonl"))
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path, "--quiet"]) == 2)
        #expect(parallax(["bench", "--chain", "stream-stats", "--dataset", Paths.cut, "--out", out.path, "--quiet", "--no-record"]) == 2)
        #expect(try String(contentsOf: first.staging.appendingPathComponent("events.jsonl"), encoding: .utf8) == "first\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: first.staging.path).sorted() == [OutputFolder.markerName, "events.jsonl"])
        try first.commit()
        #expect(parallax(["run", "stream-stats streams=imu0", Paths.cut, "--out", out.path, "--quiet"]) == 0)
        #expect(!FileManager.default.fileExists(atPath: out.path + ".lock"))
        // A file --out (convert --to mcap) is locked the same way.
        let file = out.path + "-cut.mcap"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let held = try OutputFolderLock(folder: file)
        #expect(parallax(["convert", Paths.cut, "--to", "mcap", "--out", file]) == 2)
        #expect(!FileManager.default.fileExists(atPath: file) && !FileManager.default.fileExists(atPath: file + ".partial"))
        held.release()
        #expect(parallax(["convert", Paths.cut, "--to", "mcap", "--out", file]) == 0)
        #expect(FileManager.default.fileExists(atPath: file) && !FileManager.default.fileExists(atPath: file + ".lock"))
    }

    /// The tiny ROS 1 fixture with its image topic `/cam0/image_raw` renamed in place to `topic`
    /// (15 bytes: every record keeps its size), as `name.bag` in a fresh folder `dir`.
    static func tinyBag(renamingImageTopicTo topic: String, name: String) throws -> (dir: URL, file: URL) {
        precondition(topic.utf8.count == "/cam0/image_raw".utf8.count)
        let dir = Paths.temporary("bag-\(name)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var bag = try Data(contentsOf: Paths.root.appendingPathComponent("Tests/Fixtures/rosbag/tiny-none.bag"))
        while let r = bag.range(of: Data("/cam0/image_raw".utf8)) { bag.replaceSubrange(r, with: Data(topic.utf8)) }
        let file = dir.appendingPathComponent("\(name).bag")
        try bag.write(to: file)
        return (dir, file)
    }

    /// A bag topic `/../image_raw` (stream `..`) is refused before `convert` writes anything:
    /// nothing appears beside `--out`.
    @Test func aBagTopicCannotMakeConvertWriteBesideOut() throws {
        let (dir, file) = try Self.tinyBag(renamingImageTopicTo: "/../image_raw__", name: "escape")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("inner/out")
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(parallax(["convert", file.path, "--out", target.path]) == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["escape.bag", "inner"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path).isEmpty)
    }

    /// Stream names from data become folders by the one rule for names from data (a topic
    /// `/c~m0/image_raw`, stream `c~m0`, is written to `c_m0`), and the converted folder reads back.
    @Test func convertMakesStreamNamesFromDataFileNames() throws {
        let (dir, file) = try Self.tinyBag(renamingImageTopicTo: "/c~m0/image_raw", name: "names")
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("out")
        #expect(parallax(["convert", file.path, "--out", target.path]) == 0)
        #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent("c_m0/data.csv").path))
        #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("c~m0").path))
        #expect(try String(contentsOf: target.appendingPathComponent("parallax.yaml"), encoding: .utf8).contains("name: 'c_m0'"))
        #expect(parallax(["run", "stream-stats streams=c_m0,imu0", target.path, "--out", dir.appendingPathComponent("run").path]) == 0)
    }
}
