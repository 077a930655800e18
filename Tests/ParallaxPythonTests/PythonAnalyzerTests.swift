import Foundation
import Testing
import TestSupport
import ParallaxApp
import Parallax
import ParallaxBus
@testable import ParallaxPython

/// `python:FILE.py` in runs: one worker per analyzer, its outputs in packet order, and its
/// failures the run's — exit status, message with the traceback or the worker's status, what was
/// written before kept, no worker left behind. Each run checks that every worker it started was reaped (``WorkerProcess/unreaped``).
extension WorkerProcessSuites { @Suite struct PythonAnalyzerTests {
    let brightness = RepositoryPaths.root.appendingPathComponent("python/examples/brightness.py").path

    /// Runs `chain` over the EuRoC cut into a fresh folder; returns the folder, the failure (if
    /// the run failed) and the lines of events.jsonl (from DIR, or DIR.partial after a failure).
    func run(_ chain: String, singleThread: Bool = false) throws -> (out: String, failure: AppFailure?, events: [Substring]) {
        PythonTestSupport.prepare()
        let scratch = try TemporaryFolder.make("python-run")
        let out = scratch.appendingPathComponent("run").path
        var settings = RunSession.Settings(chain: chain, dataset: PythonTestSupport.dataset, out: out)
        settings.prefetch = !singleThread
        let session = try RunSession(settings)
        let finished = try session.run()
        var failure: AppFailure?
        do { try finished.commit() } catch { failure = error }
        let folder = failure == nil ? out : out + ".partial"
        let events = try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(FileManager.default.fileExists(atPath: folder + "/run.json"))
        #expect(PythonTestSupport.unreaped(in: chain).isEmpty, "a worker outlived its run unreaped: \(PythonTestSupport.unreaped(in: chain))")
        return (folder, failure, events)
    }

