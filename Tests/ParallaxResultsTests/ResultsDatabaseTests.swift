import CSQLite
import Foundation
import Testing
@testable import ParallaxResults

@Suite struct ResultsDatabaseTests {
    static func temporary() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("results-\(UUID().uuidString)/results.sqlite").path
    }

    static func run(_ suite: String = "default", rmse: [String: [Double]], status: String = "ok") -> RecordedRun {
        var run = RecordedRun(recordedAt: "2026-11-25T19:00:00Z", suite: suite, suiteFile: "bench/\(suite).yaml", suiteSHA256: String(repeating: "a", count: 64),
                              parallaxVersion: "0.1.0", parallaxCommit: "abc123", machine: "test", options: "parallax bench")
        for (group, values) in rmse.sorted(by: { $0.key < $1.key }) {
            for (k, v) in values.enumerated() {
                let name = values.count > 1 ? "\(group)-seed\(k + 1)" : group
                run.cases.append(RecordedCase(name: name, group: group, chain: "klt ! vio", chainSHA256: "c", chainCommit: "", dataset: "d", datasetSHA256: "e",
                                              status: status, note: "", realtimeFactor: 3,
                                              metrics: [RecordedMetric(name: "trajectory.rmse", value: v, lowerIsBetter: true),
                                                        RecordedMetric(name: "trajectory.found_fraction", value: 0.9, lowerIsBetter: nil)],
                                              timings: [RecordedTiming(analyzer: "vio", calls: 10, p50Milliseconds: 1.5, p95Milliseconds: 2)]))
            }
        }
        return run
    }

    @Test func aRunIsRecordedAndReadBackWhole() throws {
        let path = Self.temporary()
        let db = try ResultsDatabase(path: path)
        let first = Self.run(rmse: ["vio": [0.01, 0.012, 0.011], "klt": [0.5]])
        let id = try db.record(first)
        var back = try db.run(id: id)
        #expect(back.id == id)
        back.id = 0
        #expect(back == first)
        let second = try db.record(Self.run(rmse: ["vio": [0.02, 0.021, 0.022], "klt": [0.5]]))
        #expect(try db.resolve("latest") == second && db.resolve("latest~1") == id && db.resolve("\(id)") == id)
        #expect(try db.runs().map(\.id) == [second, id])
        #expect(try db.series(metric: "trajectory.rmse", caseName: "klt").map(\.value) == [0.5, 0.5])
        #expect(throws: ResultsDatabaseError.self) { try db.resolve("latest~2") }
        #expect(throws: ResultsDatabaseError.self) { try db.resolve("yesterday") }
        // Reopened: the same runs.
        #expect(try ResultsDatabase(path: path).runs().count == 2)
    }

    @Test func aCorruptFileIsAnErrorAndIsNotChanged() throws {
        let path = Self.temporary()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        FileManager.default.createFile(atPath: path, contents: junk)
        do { _ = try ResultsDatabase(path: path); Issue.record("opened") } catch let e as ResultsDatabaseError {
            #expect(e.description.contains(path) && e.description.contains("not a usable SQLite database") && e.description.contains("not changed"))
        }
        #expect(FileManager.default.contents(atPath: path) == junk)
    }

    @Test func aLockedDatabaseIsAnErrorAfterWaitingAndLosesNothing() throws {
        let path = Self.temporary()
        let db = try ResultsDatabase(path: path, busyTimeoutMilliseconds: 200)
        let kept = try db.record(Self.run(rmse: ["vio": [0.01]]))
        // Another process holds the write lock.
        var other: OpaquePointer?
        #expect(sqlite3_open(path, &other) == SQLITE_OK)
        defer { sqlite3_close(other) }
        #expect(sqlite3_exec(other, "BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK)
        do { _ = try db.record(Self.run(rmse: ["vio": [0.02]])); Issue.record("recorded while locked") } catch let e as ResultsDatabaseError {
            #expect(e.description.contains("locked by another process") && !e.isBadInput)
        }
        #expect(sqlite3_exec(other, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
        #expect(try db.runs().map(\.id) == [kept])
        #expect(try db.record(Self.run(rmse: ["vio": [0.02]])) > kept)
    }

    @Test func aDatabaseOfANewerSchemaIsRefusedUnchanged() throws {
        let path = Self.temporary()
        _ = try ResultsDatabase(path: path)
        var raw: OpaquePointer?
        #expect(sqlite3_open(path, &raw) == SQLITE_OK)
        #expect(sqlite3_exec(raw, "PRAGMA user_version = 9", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(raw)
        #expect { _ = try ResultsDatabase(path: path) } throws: { ($0 as? ResultsDatabaseError)?.reason.contains("newer Parallax") == true }
    }

    /// Someone else's SQLite file (tables, no schema version) is refused and never written into.
    @Test func anotherProgramsDatabaseIsRefusedUnchanged() throws {
        let path = Self.temporary()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var raw: OpaquePointer?
        #expect(sqlite3_open(path, &raw) == SQLITE_OK)
        #expect(sqlite3_exec(raw, "CREATE TABLE runs(x TEXT); INSERT INTO runs VALUES ('theirs')", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(raw)
        let before = FileManager.default.contents(atPath: path)
        #expect { _ = try ResultsDatabase(path: path) } throws: { error in
            guard let e = error as? ResultsDatabaseError else { return false }
            return e.isBadInput && e.reason.contains("did not write (runs)") && e.description.contains(path)
        }
        #expect(FileManager.default.contents(atPath: path) == before)
    }

    /// A folder where the database file should be: bad input naming it, nothing created.
    @Test func aFolderIsRefused() throws {
        let path = Self.temporary()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect { _ = try ResultsDatabase(path: path) } throws: { ($0 as? ResultsDatabaseError).map { $0.isBadInput && $0.reason.contains("folder") } == true }
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
    }

    /// Text is bound and read back by its length: a NUL inside a case name survives.
    @Test func textWithANulComesBackWhole() throws {
        let db = try ResultsDatabase(path: Self.temporary())
        var run = Self.run(rmse: ["vio": [0.01]])
        run.cases[0].name = "a\u{0}b"
        let id = try db.record(run)
        #expect(try db.run(id: id).cases.map(\.name) == ["a\u{0}b"])
    }
}

