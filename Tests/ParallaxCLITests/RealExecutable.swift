import Foundation
import ParallaxApp
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The built `parallax` executable (``Paths/executable``) started as a process of its own, for
/// tests that signal it, limit its resources or change process-wide settings.
struct RealExecutable {
    let process: Process
    private let errors: Pipe

    /// Whether ``Paths/executable`` is built: the condition of `@Test(.enabled(if:))` for the
    /// tests that start it (`swift build --build-tests` builds it; `swift test` alone may not).
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: Paths.executable.path) }

    /// Whether ``Paths/executable`` can run under a limit on its address space (`ulimit -v`):
    /// not a sanitized build (`scripts/test --sanitize` sets `PARALLAX_TEST_BINARY`), whose
    /// shadow memory reserves terabytes of it.
    static var runsUnderAddressLimits: Bool { isBuilt && ProcessInfo.processInfo.environment["PARALLAX_TEST_BINARY"] == nil }

    struct NotBuilt: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is not built (swift build builds it): give the test `.enabled(if: RealExecutable.isBuilt, …)`" }
    }

    /// Starts `parallax arguments`, through `bash -c "SETUP; exec parallax …"` when `shellSetup`
    /// is given (e.g. `ulimit -f 16`), in `directory`; throws ``NotBuilt`` when it is not built
    /// (a test that starts it is enabled only if ``isBuilt``).
    static func start(_ arguments: [String], shellSetup: String? = nil, in directory: URL? = nil) throws -> RealExecutable {
        let binary = Paths.executable
        guard FileManager.default.isExecutableFile(atPath: binary.path) else { throw NotBuilt(path: binary.path) }
        let process = Process()
        if let shellSetup {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "\(shellSetup); exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return RealExecutable(process: process, errors: errors)
    }

    /// Polls `condition` every 50 ms for up to `seconds`; whether it held.
    @discardableResult
    static func wait(upTo seconds: Double, until condition: () -> Bool) -> Bool {
        var waited = 0.0
        while !condition(), waited < seconds { Thread.sleep(forTimeInterval: 0.05); waited += 0.05 }
        return condition()
    }

    /// Sends `signal` and waits up to `seconds` for the process to end; when it does not, kills
    /// it and returns false.
    func interrupt(_ signal: Int32, within seconds: Double) -> Bool {
        kill(process.processIdentifier, signal)
        if Self.wait(upTo: seconds, until: { !process.isRunning }) { return true }
        kill(process.processIdentifier, SIGKILL)
        return false
    }

    /// Waits (up to `startup` seconds) for `file` to appear — the command is then under way —
    /// sends `signal` and waits up to `seconds` for the end. Returns what the process wrote on
    /// standard error, or nil (with the reason recorded as a test issue) when it had already
    /// ended or did not stop.
    func interrupt(_ signal: Int32, once file: URL, startup: Double, within seconds: Double) -> String? {
        Self.wait(upTo: startup) { FileManager.default.fileExists(atPath: file.path) }
        Thread.sleep(forTimeInterval: 0.5)
        guard process.isRunning else { Issue.record("the command ended before it could be interrupted"); return nil }
        guard interrupt(signal, within: seconds) else { Issue.record("the command did not stop within \(seconds) s of signal \(signal)"); return nil }
        return finish()
    }

    /// Waits for the end and returns what it wrote on standard error.
    func finish() -> String {
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return message
    }
}

extension Scenario {
    /// The built-in rig's orbit (no textures: seeded noise), as the bench simulates it.
    static func orbit(seconds: Double, seed: UInt64, width: Int) -> Scenario {
        var s = Scenario()
        s.seconds = seconds
        s.seed = seed
        s.width = width
        return s
    }
}
