import Foundation
import Parallax
import ParallaxApp
import TestSupport
import Testing

/// `parallax run` as a library: a session checks, runs and commits without the command line.
@Suite struct RunSessionTests {
    /// A short simulated orbit (built-in rig, 94 px).
    static func data(_ name: String) throws -> URL {
        var s = Scenario()
        s.seconds = 1
        s.seed = 2
        s.width = 94
        let folder = try TemporaryFolder.make(name)
        _ = try s.write(to: folder)
        return folder
    }

    @Test func aSessionRunsAChainAndCommitsItsFolder() throws {
        let data = try Self.data("session-data"), scratch = try TemporaryFolder.make("session-out")
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("run").path
        let session = try RunSession(RunSession.Settings(chain: "imu-integrator camera=cam0 imu=imu0", dataset: data.path, out: out))
        // Staged until the commit.
        #expect(!FileManager.default.fileExists(atPath: out) && FileManager.default.fileExists(atPath: out + ".partial"))
        let finished = try session.run()
        #expect(finished.errors.isEmpty)
        #expect((finished.report.streams.first { $0.stream == "cam0" }?.packets ?? 0) == 21)  // 0…1 s at 20 Hz
        try finished.commit()
        for file in ["events.jsonl", "run.json", "report.html"] {
            #expect(FileManager.default.fileExists(atPath: out + "/" + file), "\(file)")
        }
        // One rotation per interval between frames, each a line of events.jsonl.
        let events = try String(contentsOfFile: out + "/events.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(events.count == 20 && events.allSatisfy { $0.contains("\"producer\":\"imu-integrator\"") })
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }

    @Test func badInputIsRefusedBeforeAnythingIsWritten() throws {
        let data = try Self.data("session-bad"), scratch = try TemporaryFolder.make("session-bad-out")
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("run").path
        for chain in ["no-such-analyzer", "imu-integrator camera=cam9"] {
            #expect { _ = try RunSession(RunSession.Settings(chain: chain, dataset: data.path, out: out)) } throws: { error in
                (error as? AppFailure)?.status == .badInput
            }
        }
        var settings = RunSession.Settings(chain: "imu-integrator", dataset: data.path, out: out)
        settings.saveMap = scratch.appendingPathComponent("m.pxmap").path
        #expect { _ = try RunSession(settings) } throws: { error in
            (error as? AppFailure).map { $0.status == .badInput && $0.message.contains("--save-map: no analyzer") } ?? false
        }
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"))
    }

    /// `--set` (``RunSession/Settings/overrides``): a value out of range or a misspelt name is
    /// bad input naming the `--set`, before anything is written; a good one runs and `run.json`
    /// records it with the options the analyzers ran with.
    @Test func overridesAreCheckedAndRecordedInRunJSON() throws {
        let cut = RepositoryPaths.root.appendingPathComponent("datasets/euroc_v1_01_cut").path
        let scratch = try TemporaryFolder.make("session-set")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("run").path
        let chain = "klt camera=cam0 max_features=200 ! stream-stats streams=cam0"
        let refused = [
            ("klt.max_features=0", "--set klt.max_features=0: analyzer 'klt', option 'max_features' = '0': must be in 1…100000"),
            ("klt.max_features=many", "--set klt.max_features=many: analyzer 'klt', option 'max_features' = 'many': expected an integer"),
            ("klt.max_featres=300", "--set klt.max_featres=300: analyzer 'klt' has no option 'max_featres'; did you mean 'max_features'? (see `parallax plugins klt`)"),
            ("kl.max_features=300", "--set kl.max_features=300: chain 'pipeline' has no analyzer 'kl'; did you mean 'klt'? (its analyzers: 'klt', 'stream-stats')"),
        ]
        for (text, message) in refused {
            var settings = RunSession.Settings(chain: chain, dataset: cut, out: out)
            settings.overrides = [try OptionOverride(parsing: text)]
            #expect { _ = try RunSession(settings) } throws: { error in
                (error as? AppFailure).map { $0.status == .badInput && $0.message == message } ?? false
            }
        }
        #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"))

        var settings = RunSession.Settings(chain: chain, dataset: cut, out: out)
        settings.overrides = [try OptionOverride(parsing: "klt.max_features=50"), try OptionOverride(parsing: "klt.window=15")]
        try RunSession(settings).run().commit()
        let run = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/run.json"))) as? [String: Any])
        #expect(run["set"] as? [String] == ["klt.max_features=50", "klt.window=15"])
        let analyzers = try #require(run["analyzers"] as? [[String: Any]])
        let klt = try #require(analyzers.first { $0["instance"] as? String == "klt" })
        #expect(klt["options"] as? String == "camera=cam0 max_features=50 window=15")
        #expect(klt["set"] as? String == "max_features=50 window=15")
        let effective = try #require(klt["effectiveOptions"] as? [String: String])
        #expect(effective["max_features"] == "50" && effective["window"] == "15" && effective["camera"] == "cam0")
        #expect(effective["levels"] != nil, "defaults are recorded too: \(effective)")
        // An analyzer no --set changed has no `set`, but its effective options all the same.
        let stats = try #require(analyzers.first { $0["instance"] as? String == "stream-stats" })
        #expect(stats["set"] == nil && (stats["effectiveOptions"] as? [String: String])?["streams"] == "[\"cam0\"]")
    }

    @Test func aFolderParallaxDidNotWriteIsNeverReplaced() throws {
        let data = try Self.data("session-foreign"), scratch = try TemporaryFolder.make("session-foreign-out")
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: scratch) }
        let mine = scratch.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: mine.appendingPathComponent("notes.txt"))
        #expect { _ = try RunSession(RunSession.Settings(chain: "imu-integrator", dataset: data.path, out: mine.path)) } throws: { error in
            (error as? AppFailure)?.status == .badInput
        }
        #expect(try String(contentsOf: mine.appendingPathComponent("notes.txt"), encoding: .utf8) == "keep")
    }
}