    @Test func theBrightnessExampleEmitsOneValuePerFrame() throws {
        let (out, failure, events) = try run("klt camera=cam0 ! python:\(brightness)")
        #expect(failure == nil)
        let lines = events.filter { $0.contains("\"stream\":\"cam0/brightness\"") }
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.contains("\"producer\":\"brightness\"") })
        // The run report times it like any analyzer.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/run.json"))) as? [String: Any]
        let timings = (json?["report"] as? [String: Any])?["analyzers"] as? [[String: Any]] ?? []
        let timing = try #require(timings.first { $0["instance"] as? String == "brightness" })
        #expect(timing["analyzer"] as? String == "python:\(brightness)" && timing["calls"] as? Int == 6)
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: out).deletingLastPathComponent().path)
    }

    @Test func threadedAndSingleThreadRunsWriteTheSameBytes() throws {
        let chain = "klt camera=cam0 ! python:\(brightness) scale=0.5"
        let a = try run(chain), b = try run(chain, singleThread: true)
        #expect(a.failure == nil && b.failure == nil)
        let first = try Data(contentsOf: URL(fileURLWithPath: a.out + "/events.jsonl"))
        let second = try Data(contentsOf: URL(fileURLWithPath: b.out + "/events.jsonl"))
        #expect(!first.isEmpty && first == second)
    }

    @Test func anExceptionFailsTheRunWithItsTracebackAndKeepsWhatWasEmitted() throws {
        let folder = try TemporaryFolder.make("python-raise")
        let file = try PythonTestSupport.write(PythonTestSupport.counter("""
                if self.n == 3:
                    raise ValueError("bad frame %d" % self.n)
        """), as: "raises.py", in: folder)
        let (_, failure, events) = try run("python:\(file)")
        let f = try #require(failure)
        #expect(f.status == .failed)
        #expect(f.message.contains("ValueError: bad frame 3"))
        #expect(f.message.contains("Traceback") && f.message.contains("raises.py\", line"))
        #expect(events.filter { $0.contains("cam0/n") }.count == 2)
    }

    @Test func aKilledWorkerIsReportedWithItsSignal() throws {
        let folder = try TemporaryFolder.make("python-kill")
        let file = try PythonTestSupport.write(PythonTestSupport.counter("""
                if self.n == 2:
                    os.kill(os.getpid(), signal.SIGKILL)
        """), as: "killed.py", in: folder)
        let (_, failure, events) = try run("python:\(file)")
        let f = try #require(failure)
        #expect(f.status == .failed)
        #expect(f.message.contains("killed by signal 9 (SIGKILL)") && f.message.contains("killed.py"))
        #expect(events.filter { $0.contains("cam0/n") }.count == 1)
    }

    @Test func aWorkerThatExitsIsReportedWithItsStatus() throws {
        let folder = try TemporaryFolder.make("python-exit")
        let file = try PythonTestSupport.write(PythonTestSupport.counter("""
                if self.n == 4:
                    os._exit(7)
        """), as: "exits.py", in: folder)
        let (_, failure, events) = try run("python:\(file)")
        let f = try #require(failure)
        #expect(f.status == .failed && f.message.contains("exited with status 7"))
        #expect(events.filter { $0.contains("cam0/n") }.count == 3)
    }

    /// A worker that exits while a child it forked still holds its end of the socket is reported
    /// with its own exit status at once (not as a timeout), and the child is killed with it.
    @Test func aWorkerThatDiesLeavingAForkedChildIsReportedAndTheChildEnds() throws {
        let folder = try TemporaryFolder.make("python-fork")
        let marker = folder.appendingPathComponent("child.pid").path
        let file = try PythonTestSupport.write(PythonTestSupport.counter("""
                if self.n == 2:
                    child = os.fork()
                    if child == 0:
                        time.sleep(3600)
                        os._exit(0)
                    open(\(String(reflecting: marker)), "w").write(str(child))
                    os._exit(7)
        """), as: "forks.py", in: folder)
        let (_, failure, events) = try run("python:\(file) timeout=600")
        let f = try #require(failure)
        #expect(f.status == .failed && f.message.contains("exited with status 7"), "\(f.message)")
        #expect(events.filter { $0.contains("cam0/n") }.count == 1)
        let child = try #require(Int32(String(contentsOfFile: marker, encoding: .utf8)))
        var gone = false
        for _ in 0..<500 where !gone { gone = kill(child, 0) != 0; if !gone { usleep(10_000) } }
        #expect(gone, "the forked child \(child) outlived its worker")
    }

    /// JSON integers beyond 2⁵³ (nanosecond timestamps) are written exactly, not rounded through a
    /// double; a timestamps-only (`ANY`) input joined as the latest packet gets its time.
    @Test func bigIntegersStayExactAndAnyInputsJoinTheirTimes() throws {
        let folder = try TemporaryFolder.make("python-json")
        let file = try PythonTestSupport.write("""
        import parallax
        class Exact(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.CAMERA)
            right = parallax.Input("cam1", parallax.ANY, policy=parallax.LATEST, tolerance_ms=1)
            out = parallax.Output("cam0/exact", parallax.JSON)
            def process(self, trigger, inputs):
                right = inputs["right"]
                self.emit(self.out, {"t": trigger.t, "big": 2**53 + 1, "max": 2**63 - 1, "right": None if right is None else getattr(right, "t", right)})
        """, as: "exact.py", in: folder)
        let (_, failure, events) = try run("python:\(file)")
        #expect(failure == nil)
        let lines = events.filter { $0.contains("cam0/exact") }
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.contains("\"big\":9007199254740993") && $0.contains("\"max\":9223372036854775807") })
        #expect(lines.first?.contains("\"t\":1403715273262142976") == true, "\(lines.first ?? "")")
        #expect(lines.allSatisfy { !$0.contains("\"right\":null") }, "\(lines.first ?? "")")
    }

    @Test func aHangPastTheTimeoutKillsTheWorker() throws {
        let folder = try TemporaryFolder.make("python-hang")
        let file = try PythonTestSupport.write(PythonTestSupport.counter("""
                if self.n == 2:
                    time.sleep(3600)
        """), as: "hangs.py", in: folder)
        let (_, failure, events) = try run("python:\(file) timeout=0.5")
        let f = try #require(failure)
        #expect(f.status == .failed)
        #expect(f.message.contains("did not answer process within 0.5 s") && f.message.contains("killed"))
        #expect(events.filter { $0.contains("cam0/n") }.count == 1)
    }

    /// An analyzer that keeps what it should not (here 128 MiB a frame) fails with a MemoryError
    /// at its limit instead of taking the machine's memory; what it emitted before is kept.
    @Test func anAnalyzerThatKeepsGrowingStopsAtItsMemoryLimit() throws {
        let folder = try TemporaryFolder.make("python-memory")
        let file = try PythonTestSupport.write(PythonTestSupport.counter("""
                self.kept = getattr(self, "kept", []) + [bytearray(128 << 20)]
        """), as: "grows.py", in: folder)
        let (_, failure, events) = try run("python:\(file) memory_mb=600")
        let f = try #require(failure)
        #expect(f.status == .failed)
        #expect(f.message.contains("MemoryError") && f.message.contains("limited to 600 MiB: option memory_mb="), "\(f.message)")
        #expect((1...4).contains(events.filter { $0.contains("cam0/n") }.count))
        // 0: no limit (the six frames' 768 MiB are taken).
        let (_, unlimited, all) = try run("python:\(file) memory_mb=0")
        #expect(unlimited == nil)
        #expect(all.filter { $0.contains("cam0/n") }.count == 6)
    }

    /// A worker that truncates the shared memory it is handed (descriptor 4) cannot make
    /// Parallax's next copy into it fault: the memory is sealed against shrinking, the worker's
    /// truncate fails in the worker, and the run fails as an exception with what came before kept.
    @Test func aWorkerCannotShrinkTheSharedMemory() throws {
        let folder = try TemporaryFolder.make("python-shrink")
        let file = try PythonTestSupport.write(PythonTestSupport.counter("""
                if self.n == 2:
                    os.ftruncate(4, 0)
        """), as: "shrinks.py", in: folder)
        let (_, failure, events) = try run("python:\(file)")
        let f = try #require(failure)
        #expect(f.status == .failed)
        #expect(f.message.contains("shrinks.py") && f.message.contains("PermissionError"), "\(f.message)")
        #expect(events.filter { $0.contains("cam0/n") }.count == 1)
    }

    @Test func aFileThatDoesNotImportIsBadInputNamingTheFile() throws {
        PythonTestSupport.prepare()
        let folder = try TemporaryFolder.make("python-import")
        let file = try PythonTestSupport.write("import parallax\nimport no_such_module_xyz\n", as: "broken.py", in: folder)
        let syntax = try PythonTestSupport.write("import parallax\ndef (:\n", as: "syntax.py", in: folder)
        let none = try PythonTestSupport.write("import parallax\nx = 1\n", as: "none.py", in: folder)
        // A FIFO and a symlink to a device: the worker would wait or read forever while importing.
        let fifo = folder.appendingPathComponent("fifo.py").path, device = folder.appendingPathComponent("zero.py").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: device, withDestinationPath: "/dev/zero")
        let out = folder.appendingPathComponent("out").path
        for (path, expected) in [(file, "ModuleNotFoundError: No module named 'no_such_module_xyz'"), (syntax, "SyntaxError"),
                                 (none, "declares no subclass of parallax.Analyzer"),
                                 (folder.appendingPathComponent("missing.py").path, "no such file"),
                                 (fifo, "is not a regular file"), (device, "is not a regular file")] {
            #expect { _ = try RunSession(RunSession.Settings(chain: "python:\(path)", dataset: PythonTestSupport.dataset, out: out)) } throws: { error in
                guard let f = error as? AppFailure else { return false }
                return f.status == .badInput && f.message.contains("python:\(path)") && f.message.contains(expected)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"))
        for path in [file, syntax, none] { #expect(WorkerProcess.unreaped.pids(of: path).isEmpty) }
    }

    @Test func optionsAreCheckedAsDeclared() throws {
        PythonTestSupport.prepare()
        let folder = try TemporaryFolder.make("python-options")
        let out = folder.appendingPathComponent("out").path
        for (options, expected) in [("scale=1000", "must be in 0…100"), ("scale=x", "must be a finite number"), ("scael=2", "did you mean 'scale'"),
                                    ("timeout=0", "timeout"), ("memory_mb=-1", "memory_mb"), ("memory_mb=1.5", "whole number of MiB")] {
            #expect { _ = try RunSession(RunSession.Settings(chain: "python:\(brightness) \(options)", dataset: PythonTestSupport.dataset, out: out)) } throws: { error in
                guard let f = error as? AppFailure else { return false }
                return f.status == .badInput && f.message.contains(expected)
            }
        }
    }

    /// The worker gets fds 0–3 and nothing else of Parallax's: no output file, lock or other
    /// worker's socket stays open in a process Parallax does not control.
    @Test func aWorkerHoldsNoneOfParallaxsFiles() throws {
        let folder = try TemporaryFolder.make("python-fds")
        let file = try PythonTestSupport.write("""
        import os, parallax
        class Fds(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.CAMERA)
            out = parallax.Output("py/fds", parallax.JSON)
            def process(self, trigger, inputs):
                self.emit(self.out, sorted(os.readlink("/proc/self/fd/" + n) for n in os.listdir("/proc/self/fd") if os.path.exists("/proc/self/fd/" + n)))
        """, as: "fds.py", in: folder)
        // A second worker beside it: its socket must not reach the first.
        let (out, failure, events) = try run("python:\(file) ! python:\(brightness)")
        #expect(failure == nil)
        let lines = events.filter { $0.contains("\"stream\":\"py/fds\"") }
        #expect(lines.count == 6)
        let parent = URL(fileURLWithPath: out).deletingLastPathComponent().path
        #expect(lines.allSatisfy { !$0.contains(parent) && !$0.contains(".partial") }, "\(lines.first ?? "")")
        #expect(lines.allSatisfy { $0.components(separatedBy: "socket:").count - 1 <= 1 }, "\(lines.first ?? "")")
        // The shared memory is an anonymous memory file (or, on an old kernel, a file under
        // /dev/shm whose name is already gone): a `kill -9` leaves no file.
        #expect(lines.allSatisfy { ($0.contains("/memfd:parallax-") || $0.contains("/dev/shm/parallax-")) && $0.contains("(deleted)") }, "\(lines.first ?? "")")
    }

    /// A stream named like one of the run's own files (`run.json`, `events.jsonl`, …) is refused
    /// before the run, naming it, instead of replacing them with its folder.
    @Test func aStreamTakingTheRunsOwnFilesIsRefusedBeforeTheRun() throws {
        let folder = try TemporaryFolder.make("python-reserved")
        for name in ["run.json", "events.jsonl", ".parallax-output", "report.html/x"] {
            let file = try PythonTestSupport.write("""
            import numpy as np, parallax
            class Depths(parallax.Analyzer):
                frames = parallax.Input("cam0", parallax.CAMERA)
                out = parallax.Output("\(name)", parallax.DEPTH)
                def process(self, trigger, inputs):
                    self.emit(self.out, np.ones((4, 4), np.float32))
            """, as: "reserved.py", in: folder)
            let out = folder.appendingPathComponent("out").path
            PythonTestSupport.prepare()
            #expect { _ = try RunSession(RunSession.Settings(chain: "python:\(file)", dataset: PythonTestSupport.dataset, out: out)) } throws: { error in
                guard let f = error as? AppFailure else { return false }
                return f.status == .badInput && f.message.contains("stream '\(name)'") && f.message.contains("the run's own")
            }
            #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"))
        }
    }

    /// `--set NAME.OPTION` reaches a `python:` analyzer by the name its instance takes (its
    /// class's `name`), as it reaches a built-in by its own.
    @Test func setReachesAPythonAnalyzerByItsInstanceName() throws {
        PythonTestSupport.prepare()
        let scratch = try TemporaryFolder.make("python-set")
        let out = scratch.appendingPathComponent("run").path
        var settings = RunSession.Settings(chain: "python:\(brightness)", dataset: PythonTestSupport.dataset, out: out)
        settings.overrides = [try OptionOverride(parsing: "brightness.scale=2")]
        let session = try RunSession(settings)
        try session.run().commit()
        let plain = try run("python:\(brightness)")
        func values(_ folder: String) throws -> [Double] {
            try String(contentsOfFile: folder + "/events.jsonl", encoding: .utf8).split(separator: "\n")
                .filter { $0.contains("cam0/brightness") }
                .compactMap { line in (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["payload"] as? Double }
        }
        let doubled = try values(out), single = try values(plain.out)
        #expect(doubled.count == 6 && single.count == 6)
        #expect(zip(doubled, single).allSatisfy { abs($0 - 2 * $1) < 1e-9 }, "\(doubled) vs \(single)")
    }
} }
