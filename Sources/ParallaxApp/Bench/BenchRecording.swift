import Foundation
import Parallax
import ParallaxFetch
import ParallaxResults

/// What the results database keeps of a bench run, and where it is.
public enum BenchRecording {
    /// `--results-db`'s default: `$PARALLAX_RESULTS_DB`, else `$XDG_DATA_HOME/parallax/results.sqlite`,
    /// else `~/.local/share/parallax/results.sqlite`.
    public static var defaultDatabasePath: String {
        let env = ProcessInfo.processInfo.environment
        if let path = env["PARALLAX_RESULTS_DB"], !path.isEmpty { return path }
        let data = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share").path
        return (data as NSString).appendingPathComponent("parallax/results.sqlite")
    }

    /// The git commit this Parallax was built from (`+dirty` with changes to tracked files):
    /// `$PARALLAX_COMMIT`, else asked of the checkout the binary was built in; `unknown` without git.
    public static let parallaxCommit: String = {
        if let commit = ProcessInfo.processInfo.environment["PARALLAX_COMMIT"], !commit.isEmpty { return commit }
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        return gitCommit(in: checkout, of: nil) ?? "unknown"
    }()

    /// Host, processors, memory, system.
    public static var machine: String {
        let info = ProcessInfo.processInfo
        return "\(info.hostName), \(info.activeProcessorCount) processors, \(String(format: "%.1f", Double(info.physicalMemory) / Double(1 << 30))) GiB, \(info.operatingSystemVersionString)"
    }

    /// The commit of `file` (the last one that changed it; nil: the checkout's HEAD) in the git
    /// checkout at `folder`, `+dirty` when it has uncommitted changes; nil outside git.
    public static func gitCommit(in folder: String, of file: String?) -> String? {
        let paths = file.map { ["--", $0] } ?? []
        guard let commit = git(["-C", folder, "log", "-1", "--format=%H"] + paths), !commit.isEmpty else { return nil }
        let dirty = git(["-C", folder, "status", "--porcelain", "--untracked-files=no"] + paths).map { !$0.isEmpty } ?? false
        return commit + (dirty ? "+dirty" : "")
    }

    private static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Checksums of a case's chain (its file's bytes, or the pipeline text; with its `--set`s,
    /// when given, hashed after it) and data (the dataset's files, or the simulation's
    /// settings). `datasetDigests` keeps the folders already hashed (by path).
    public static func provenance(of run: BenchSuite.Run, datasetDigests: inout [String: String]) -> BenchRunner.Provenance {
        var p = BenchRunner.Provenance()
        if FileManager.default.fileExists(atPath: run.chain) {
            p.chainSHA256 = (try? FileDigest.sha256(of: run.chain)) ?? ""
            let url = URL(fileURLWithPath: run.chain)
            p.chainCommit = gitCommit(in: url.deletingLastPathComponent().path, of: url.lastPathComponent) ?? ""
        } else {
            let h = SHA256Hasher()
            h.update(run.chain)
            p.chainSHA256 = h.finish()
        }
        // The same chain with other options is another chain (`parallax results` says so).
        if !run.overrides.isEmpty {
            let h = SHA256Hasher()
            h.update(p.chainSHA256)
            for o in run.overrides { h.update("\n--set \(o)") }
            p.chainSHA256 = h.finish()
        }
        if let dataset = run.dataset {
            if datasetDigests[dataset] == nil { datasetDigests[dataset] = (try? FileDigest.sha256(ofFolder: dataset)) ?? "" }
            p.datasetSHA256 = datasetDigests[dataset] ?? ""
            if !run.calibrations.isEmpty {
                // The calibration files are part of what the case read.
                let h = SHA256Hasher()
                h.update(p.datasetSHA256)
                for c in run.calibrations { h.update("\(c.stream)=\((try? FileDigest.sha256(of: c.file)) ?? "absent: \(c.file)")\(c.entry.map { "#\($0)" } ?? "")") }
                p.datasetSHA256 = h.finish()
            }
        } else if let s = run.simulate {
            let h = SHA256Hasher()
            h.update(s.settingsDescription)
            let files = [s.trajectory].compactMap({ $0 }) + s.textures + s.cameras + [s.roomAround, s.imu, s.picture, s.faceModel].compactMap { $0 }
            for file in files { h.update((try? FileDigest.sha256(of: file)) ?? "absent: \(file)") }
            p.datasetSHA256 = h.finish()
        }
        return p
    }

    /// The run as the database keeps it: per case its status and, per evaluation, the error
    /// statistics (`EVALUATION.rmse`, `.mean`, `.median`, `.max`; lower is better) and its
    /// further metrics (`EVALUATION.KEY`; direction not known, never a regression).
    public static func recordedRun(suite: String, suiteFile: String, suiteSHA256: String, results: [BenchRunner.Result], shards: String) -> RecordedRun {
        let formatter = ISO8601DateFormatter()
        var run = RecordedRun(recordedAt: formatter.string(from: Date()), suite: suite, suiteFile: suiteFile, suiteSHA256: suiteSHA256,
                              parallaxVersion: ParallaxVersion.current, parallaxCommit: parallaxCommit, machine: machine,
                              options: CommandLine.arguments.joined(separator: " "), shards: shards)
        for r in results {
            var c = RecordedCase(name: r.name, group: r.group ?? r.name, chain: r.chain, chainSHA256: r.provenance.chainSHA256, chainCommit: r.provenance.chainCommit,
                                 dataset: r.dataset, datasetSHA256: r.provenance.datasetSHA256, status: r.status, note: r.note ?? "", realtimeFactor: r.realtimeFactor)
            for e in r.evaluations {
                let s = e.result.statistics
                for (name, value) in [("rmse", s.rmse), ("mean", s.mean), ("median", s.median), ("max", s.max)] where value.isFinite {
                    c.metrics.append(RecordedMetric(name: "\(e.evaluation).\(name)", value: value, lowerIsBetter: true))
                }
                for (key, value) in e.result.metrics.sorted(by: { $0.key < $1.key }) where value.isFinite {
                    c.metrics.append(RecordedMetric(name: "\(e.evaluation).\(key)", value: value, lowerIsBetter: nil))
                }
            }
            c.timings = r.timing.map { RecordedTiming(analyzer: $0.instance, calls: $0.calls, p50Milliseconds: $0.p50Milliseconds, p95Milliseconds: $0.p95Milliseconds) }
            run.cases.append(c)
        }
        return run
    }

    /// Records the run in the database at `path`; the message says what went wrong (the report
    /// is written before, so nothing is lost).
    public static func record(_ run: RecordedRun, in path: String) throws -> Int64 {
        try ResultsDatabase(path: path).record(run)
    }
}
