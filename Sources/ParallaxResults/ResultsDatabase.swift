import CSQLite
import Foundation

/// Why the results database could not be used. A database that is locked, corrupt or of a
/// newer schema is never changed: what it holds stays.
public struct ResultsDatabaseError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var reason: String
    /// Bad input (an unknown run id, a newer schema) rather than a failure.
    public var isBadInput: Bool
    public var description: String { "results database '\(path)': \(reason)" }
}

/// The benchmark results database: every recorded `bench` run with its cases, metrics and
/// timings, in SQLite (Debian's libsqlite3). Writes are one transaction per run (all or
/// nothing); a second process waits up to ``busyTimeoutMilliseconds`` for the lock.
///
/// Tables (schema 1, `PRAGMA user_version`): `runs(id, recorded_at, suite, suite_file,
/// suite_sha256, parallax_version, parallax_commit, machine, options, shards)`, `cases(run_id,
/// name, grp, chain, chain_sha256, chain_commit, dataset, dataset_sha256, status, note,
/// realtime_factor)`, `metrics(run_id, case_name, name, value, lower_is_better)`,
/// `timings(run_id, case_name, analyzer, calls, p50_ms, p95_ms)`.
public final class ResultsDatabase {
    public static let schemaVersion = 1
    public let path: String
    private var db: OpaquePointer?
    private let busyTimeoutMilliseconds: Int32