@Suite struct ResultsComparisonTests {
    @Test func anIdenticalRerunPasses() {
        let a = ResultsDatabaseTests.run(rmse: ["vio": [0.01, 0.012, 0.011], "klt": [0.5]])
        let c = ResultsComparison(before: a, after: a)
        #expect(c.regressions.isEmpty && c.rows.allSatisfy { $0.verdict == .same })
    }

    @Test func aSignificantWorseningOverSeedsIsARegressionANoisyOneIsNot() throws {
        let a = ResultsDatabaseTests.run(rmse: ["vio": [0.010, 0.012, 0.011, 0.0105], "klt": [0.5]])
        let worse = ResultsDatabaseTests.run(rmse: ["vio": [0.020, 0.022, 0.021, 0.0205], "klt": [0.5]])
        let c = ResultsComparison(before: a, after: worse)
        let row = try #require(c.rows.first { $0.group == "vio" && $0.metric == "trajectory.rmse" })
        #expect(row.verdict == .regression && (row.pValue ?? 1) < 0.001 && abs((row.relativeChange ?? 0) - 0.01 / 0.010875) < 1e-9)
        #expect(c.regressions.count == 1)
        // Larger means, but within the seeds' spread: not significant.
        let noisy = ResultsDatabaseTests.run(rmse: ["vio": [0.005, 0.03, 0.008, 0.02], "klt": [0.5]])
        let n = ResultsComparison(before: a, after: noisy)
        #expect(n.rows.first { $0.group == "vio" && $0.metric == "trajectory.rmse" }?.verdict == .worse && n.regressions.isEmpty)
        // One value per side: the threshold alone decides; better is an improvement.
        let single = ResultsComparison(before: a, after: ResultsDatabaseTests.run(rmse: ["vio": [0.010, 0.012, 0.011, 0.0105], "klt": [0.6]]), threshold: 0.1)
        #expect(single.rows.first { $0.group == "klt" && $0.metric == "trajectory.rmse" }?.verdict == .regression)
        let better = ResultsComparison(before: a, after: ResultsDatabaseTests.run(rmse: ["vio": [0.010, 0.012, 0.011, 0.0105], "klt": [0.4]]))
        #expect(better.regressions.isEmpty && better.rows.contains { $0.verdict == .improvement })
    }

    @Test func aCaseThatNowFailsIsARegressionAndNewOrGoneCasesAreShown() {
        let a = ResultsDatabaseTests.run(rmse: ["vio": [0.01], "klt": [0.5]])
        var b = ResultsDatabaseTests.run(rmse: ["vio": [0.01], "orb": [0.5]])
        b.cases[1].status = "failed"
        let c = ResultsComparison(before: a, after: b)
        #expect(c.rows.contains { $0.group == "klt" && $0.verdict == .onlyBefore })
        #expect(c.rows.contains { $0.group == "orb" && $0.verdict == .onlyAfter })
        var d = a
        d.cases[0].status = "failed"
        #expect(ResultsComparison(before: a, after: d).regressions.contains { $0.verdict == .failed })
    }
}
