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
        // 450 MB: below what OpenBLAS's workers reserve on top of the executable (it hung here).
        for setup in ["ulimit -v 450000", "ulimit -v 4000000; export OPENBLAS_NUM_THREADS=1", "true"] {
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

    static let listing = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-blas-guard-\(UUID().uuidString).txt")

    /// In this test process (no limit set by the test runner, or the variable given) nothing restarts.
    @Test func withoutALimitNothingRestarts() {
        var limit = rlimit()
        let limited = getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
        #expect(BLASThreadsGuard.needsRestart == (limited && getenv(BLASThreadsGuard.variable) == nil))
    }
}
