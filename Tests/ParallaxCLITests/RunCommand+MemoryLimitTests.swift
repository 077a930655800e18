import Foundation
import Testing
import Parallax
import ParallaxCodecs

@Suite struct RunMemoryLimitTests {
    /// A Middlebury folder of a 741×500 pair of seeded noise, with Motorcycle's calibration.
    static func noisePair() throws -> URL {
        let dir = Paths.temporary("memory-limit")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, seed) in [("im0.png", 3), ("im1.png", 5)] {
            let samples = (0..<(741 * 500 * 3)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 7) }
            try ImageEncoder.writePNG(ImageBuffer(width: 741, height: 500, channels: 3, samples: samples), to: dir.appendingPathComponent(name).path)
        }
        try StereoBenchTests.motorcycleCalibration.write(to: dir.appendingPathComponent("calib.txt"), atomically: true, encoding: .utf8)
        return dir
    }

    /// 700 disparities of a 741×500 pair need 780 MB of cost volumes: under an 800 MB limit on
    /// the address space the run fails (exit 1) saying so, instead of the process ending on an
    /// allocation trap (exit 134, a crash report of every thread).
    @Test(.enabled(if: RealExecutable.runsUnderAddressLimits, "the parallax executable is not built (swift build builds it), or is a sanitized build"))
    func costVolumesBeyondTheAddressSpaceFailTheRunWithAMessage() throws {
        let dir = try Self.noisePair(), out = Paths.temporary("memory-limit-out")
        defer { try? FileManager.default.removeItem(at: dir); try? FileManager.default.removeItem(at: out) }
        let run = try RealExecutable.start(["run", "stereo-depth disparities=700", dir.path, "--out", out.path, "--quiet"], shellSetup: "ulimit -v 800000")
        let ended = RealExecutable.wait(upTo: 300) { !run.process.isRunning }
        if !ended { kill(run.process.processIdentifier, SIGKILL) }
        #expect(ended)
        let message = run.finish()
        #expect(run.process.terminationStatus == 1, "\(message.prefix(400))")
        #expect(message.contains("not enough memory for the cost volumes"), "\(message.prefix(400))")
        #expect(!message.contains("Fatal error"))
    }

    /// `klt` over the bundled cut under 700 MB of address space (threaded unless limited):
    /// it finishes with the events of a run without a limit. It hung: glibc's per-thread arenas
    /// (64 MB of address space each) left no room for a decoding thread, and libdispatch waits
    /// for a thread forever; with the space found, OpenBLAS's work buffer did not fit, and
    /// OpenBLAS retries that forever too.
    @Test(.enabled(if: RealExecutable.runsUnderAddressLimits, "the parallax executable is not built (swift build builds it), or is a sanitized build"))
    func tracksUnderALimitedAddressSpaceAsWithout() throws {
        let free = Paths.temporary("limit-free"), limited = Paths.temporary("limit-700")
        defer { try? FileManager.default.removeItem(at: free); try? FileManager.default.removeItem(at: limited) }
        for (out, setup) in [(free, "true"), (limited, "ulimit -v 700000")] {
            let run = try RealExecutable.start(["run", "klt", Paths.cut, "--out", out.path, "--quiet"], shellSetup: setup)
            let ended = RealExecutable.wait(upTo: 120) { !run.process.isRunning }
            if !ended { kill(run.process.processIdentifier, SIGKILL) }
            #expect(ended, "\(setup): still running after 120 s")
            let message = run.finish()
            #expect(run.process.terminationStatus == 0, "\(setup): \(message.prefix(400))")
        }
        let a = try Data(contentsOf: free.appendingPathComponent("events.jsonl"))
        let b = try Data(contentsOf: limited.appendingPathComponent("events.jsonl"))
        #expect(!a.isEmpty && a == b)
    }
}
