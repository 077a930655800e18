import Foundation
import Testing
import ParallaxFuzzing

/// Every seed of every fuzz target, and every input that once crashed one (`Fuzz/Crashes`,
/// named `TARGET-<hash>` by scripts/fuzz), run through the target's code in the ordinary test
/// run: a class of crash found by fuzzing stays fixed.
@Suite struct FuzzRegressionTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func files(_ folder: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsAreValidAndSavedCrashesDoNotCrash(_ target: FuzzTarget) throws {
        defer { target.removeScratch() }
        let seeds = Self.files(Self.fuzz.appendingPathComponent("Seeds/\(target.rawValue)"))
        #expect(!seeds.isEmpty, "no seeds for \(target.rawValue)")
        // A seed the reader refuses would start the fuzzer in the error paths only.
        for seed in seeds { #expect(target.run(try Data(contentsOf: seed)), "\(target.rawValue): seed \(seed.lastPathComponent) is refused") }
        // Corrupted seeds (truncated, bytes flipped) are refused or read, never a crash.
        for seed in seeds {
            let data = try Data(contentsOf: seed)
            for cut in stride(from: 0, to: data.count, by: max(1, data.count / 16)) { target.run(data.prefix(cut)) }
            var flipped = data
            for k in stride(from: 0, to: flipped.count, by: 7) { flipped[k] ^= 0xA5 }
            target.run(flipped)
        }
        // Every input that once crashed this target (one target's runs share its scratch folder,
        // so they are replayed here, not in a test of their own).
        for file in Self.files(Self.fuzz.appendingPathComponent("Crashes")) where file.lastPathComponent.hasPrefix(target.rawValue + "-") {
            target.run(try Data(contentsOf: file))
        }
    }

    /// Each saved crash names the target that found it (the test above replays it there).
    @Test func savedCrashesNameTheirTarget() {
        for file in Self.files(Self.fuzz.appendingPathComponent("Crashes")) {
            let name = file.lastPathComponent
            #expect(FuzzTarget.allCases.contains { name.hasPrefix($0.rawValue + "-") },
                    "\(name): a saved crash must be named TARGET-… (one of \(FuzzTarget.allCases.map(\.rawValue)))")
        }
    }

    /// `scripts/fuzz` runs every target (its list is the one CI and users run).
    @Test func theFuzzScriptRunsEveryTarget() throws {
        let script = try String(contentsOf: Self.fuzz.deletingLastPathComponent().appendingPathComponent("scripts/fuzz"), encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("targets=(") })
        let listed = line.dropFirst("targets=(".count).dropLast().split(separator: " ").map(String.init)
        #expect(listed == FuzzTarget.allCases.map(\.rawValue))
    }
}
