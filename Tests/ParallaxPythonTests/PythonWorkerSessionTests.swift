import Foundation
import Testing
import TestSupport
@testable import ParallaxPython

/// A worker must say hello in this protocol's version, within the limits, before it is asked
/// anything. Fake `parallax` packages stand in for a worker of another version and one that
/// breaks the protocol; the interpreter is a wrapper script, as `--python` may name.
extension WorkerProcessSuites { @Suite struct PythonWorkerSessionTests {
    /// An interpreter that runs python3 with a fake `parallax` package whose worker's `main`
    /// is `body` (Python, indented 4; `fd` is the socket).
    func fakeInterpreter(_ body: String, in folder: URL) throws -> String {
        let package = folder.appendingPathComponent("fake/parallax")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try "".write(to: package.appendingPathComponent("__init__.py"), atomically: true, encoding: .utf8)
        try """
        import json, os, struct, sys
        def main():
            fd = int(sys.argv[2])
        \(body)
        """.write(to: package.appendingPathComponent("_worker.py"), atomically: true, encoding: .utf8)
        let script = folder.appendingPathComponent("python-fake")
        try "#!/bin/sh\nPYTHONPATH='\(folder.appendingPathComponent("fake").path)' exec python3 \"$@\"\n"
            .write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        return script.path
    }

    @Test func aWorkerOfAnotherVersionIsRefusedSayingWhatToInstall() throws {
        let folder = try TemporaryFolder.make("python-version")
        defer { try? FileManager.default.removeItem(at: folder) }
        let interpreter = try fakeInterpreter("""
            h = json.dumps({"protocol": 99}).encode()
            os.write(fd, struct.pack("<IBI", 5 + len(h), 1, len(h)) + h)
            os.read(fd, 1)
        """, in: folder)
        #expect(throws: PythonWorkerError.version(file: "x.py", worker: 99, expected: WorkerProtocol.version)) {
            _ = try PythonWorkerSession(file: "x.py", interpreter: interpreter, timeout: 30)
        }
        #expect(WorkerProcess.unreaped.pids(of: "x.py").isEmpty)
    }

    @Test func aLengthBeyondTheLimitIsRefusedAndTheWorkerEnded() throws {
        let folder = try TemporaryFolder.make("python-length")
        defer { try? FileManager.default.removeItem(at: folder) }
        let interpreter = try fakeInterpreter("""
            os.write(fd, struct.pack("<IBI", 0xFFFFFFF0, 1, 0))
            os.read(fd, 1)
        """, in: folder)
        #expect { _ = try PythonWorkerSession(file: "x.py", interpreter: interpreter, timeout: 30) } throws: { error in
            guard case let .protocolViolation(what)? = error as? PythonWorkerError else { return false }
            return what.contains("4294967280 bytes")
        }
        #expect(WorkerProcess.unreaped.pids(of: "x.py").isEmpty)
    }

    @Test func anInterpreterThatDoesNotExistIsNamed() {
        #expect(throws: PythonWorkerError.launch(interpreter: "/no/such/python", reason: "No such file or directory")) {
            _ = try PythonWorkerSession(file: "x.py", interpreter: "/no/such/python", timeout: 30)
        }
    }

    @Test func exitStatusesAreSaidInWords() {
        #expect(WorkerProcess.describe(status: 7 << 8) == "exited with status 7")
        #expect(WorkerProcess.describe(status: 9) == "was killed by signal 9 (SIGKILL)")
        #expect(WorkerProcess.describe(status: 11 | 0x80) == "was killed by signal 11 (SIGSEGV)")
    }
} }
