import ArgumentParser
import Foundation
import Parallax

/// `parallax formats DATASET [--chain C --evaluate E]`: the video formats a camera stream
/// supports, and with a chain, each measured — accuracy against ground truth and cost on this
/// machine — with the format each selection policy picks and why the others were not.
struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List a camera stream's video formats; with --chain and --evaluate, measure each and choose one.",
        discussion: """
        Formats: the native one first (recommended), then derived ones: ×1/2 and ×1/4 by area resampling \
        (intrinsics rescaled exactly), every 2nd and 3rd frame, gray instead of colour. With --chain and \
        --evaluate, every format runs the chain (the dataset's camera stream delivered at that format under \
        its own name) and is scored; the table gives error, cost and the choice of each policy: \
        --min-fps (highest resolution at or above a frame rate), --within (cheapest within X % of the native \
        error), --budget (most accurate whose analyzers use at most this share of real time on this machine). \
        Errors are deterministic; costs are this machine's.
        """)

    @Argument(help: "A dataset (folder or video file).") var dataset: String
    @Option(name: .long, help: "Camera stream.") var camera = "cam0"
    @Option(name: .long, help: "Chain to run at every format (YAML file or one-line pipeline).") var chain: String?
    @Option(name: .long, help: "Evaluation scoring each run (its main RMSE is the error), e.g. trajectory.") var evaluate: String?
    @Option(name: .customLong("min-fps"), help: "Frame-rate floor of the --min-fps policy (Hz).") var minFPS: Double?
    @Option(name: .long, help: "The --within policy: error at most this many percent above native.") var within: Double = 10
    @Option(name: .long, help: "The --budget policy: analyzer time at most this share of real time (1 = keeps up).") var budget: Double = 1
    @Option(name: .long, help: "Write formats.json and formats.svg (error against cost, Pareto front marked) here.") var out: String?
    @OptionGroup var input: InputOptions

    /// One format measured.
    struct Measured: Codable {
        var format: VideoFormat
        var error: Double
        var metric: String
        /// Analyzer time per second of data (s/s: 1 = just keeps up).
        var load: Double
        var frames: Int
    }

    func validate() throws {
        guard (chain == nil) == (evaluate == nil) else { throw ValidationError("--chain and --evaluate go together") }
        if let minFPS, !(minFPS.isFinite && minFPS > 0) { throw ValidationError("--min-fps must be a positive number of Hz, got \(minFPS)") }
        guard within.isFinite, within >= 0 else { throw ValidationError("--within must be a percentage ≥ 0, got \(within)") }
        guard budget.isFinite, budget > 0 else { throw ValidationError("--budget must be a positive share of real time, got \(budget)") }
    }

    func run() throws {
        input.applyImageSizeLimit()
        let options = input.datasetOptions()
        let formats: [VideoFormat]
        do { formats = try Self.formats(of: dataset, camera: camera, options: options) } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        guard let chain, let evaluate else {
            // Listing only: an option that belongs to the measurement is a mistake, not a no-op.
            let measuring = [("--chain", chain != nil), ("--evaluate", evaluate != nil), ("--out", out != nil), ("--min-fps", minFPS != nil)].filter(\.1).map(\.0)
            if !measuring.isEmpty {
                throw fail("\(measuring.joined(separator: ", ")) measure the formats, which needs both --chain and --evaluate", code: ExitCodes.badInput)
            }
            for f in formats { print("\(f.recommended ? "*" : " ") \(f)") }
            print("* recommended (native)")
            return
        }
        do { _ = try ParallaxCLI.plugins.evaluations.make(evaluate) } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        var measured: [Measured] = []
        for (k, format) in formats.enumerated() {
            FileHandle.standardError.write(Data("[\(k + 1)/\(formats.count)] \(format)\n".utf8))
            do {
                let source = try FormattedDatasetSource(try DatasetFolder.open(dataset, options: options), format: format)
                let runner = try ChainRunner(chain: chain, source: source, datasetPath: dataset)
                let (outcome, outputs) = try runner.runCollecting()
                if let failure = outcome.failure { throw failure }
                let result = try ParallaxCLI.plugins.evaluations.evaluate(evaluate, runner.evaluationInput(outputs: outputs, outcome: outcome))
                let busy = outcome.report.analyzers.reduce(0) { $0 + $1.totalMilliseconds } / 1000
                let frames = outcome.report.streams.first { $0.stream == camera }?.packets ?? 0
                measured.append(Measured(format: format, error: result.statistics.rmse, metric: result.metric,
                                         load: outcome.report.datasetSeconds > 0 ? busy / outcome.report.datasetSeconds : .infinity, frames: frames))
            } catch let error as FrameBusFailure {
                throw fail("\(format): \(error)", code: error.error.isBadInput ? ExitCodes.badInput : ExitCodes.runFailed)
            } catch {
                throw fail("\(format): \(error)", code: ExitCodes.badInput)
            }
        }
        let choices = FormatPolicies(measured: measured.map { ($0.format, $0.error, $0.load) }, minFPS: minFPS, within: within / 100, budget: budget)
        print(Self.table(measured, choices: choices))
        for line in choices.explanations { print(line) }
        if let out { try write(measured, choices: choices, to: out) }
    }

    /// The camera stream's formats: size and pixel format from its first frame, rate from its
    /// listed times.
    static func formats(of dataset: String, camera: String, options: DatasetOptions) throws -> [VideoFormat] {
        let source = try DatasetFolder.open(dataset, options: options)
        guard source.streams.contains(where: { $0.name == camera && $0.type == PayloadType(CameraFrame.self) }) else {
            throw DatasetError.invalidOption(path: dataset, option: "--camera", reason: "'\(camera)' is not a camera stream (\(source.streams.map(\.name).joined(separator: ", ")))")
        }
        var first: CameraFrame?
        while first == nil, let packet = try source.next() { if packet.stream == camera { first = packet.payload as? CameraFrame } }
        guard let first else { throw DatasetError.invalidOption(path: dataset, option: "--camera", reason: "'\(camera)' has no frames") }
        let stamps = source.listing.stamps[camera] ?? []
        let rate = stamps.count > 1 ? Double(stamps.count - 1) / stamps[stamps.count - 1].seconds(since: stamps[0]) : nil
        return VideoFormat.supported(camera: camera, width: first.width, height: first.height, frameRateHz: rate, pixelFormat: first.format)
    }

    static func table(_ measured: [Measured], choices: FormatPolicies) -> String {
        let native = measured.first?.error ?? .nan
        var rows = [["format", "frames", "error", "vs native", "load (real time)", "picked by"]]
        for (i, m) in measured.enumerated() {
            rows.append([m.format.description, "\(m.frames)", String(format: "%.4g", m.error), String(format: "%+.0f %%", 100 * (m.error / native - 1)),
                         String(format: "%.2f", m.load), choices.picks(i).joined(separator: ", ")])
        }
        return TextColumns.format(rows)
    }

    func write(_ measured: [Measured], choices: FormatPolicies, to folder: String) throws {
        let output = try CommandOutput(folder, command: "parallax formats", inputs: [dataset])
        let front = FormatPolicies.paretoFront(measured.map { ($0.load, $0.error) })
        let svg = SVGPlot.plot([
            SVGPlot.Series(label: "formats", color: "#4477aa", points: measured.map { ($0.load, $0.error) }, markers: true),
            SVGPlot.Series(label: "Pareto front", color: "#cc3311", points: front.map { (measured[$0].load, measured[$0].error) }),
        ], title: "error against cost per video format", xLabel: "analyzer time / data time", yLabel: measured.first?.metric ?? "error")
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(measured).write(to: output.url.appendingPathComponent("formats.json"))
            try Data(svg.utf8).write(to: output.url.appendingPathComponent("formats.svg"))
        } catch { throw output.failed("\(error)") }
        try output.finish()
    }
}
