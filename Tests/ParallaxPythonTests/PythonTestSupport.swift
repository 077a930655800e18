import Foundation
import Testing
import TestSupport
@testable import ParallaxPython
#if canImport(Glibc)
import Glibc
#endif

/// The suites that start worker processes, one test at a time (they start several each: one at
/// a time keeps a loaded machine's timeouts out of their way).
@Suite(.serialized, .enabled(if: PythonTestSupport.isAvailable, "python3 with numpy is needed (pip install numpy)"))
enum WorkerProcessSuites {}

/// What the Python analyzer tests share: the repository's `python/` package on `PYTHONPATH`,
/// whether `python3` with numpy is there to run workers, and analyzer files written for a test.
enum PythonTestSupport {
    /// The repository's `python/` folder.
    static let package = RepositoryPaths.root.appendingPathComponent("python")
    /// The small EuRoC cut (6 frames per camera, 752×480).
    static let dataset = RepositoryPaths.root.appendingPathComponent("datasets/euroc_v1_01_cut").path

    /// Whether `python3` imports numpy: the condition of the tests that start workers (CI
    /// installs numpy; a machine without it skips them).
    static let isAvailable: Bool = {
        prepare()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import numpy, parallax"]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    /// Puts the repository's package first on `PYTHONPATH` (workers inherit the environment).
    static func prepare() {
        let current = ProcessInfo.processInfo.environment["PYTHONPATH"] ?? ""
        guard !current.split(separator: ":").contains(Substring(package.path)) else { return }
        setenv("PYTHONPATH", current.isEmpty ? package.path : package.path + ":" + current, 1)
    }

    /// Writes `source` as `name` into `folder` and returns its path.
    static func write(_ source: String, as name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try source.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// An analyzer file counting cam0 frames on `cam0/n` whose `process` runs `body` (Python
    /// statements, indented 8) before it emits; `self.n` is the call's number (1, 2, …).
    static func counter(_ body: String) -> String {
        """
        import os, signal, time
        import parallax

        class Counter(parallax.Analyzer):
            name = "counter"
            frames = parallax.Input("cam0", parallax.CAMERA)
            out = parallax.Output("cam0/n", parallax.NUMBER)
            n = 0

            def process(self, trigger, inputs):
                self.n += 1
        \(body)
                self.emit(self.out, self.n)

        """
    }

    /// The workers of the `python:FILE`s `chain` names that were started and not reaped
    /// (``WorkerProcess/unreaped``): alive or zombies, none may be left once the run has ended.
    /// Exact, unlike a look at this process's children, which tests running beside could add to.
    static func unreaped(in chain: String) -> [pid_t] {
        chain.split(separator: " ").filter { $0.hasPrefix("python:") }.flatMap { token -> [pid_t] in
            var file = String(token.dropFirst("python:".count))
            if let colon = file.lastIndex(of: ":"), !file[colon...].contains("/") { file = String(file[..<colon]) }
            return WorkerProcess.unreaped.pids(of: file)
        }
    }
}