    /// Opens (creating it and its folder when absent) the database at `path`.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ResultsDatabaseError(path: path, reason: "is a folder: name a database file", isBadInput: true)
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK else {
            let reason = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open it"
            sqlite3_close(db)
            db = nil
            throw ResultsDatabaseError(path: path, reason: reason, isBadInput: false)
        }
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        let version = try Int(query("PRAGMA user_version") { $0.int(0) }.first ?? 0)
        if version > Self.schemaVersion {
            throw ResultsDatabaseError(path: path, reason: "schema \(version) was written by a newer Parallax (this one reads \(Self.schemaVersion)); it was not changed", isBadInput: true)
        }
        if version == 0 {
            // An SQLite file of someone else's (tables, no schema version of ours) is never
            // written into: Parallax creates its tables only in an empty database.
            let foreign = try query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(0) }
            guard foreign.isEmpty else {
                throw ResultsDatabaseError(path: path, reason: "holds tables Parallax did not write (\(foreign.prefix(5).joined(separator: ", "))): "
                                           + "not a Parallax results database; it was not changed", isBadInput: true)
            }
            try transaction {
                try execute("""
                    CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, recorded_at TEXT NOT NULL, suite TEXT NOT NULL, suite_file TEXT NOT NULL,
                        suite_sha256 TEXT NOT NULL, parallax_version TEXT NOT NULL, parallax_commit TEXT NOT NULL, machine TEXT NOT NULL,
                        options TEXT NOT NULL, shards TEXT NOT NULL);
                    CREATE TABLE IF NOT EXISTS cases(run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, grp TEXT NOT NULL, chain TEXT NOT NULL,
                        chain_sha256 TEXT NOT NULL, chain_commit TEXT NOT NULL, dataset TEXT NOT NULL, dataset_sha256 TEXT NOT NULL, status TEXT NOT NULL,
                        note TEXT NOT NULL, realtime_factor REAL NOT NULL, PRIMARY KEY(run_id, name));
                    CREATE TABLE IF NOT EXISTS metrics(run_id INTEGER NOT NULL, case_name TEXT NOT NULL, name TEXT NOT NULL, value REAL NOT NULL,
                        lower_is_better INTEGER, PRIMARY KEY(run_id, case_name, name));
                    CREATE TABLE IF NOT EXISTS timings(run_id INTEGER NOT NULL, case_name TEXT NOT NULL, analyzer TEXT NOT NULL, calls INTEGER NOT NULL,
                        p50_ms REAL NOT NULL, p95_ms REAL NOT NULL);
                    PRAGMA user_version = \(Self.schemaVersion);
                    """)
            }
        }
    }

    deinit { sqlite3_close(db) }

    // MARK: Writing

    /// Records `run` with its cases in one transaction; returns its id.
    @discardableResult
    public func record(_ run: RecordedRun) throws -> Int64 {
        try transaction {
            try execute("INSERT INTO runs(recorded_at, suite, suite_file, suite_sha256, parallax_version, parallax_commit, machine, options, shards) VALUES (?,?,?,?,?,?,?,?,?)",
                        [.text(run.recordedAt), .text(run.suite), .text(run.suiteFile), .text(run.suiteSHA256), .text(run.parallaxVersion),
                         .text(run.parallaxCommit), .text(run.machine), .text(run.options), .text(run.shards)])
            let id = sqlite3_last_insert_rowid(db)
            for c in run.cases {
                try execute("INSERT INTO cases VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                            [.int(id), .text(c.name), .text(c.group), .text(c.chain), .text(c.chainSHA256), .text(c.chainCommit), .text(c.dataset),
                             .text(c.datasetSHA256), .text(c.status), .text(c.note), .real(c.realtimeFactor)])
                for m in c.metrics {
                    try execute("INSERT OR REPLACE INTO metrics VALUES (?,?,?,?,?)",
                                [.int(id), .text(c.name), .text(m.name), .real(m.value), m.lowerIsBetter.map { .int($0 ? 1 : 0) } ?? .null])
                }
                for t in c.timings {
                    try execute("INSERT INTO timings VALUES (?,?,?,?,?,?)",
                                [.int(id), .text(c.name), .text(t.analyzer), .int(Int64(t.calls)), .real(t.p50Milliseconds), .real(t.p95Milliseconds)])
                }
            }
            return id
        }
    }

    // MARK: Reading

    /// The recorded runs, newest first (without their cases), at most `limit`.
    public func runs(limit: Int = 50) throws -> [RecordedRun] {
        try query("SELECT id, recorded_at, suite, suite_file, suite_sha256, parallax_version, parallax_commit, machine, options, shards FROM runs ORDER BY id DESC LIMIT ?",
                  [.int(Int64(limit))]) { Self.run(from: $0) }
    }

    /// The number of cases and of failed cases of run `id`.
    public func caseCounts(run id: Int64) throws -> (cases: Int, failed: Int) {
        let row = try query("SELECT COUNT(*), SUM(status != 'ok' AND status != 'skipped') FROM cases WHERE run_id = ?", [.int(id)]) { (Int($0.int(0)), Int($0.int(1))) }
        return row.first ?? (0, 0)
    }

    /// Run `id` with its cases, metrics and timings.
    public func run(id: Int64) throws -> RecordedRun {
        guard var run = try query("SELECT id, recorded_at, suite, suite_file, suite_sha256, parallax_version, parallax_commit, machine, options, shards FROM runs WHERE id = ?",
                                  [.int(id)], Self.run(from:)).first else {
            throw ResultsDatabaseError(path: path, reason: "no run \(id) (parallax results list shows the runs)", isBadInput: true)
        }
        run.cases = try query("SELECT name, grp, chain, chain_sha256, chain_commit, dataset, dataset_sha256, status, note, realtime_factor FROM cases WHERE run_id = ? ORDER BY rowid",
                              [.int(id)]) { r in
            RecordedCase(name: r.text(0), group: r.text(1), chain: r.text(2), chainSHA256: r.text(3), chainCommit: r.text(4), dataset: r.text(5),
                         datasetSHA256: r.text(6), status: r.text(7), note: r.text(8), realtimeFactor: r.real(9))
        }
        let metrics = try query("SELECT case_name, name, value, lower_is_better FROM metrics WHERE run_id = ? ORDER BY rowid", [.int(id)]) { r in
            (r.text(0), RecordedMetric(name: r.text(1), value: r.real(2), lowerIsBetter: r.isNull(3) ? nil : r.int(3) != 0))
        }
        let timings = try query("SELECT case_name, analyzer, calls, p50_ms, p95_ms FROM timings WHERE run_id = ? ORDER BY rowid", [.int(id)]) { r in
            (r.text(0), RecordedTiming(analyzer: r.text(1), calls: Int(r.int(2)), p50Milliseconds: r.real(3), p95Milliseconds: r.real(4)))
        }
        for k in run.cases.indices {
            run.cases[k].metrics = metrics.filter { $0.0 == run.cases[k].name }.map(\.1)
            run.cases[k].timings = timings.filter { $0.0 == run.cases[k].name }.map(\.1)
        }
        return run
    }

    /// The id `reference` names: a number, `latest`, or `latest~N` (N runs before the latest),
    /// optionally among the runs of `suite`.
    public func resolve(_ reference: String, suite: String? = nil) throws -> Int64 {
        if let id = Int64(reference) {
            _ = try run(id: id)
            return id
        }
        var back = 0
        if reference != "latest" {
            guard reference.hasPrefix("latest~"), let n = Int(reference.dropFirst(7)), n >= 0 else {
                throw ResultsDatabaseError(path: path, reason: "'\(reference)' is not a run: give its id, latest or latest~N", isBadInput: true)
            }
            back = n
        }
        let ids = try query("SELECT id FROM runs WHERE (?1 IS NULL OR suite = ?1) ORDER BY id DESC LIMIT 1 OFFSET ?2",
                            [suite.map { .text($0) } ?? .null, .int(Int64(back))]) { $0.int(0) }
        guard let id = ids.first else {
            throw ResultsDatabaseError(path: path, reason: "there is no run '\(reference)'\(suite.map { " of suite '\($0)'" } ?? "") (parallax results list shows them)", isBadInput: true)
        }
        return id
    }

    /// One metric over the recorded runs, oldest first: run id, time, commit, case, value.
    public func series(metric: String, suite: String? = nil, caseName: String? = nil) throws -> [(run: Int64, recordedAt: String, commit: String, caseName: String, value: Double)] {
        try query("""
            SELECT r.id, r.recorded_at, r.parallax_commit, m.case_name, m.value FROM metrics m JOIN runs r ON r.id = m.run_id
            WHERE m.name = ?1 AND (?2 IS NULL OR r.suite = ?2) AND (?3 IS NULL OR m.case_name = ?3) ORDER BY r.id, m.case_name
            """, [.text(metric), suite.map { .text($0) } ?? .null, caseName.map { .text($0) } ?? .null]) { r in
            (r.int(0), r.text(1), r.text(2), r.text(3), r.real(4))
        }
    }

    /// The metric names recorded, for messages.
    public func metricNames() throws -> [String] { try query("SELECT DISTINCT name FROM metrics ORDER BY name") { $0.text(0) } }

    private static func run(from r: Row) -> RecordedRun {
        var run = RecordedRun(recordedAt: r.text(1), suite: r.text(2), suiteFile: r.text(3), suiteSHA256: r.text(4), parallaxVersion: r.text(5),
                              parallaxCommit: r.text(6), machine: r.text(7), options: r.text(8), shards: r.text(9))
        run.id = r.int(0)
        return run
    }

    // MARK: SQLite

    enum Value { case int(Int64), real(Double), text(String), null }

    /// A result row.
    struct Row {
        let statement: OpaquePointer
        func int(_ i: Int32) -> Int64 { sqlite3_column_int64(statement, i) }
        func real(_ i: Int32) -> Double { sqlite3_column_double(statement, i) }
        func text(_ i: Int32) -> String {
            // By its length (sqlite3_column_bytes after sqlite3_column_text, as SQLite's docs
            // order them), not up to a NUL: what was bound comes back whole.
            guard let text = sqlite3_column_text(statement, i) else { return "" }
            let count = Int(sqlite3_column_bytes(statement, i))
            return String(decoding: UnsafeBufferPointer(start: text, count: max(0, count)), as: UTF8.self)
        }
        func isNull(_ i: Int32) -> Bool { sqlite3_column_type(statement, i) == SQLITE_NULL }
    }

    private func failure(_ code: Int32) -> ResultsDatabaseError {
        let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(code)"
        switch code & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return ResultsDatabaseError(path: path, reason: "locked by another process (waited \(String(format: "%.1f", Double(busyTimeoutMilliseconds) / 1000)) s): \(message); nothing was changed", isBadInput: false)
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return ResultsDatabaseError(path: path, reason: "not a usable SQLite database (\(message)); it was not changed: move it aside to start a new one", isBadInput: true)
        default:
            return ResultsDatabaseError(path: path, reason: message, isBadInput: false)
        }
    }

    /// Runs `body` in one IMMEDIATE transaction (the write lock taken at once), rolled back when it throws.
    private func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs statements without results (several, `;`-separated, when no values are bound).
    private func execute(_ sql: String, _ values: [Value] = []) throws {
        if values.isEmpty {
            let code = sqlite3_exec(db, sql, nil, nil, nil)
            guard code == SQLITE_OK else { throw failure(code) }
            return
        }
        _ = try query(sql, values) { _ in () }
    }

    private func query<T>(_ sql: String, _ values: [Value] = [], _ row: (Row) throws -> T) throws -> [T] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw failure(prepared) }
        defer { sqlite3_finalize(statement) }
        for (k, v) in values.enumerated() {
            let i = Int32(k + 1)
            switch v {
            case let .int(x): sqlite3_bind_int64(statement, i, x)
            case let .real(x): sqlite3_bind_double(statement, i, x)
            case let .text(x): parallax_sqlite_bind_text(statement, i, x, Int32(clamping: x.utf8.count))  // its length: a NUL inside is kept
            case .null: sqlite3_bind_null(statement, i)
            }
        }
        var rows: [T] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(step) }
            rows.append(try row(Row(statement: statement)))
        }
        return rows
    }
}
