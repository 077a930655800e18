import ArgumentParser
import Foundation
import ParallaxApp
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

    @Argument(help: DatasetArgumentHelp.help("The dataset whose camera stream is measured")) var dataset: String
    @Option(name: .long, help: "Camera stream.") var camera = "cam0"
    @Option(name: .long, help: "Chain to run at every format (YAML file or one-line pipeline).") var chain: String?
    @Option(name: .long, help: "Evaluation scoring each run (its main RMSE is the error), e.g. trajectory.") var evaluate: String?
    @Option(name: .customLong("min-fps"), help: "Frame-rate floor of the --min-fps policy (Hz).") var minFPS: Double?
    @Option(name: .long, help: "The --within policy: error at most this many percent above native.") var within: Double = 10
    @Option(name: .long, help: "The --budget policy: analyzer time at most this share of real time (1 = keeps up).") var budget: Double = 1
    @Option(name: .long, help: "Write formats.json and formats.svg (error against cost, Pareto front marked) here.") var out: String?
    @OptionGroup var setOptions: OptionOverrideOptions
    @OptionGroup var input: InputOptions

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
        do {
            formats = try FormatSweep.formats(of: dataset, camera: camera, options: options) { applied in
                StandardError.write(Data("parallax: \(applied)\n".utf8))
            }
        } catch { throw fail("\(error)", code: ExitCodes.badInput) }
        guard let chain, let evaluate else {
            // Listing only: an option that belongs to the measurement is a mistake, not a no-op.
            let measuring = [("--chain", chain != nil), ("--evaluate", evaluate != nil), ("--out", out != nil), ("--min-fps", minFPS != nil),
                             ("--set", !setOptions.texts.isEmpty)].filter(\.1).map(\.0)
            if !measuring.isEmpty {
                throw fail("\(measuring.joined(separator: ", ")) \(measuring.count == 1 ? "only applies" : "only apply") when measuring the formats: give both --chain and --evaluate", code: ExitCodes.badInput)
            }
            for f in formats { print("\(f.recommended ? "*" : " ") \(f)") }
            print("* recommended (native)")
            return
        }
        let measured: [FormatSweep.Measured]
        do {
            measured = try FormatSweep.measure(formats, dataset: dataset, camera: camera, chain: chain, overrides: setOptions.overrides, evaluation: evaluate,
                                               options: options, plugins: ParallaxCLI.plugins,
                                               progress: { k, format in StandardError.write(Data("[\(k + 1)/\(formats.count)] \(format)\n".utf8)) })
        } catch { throw fail(error) }
        let choices = FormatPolicies(measured: measured.map { ($0.format, $0.error, $0.load) }, minFPS: minFPS, within: within / 100, budget: budget)
        print(Self.table(measured, choices: choices))
        for line in choices.explanations { print(line) }
        if let out { try write(measured, choices: choices, to: out) }
    }

    static func table(_ measured: [FormatSweep.Measured], choices: FormatPolicies) -> String {
        let native = measured.first?.error ?? .nan
        var rows = [["format", "frames", "error", "vs native", "load (real time)", "picked by"]]
        for (i, m) in measured.enumerated() {
            rows.append([m.format.description, "\(m.frames)", String(format: "%.4g", m.error), String(format: "%+.0f %%", 100 * (m.error / native - 1)),
                         String(format: "%.2f", m.load), choices.picks(i).joined(separator: ", ")])
        }
        return TextColumns.format(rows)
    }

    func write(_ measured: [FormatSweep.Measured], choices: FormatPolicies, to folder: String) throws {
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
