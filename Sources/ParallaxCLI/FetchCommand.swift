import ArgumentParser
import Foundation
import ParallaxApp
import Parallax
import ParallaxFetch

#if canImport(Glibc)
import Glibc
#endif

/// `parallax fetch NAME [SEQUENCE] --to DIR`: downloads a public dataset by name (resuming an
/// interrupted download), verifies it, and unpacks it into the layout Parallax reads.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download a public dataset by name into the layout Parallax reads (`parallax datasets` lists them).",
        discussion: """
            The archive goes to DIR/.parallax-downloads/ while it downloads; a cut transfer is retried and, \
            after Ctrl-C or a failure, the same command resumes it (an HTTP range request). Its size and \
            SHA-256 are verified where the catalog (or --sha256) gives them, and an archive that fails is \
            removed. It is unpacked beside and moved to DIR/SEQUENCE in one rename, with a record of where \
            it came from (.parallax-fetch.json). Exit 0 done (or already there), 1 the download or archive \
            failed, 2 a name or option is wrong, 128+n a signal.
            """)

    /// The names of the built-in catalog, as the help lists them (read when the help is made).
    static var catalogNames: [String] { ((try? DatasetCatalog.builtin)?.datasets ?? []).map(\.name) }

    @Argument(help: ArgumentHelp("The dataset's name (" + FetchCommand.catalogNames.joined(separator: ", ") + "; `parallax datasets` describes them)."))
    var name: String
    @Argument(help: "The sequence (MH_01_easy, fr1_xyz, …); may be left out when the dataset has one.")
    var sequence: String?
    @Option(name: .customLong("to"), help: ArgumentHelp("The folder to put it in (the sequence becomes DIR/SEQUENCE).", valueName: "dir"))
    var destination: String
    @Option(name: .long, help: ArgumentHelp("A catalog of your own (a mirror's) instead of the built-in one.", valueName: "file"))
    var catalog: String?
    @Option(name: .long, help: ArgumentHelp("The SHA-256 the archive must have (64 hex digits).", valueName: "hex"))
    var sha256: String?
    @Option(name: .long, help: "Further attempts after a cut transfer, each resuming (0…20).")
    var retries = 3
    @Flag(name: .long, help: "Keep the archive (in DIR/.parallax-downloads/) after unpacking.")
    var keepArchive = false

    func validate() throws {
        guard (0...20).contains(retries) else { throw ValidationError("--retries must be 0…20, not \(retries)") }
        if let sha256, sha256.count != 64 || !sha256.allSatisfy(\.isHexDigit) {
            throw ValidationError("--sha256 must be 64 hex digits, not '\(sha256)'")
        }
    }

    func run() throws {
        let catalog: DatasetCatalog
        do { catalog = try self.catalog.map { try DatasetCatalog(file: $0) } ?? DatasetCatalog.builtin } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        do { try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true) } catch {
            throw fail("--to \(destination): \(error.localizedDescription)", code: ExitCodes.badInput)
        }
        var fetcher = DatasetFetcher(catalog: catalog, destination: destination)
        fetcher.formats = ParallaxCLI.plugins.datasetFormats
        fetcher.expectedSHA256 = sha256
        fetcher.retries = retries
        fetcher.keepArchive = keepArchive
        Interruption.install()
        let bar = DownloadProgressDisplay()
        let outcome: DatasetFetcher.Outcome
        do {
            outcome = try fetcher.fetch(dataset: name, sequence: sequence, progress: bar.update,
                                        log: { bar.finish(); StandardError.write(Data("\($0)\n".utf8)) },
                                        shouldStop: { Interruption.requested })
            bar.finish()
        } catch {
            bar.finish()
            if Interruption.requested {
                throw fail("\(Interruption.name ?? "signal"): stopped; what was downloaded is kept in '\(destination)/.parallax-downloads' and the same command resumes it",
                           code: Interruption.exitCode)
            }
            let badInput = (error as? FetchError)?.isBadInput ?? false
            throw fail("\(error)", code: badInput ? ExitCodes.badInput : ExitCodes.runFailed)
        }
        if outcome.alreadyThere {
            print("\(outcome.folder): already fetched (SHA-256 \(outcome.sha256)); nothing downloaded")
        } else {
            let verified = outcome.sha256Verified ? "verified" : "not verified: the catalog has no checksum for it; pass --sha256 to check it next time"
            print("\(outcome.folder): \(outcome.files) files from \(outcome.bytes) bytes; SHA-256 \(outcome.sha256) (\(verified))")
            print("next: parallax inspect \(outcome.folder)")
        }
        // What the catalog says to do with it (EuRoC: running its ROS bags with this calibration).
        if let entry = try? catalog.archive(dataset: name, sequence: sequence),
           let steps = entry.0.nextSteps(folder: outcome.folder, sequence: entry.1.name) { print(steps) }
    }
}

/// A download's progress on stderr: a bar with bytes, percentage and rate when stderr is a
/// terminal; otherwise one line per 10 % (or per 50 MB when the size is unknown).
final class DownloadProgressDisplay {
    private let interactive = isatty(STDERR_FILENO) != 0
    private let clock = ContinuousClock()
    private let began: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private var lastStep: Int64 = -1
    private var drawn = false

    init() {
        began = clock.now
        lastDraw = began
    }

    func update(_ received: Int64, _ total: Int64?) {
        guard received > 0 || total != nil else { return }  // connecting
        let now = clock.now
        let elapsed = max((now - began).seconds, 1e-9)
        let mb = Double(received) / 1e6
        if interactive {
            guard (now - lastDraw).seconds >= 0.1 || received == total else { return }
            lastDraw = now
            drawn = true
            if let total, total > 0 {
                let fraction = min(1, Double(received) / Double(total))
                let filled = Int(fraction * 30)
                let bar = String(repeating: "=", count: filled) + (filled < 30 ? ">" : "") + String(repeating: " ", count: max(0, 29 - filled))
                write(String(format: "\r[%@] %3.0f%%  %.1f / %.1f MB  %.1f MB/s ", bar, fraction * 100, mb, Double(total) / 1e6, mb / elapsed))
            } else {
                write(String(format: "\r%.1f MB  %.1f MB/s ", mb, mb / elapsed))
            }
        } else {
            let step = total.map { $0 > 0 ? received * 10 / $0 : 0 } ?? received / 50_000_000
            guard step > lastStep else { return }
            lastStep = step
            write(total.map { String(format: "progress: %3d%% (%.1f of %.1f MB)\n", step * 10, mb, Double($0) / 1e6) } ?? String(format: "progress: %.0f MB\n", mb))
        }
    }

    /// Ends the bar line (before a log line or at the end).
    func finish() {
        if interactive && drawn { write("\n"); drawn = false }
    }

    private func write(_ s: String) { StandardError.write(Data(s.utf8)) }
}
