import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The suites that start worker processes, one test at a time: each checks that no Python
/// child of this process outlives what it started, which a test running beside it would spoil.
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

    /// Processes whose parent is this one and whose command is Python: alive or zombie, none
    /// should be left once a run has ended.
    static func pythonChildren() -> [String] {
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var found: [String] = []
        for pid in entries where pid.allSatisfy(\.isNumber) {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let command = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, Int32(fields[1]) == me, command.hasPrefix("python") else { continue }
            found.append("\(pid) \(command) \(fields[0])")
        }
        return found
    }
}
