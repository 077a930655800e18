import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `parallax run` with a `python:` analyzer, as a process of its own: Ctrl-C stops the run as it
/// stops any (exit 130, what was computed kept) and ends the worker, which lives in its own
/// process group and so never sees the terminal's signal itself.
@Suite struct RunCommandPythonTests {
    static var hasPython: Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import numpy"]
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    /// The pids of the processes whose parent is `parent`.
    static func children(of parent: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { pid -> Int32? in
            guard pid.allSatisfy(\.isNumber), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? Int32(pid) : nil
        }
    }

    @Test(.enabled(if: RealExecutable.isBuilt && hasPython, "needs the built parallax and python3 with numpy"))
    func anInterruptedRunEndsItsWorker() throws {
        let folder = Paths.temporary("python-interrupt")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("slow.py")
        try """
        import time, parallax
        class Slow(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.CAMERA)
            out = parallax.Output("cam0/n", parallax.NUMBER)
            def process(self, trigger, inputs):
                time.sleep(1)
                self.emit(self.out, 1)
        """.write(to: file, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out"), partial = URL(fileURLWithPath: out.path + ".partial")
        let package = Paths.root.appendingPathComponent("python").path
        let run = try RealExecutable.start(["run", "python:\(file.path)", Paths.root.appendingPathComponent("datasets/euroc_v1_01_cut").path,
                                            "--quiet", "--out", out.path], shellSetup: "export PYTHONPATH='\(package)'")
        let pid = run.process.processIdentifier
        // Under way once the worker runs (the one that described the file has ended by then).
        RealExecutable.wait(upTo: 60) { FileManager.default.fileExists(atPath: partial.path) && !Self.children(of: pid).isEmpty }
        let workers = Self.children(of: pid)
        #expect(!workers.isEmpty, "no worker process under way")
        Thread.sleep(forTimeInterval: 1.5)
        guard run.interrupt(SIGINT, within: 30) else { Issue.record("the run did not stop after SIGINT"); return }
        let message = run.finish()
        #expect(run.process.terminationStatus == 128 + SIGINT, "\(message)")
        #expect(message.contains("SIGINT: stopped; what was computed is in"))
        for worker in workers {
            #expect(kill(worker, 0) != 0, "worker \(worker) outlived its run")
        }
        #expect(FileManager.default.fileExists(atPath: partial.appendingPathComponent("run.json").path))
    }

    /// Ctrl-C while a worker is still starting (its file sleeps at import, inside the 120 s a
    /// start may take): the worker is killed at once, the command says it stopped before the
    /// run began and exits 130; no output folder is left.
    @Test(.enabled(if: RealExecutable.isBuilt && hasPython, "needs the built parallax and python3 with numpy"))
    func anInterruptDuringAWorkersStartEndsItAtOnce() throws {
        let folder = Paths.temporary("python-interrupt-start")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("slowstart.py")
        try """
        import os, time, parallax
        open(os.path.join(os.path.dirname(__file__), "importing"), "w").close()
        time.sleep(3600)
        class Never(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.CAMERA)
            out = parallax.Output("cam0/n", parallax.NUMBER)
            def process(self, trigger, inputs):
                pass
        """.write(to: file, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out"), partial = URL(fileURLWithPath: out.path + ".partial")
        let package = Paths.root.appendingPathComponent("python").path
        let run = try RealExecutable.start(["run", "python:\(file.path)", Paths.root.appendingPathComponent("datasets/euroc_v1_01_cut").path,
                                            "--quiet", "--out", out.path], shellSetup: "export PYTHONPATH='\(package)'")
        let pid = run.process.processIdentifier
        RealExecutable.wait(upTo: 60) { FileManager.default.fileExists(atPath: folder.appendingPathComponent("importing").path) }
        let workers = Self.children(of: pid)
        #expect(!workers.isEmpty, "no worker process under way")
        guard run.interrupt(SIGINT, within: 20) else { Issue.record("the run did not stop after SIGINT"); return }
        let message = run.finish()
        #expect(run.process.terminationStatus == 128 + SIGINT, "\(message)")
        #expect(message.contains("SIGINT: stopped before the run began"), "\(message)")
        RealExecutable.wait(upTo: 5) { workers.allSatisfy { kill($0, 0) != 0 } }
        for worker in workers { #expect(kill(worker, 0) != 0, "worker \(worker) outlived its run") }
        #expect(!FileManager.default.fileExists(atPath: out.path) && !FileManager.default.fileExists(atPath: partial.path))
    }

    /// A worker that hangs (its timeout 600 s) and has forked a child: Ctrl-C kills both at
    /// once, the run says it was interrupted (not that the worker missed its timeout) and exits
    /// 130; no process of the worker's is left.
    @Test(.enabled(if: RealExecutable.isBuilt && hasPython, "needs the built parallax and python3 with numpy"))
    func anInterruptedRunKillsAHangingWorkerAndWhatItStarted() throws {
        let folder = Paths.temporary("python-interrupt-hang")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hang.py")
        try """
        import os, time, parallax
        class Hang(parallax.Analyzer):
            frames = parallax.Input("cam0", parallax.CAMERA)
            out = parallax.Output("cam0/n", parallax.NUMBER)
            def process(self, trigger, inputs):
                child = os.fork()
                if child == 0:
                    time.sleep(3600)
                    os._exit(0)
                with open(os.path.join(os.path.dirname(__file__), "forked"), "w") as f:
                    f.write(str(child))
                time.sleep(3600)
        """.write(to: file, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out"), partial = URL(fileURLWithPath: out.path + ".partial")
        let package = Paths.root.appendingPathComponent("python").path
        let run = try RealExecutable.start(["run", "python:\(file.path) timeout=600", Paths.root.appendingPathComponent("datasets/euroc_v1_01_cut").path,
                                            "--quiet", "--out", out.path], shellSetup: "export PYTHONPATH='\(package)'")
        let pid = run.process.processIdentifier
        // Under way once the worker has forked its child (it says so in a file).
        let marker = folder.appendingPathComponent("forked")
        RealExecutable.wait(upTo: 60) { FileManager.default.fileExists(atPath: marker.path) }
        RealExecutable.wait(upTo: 5) { Self.children(of: pid).contains { !Self.children(of: $0).isEmpty } }
        let workers = Self.children(of: pid)
        let forked = workers.flatMap { Self.children(of: $0) }
        #expect(!forked.isEmpty, "the worker did not fork")
        guard run.interrupt(SIGINT, within: 60) else { Issue.record("the run did not stop after SIGINT"); return }
        let message = run.finish()
        #expect(run.process.terminationStatus == 128 + SIGINT, "\(message)")
        #expect(message.contains("the run was interrupted") && !message.contains("did not answer"), "\(message)")
        RealExecutable.wait(upTo: 5) { (workers + forked).allSatisfy { kill($0, 0) != 0 } }
        for process in workers + forked { #expect(kill(process, 0) != 0, "process \(process) outlived its run") }
        #expect(FileManager.default.fileExists(atPath: partial.appendingPathComponent("run.json").path))
    }
}
