import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ParallaxCLI

@Suite struct BLASThreadsGuardTests {
    /// `parallax plugins` under a limit on the address space (`ulimit -v`), through the
    /// executable: it starts itself again with one OpenBLAS thread and answers (it used to hang at
    /// exit under tight limits, its OpenBLAS workers retrying their buffers forever), with its
    /// arguments intact; and with the thread count already set it does not start again.
    @Test(.enabled(if: RealExecutable.runsUnderAddressLimits, "the parallax executable is not built (swift build builds it), or is a sanitized build"))
    func aLimitedAddressSpaceStartsAgainWithOneBLASThread() throws {
        // 700 MB: below what OpenBLAS's workers reserve on top of the executable and its own
        // buffer (it hung at 450 MB); a count asked for by the user is replaced under a limit.
        for setup in ["ulimit -v 700000", "ulimit -v 700000; export OPENBLAS_NUM_THREADS=64", "ulimit -v 4000000; export OPENBLAS_NUM_THREADS=1", "true"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "\(setup); exec \"$0\" plugins > \"$1\"", Paths.executable.path, Self.listing.path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            let ended = RealExecutable.wait(upTo: 120) { !process.isRunning }
            if !ended { kill(process.processIdentifier, SIGKILL) }
            #expect(ended, "\(setup): still running after 120 s")
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(setup)")
            let text = (try? String(contentsOf: Self.listing, encoding: .utf8)) ?? ""
            #expect(text.contains("klt"), "\(setup): \(text.prefix(200))")
        }
    }

    /// Under a limit that leaves no room for BLAS's work buffer the executable stops at once
    /// (exit 1) saying how much to allow, instead of running analyzers whose solves would fail
    /// into "nothing found" (planes gave none, vio reset every frame: exit 0); at the limit it
    /// names, the same run succeeds.
    @Test(.enabled(if: RealExecutable.runsUnderAddressLimits, "the parallax executable is not built (swift build builds it), or is a sanitized build"))
    func aLimitTooSmallForBLASStopsAtOnceSayingWhatToAllow() throws {
        let out = Paths.temporary("limit-too-small")
        defer { try? FileManager.default.removeItem(at: out) }
        let small = try RealExecutable.start(["run", "klt", Paths.cut, "--out", out.path, "--quiet"], shellSetup: "ulimit -v 380000")
        let ended = RealExecutable.wait(upTo: 120) { !small.process.isRunning }
        if !ended { kill(small.process.processIdentifier, SIGKILL) }
        let message = small.finish()
        #expect(small.process.terminationStatus == 1, "\(message.prefix(400))")
        #expect(message.contains("leaves no room for BLAS's work buffer") && message.contains("nothing was run"), "\(message.prefix(400))")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let advice = try #require(message.firstMatch(of: /ulimit -v (\d+)\)/)?.1)
        let enough = try RealExecutable.start(["run", "klt", Paths.cut, "--out", out.path, "--quiet"], shellSetup: "ulimit -v \(advice)")
        let finished = RealExecutable.wait(upTo: 120) { !enough.process.isRunning }
        if !finished { kill(enough.process.processIdentifier, SIGKILL) }
        let second = enough.finish()
        #expect(enough.process.terminationStatus == 0, "ulimit -v \(advice): \(second.prefix(400))")
    }

    static let listing = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-blas-guard-\(UUID().uuidString).txt")

    /// In this test process (no limit set by the test runner, or the variable given) nothing restarts.
    @Test func withoutALimitNothingRestarts() {
        var limit = rlimit()
        let limited = getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
        let one = getenv(BLASThreadsGuard.variable).map { String(cString: $0) == "1" } ?? false
        #expect(BLASThreadsGuard.needsRestart == (limited && !one))
    }
}
