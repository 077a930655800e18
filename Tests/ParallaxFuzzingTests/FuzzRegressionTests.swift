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
    func seedsAreValidInputs(_ target: FuzzTarget) throws {
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
    }

    @Test func savedCrashesNoLongerCrash() throws {
        for file in Self.files(Self.fuzz.appendingPathComponent("Crashes")) {
            let name = file.lastPathComponent
            guard let target = FuzzTarget.allCases.first(where: { name.hasPrefix($0.rawValue + "-") }) else {
                Issue.record("\(name): a saved crash must be named TARGET-… (one of \(FuzzTarget.allCases.map(\.rawValue)))"); continue
            }
            target.run(try Data(contentsOf: file))
        }
    }
}
