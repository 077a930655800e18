import ArgumentParser
import Foundation
import ParallaxApp
import Parallax
import ParallaxFiles
import ParallaxCodecs

/// `parallax eval GT EST`: APE/RPE like evo_ape/evo_rpe, with a table, JSON and SVG plots.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Compare an estimated trajectory with ground truth (APE and RPE, evo-compatible).",
        discussion: """
        Formats: TUM (.txt, 8 columns), EuRoC ground truth (.csv), KITTI (12 columns; --gt-times and --est-times give their stamps). \
        Poses are associated by nearest timestamp within --max-diff seconds, as evo does. \
        Times must increase line by line, and quaternions must be unit within 1e-3 (then normalized): \
        otherwise the file and line are named, exit 2.
        """)

    @Argument(help: "Ground-truth trajectory file.") var groundTruth: String
    @Argument(help: "Estimated trajectory file.") var estimate: String
    @Option(name: .long, help: "Alignment: none, se3, sim3 (monocular), posyaw (VIO).") var align: String = "se3"
    @Option(name: .long, help: "RPE step.") var delta: Double = 1
    @Option(name: .customLong("delta-unit"), help: "RPE step unit: frames or m.") var deltaUnit: String = "frames"
    @Option(name: .customLong("max-diff"), help: "Largest time difference for association (s).") var maxDiff: Double = 0.01
    @Option(name: .long, help: "Time offset added to the estimate (s).") var offset: Double = 0
    @Flag(name: .customLong("fit-offset"), help: "Also find the clock offset (±50 ms) at which the estimate fits the reference best after SE3 alignment, the reference interpolated, and the RMSE there; a shift also fits drift, so believe it when independent estimators agree.")
    var fitOffset = false
    @Option(name: .long, help: "KITTI times file for the ground truth (one time in s per line).") var gtTimes: String?
    @Option(name: .long, help: "KITTI times file for the estimate.") var estTimes: String?
    @Option(name: .customLong("min-overlap"), help: "Smallest share (0…1) of the shorter trajectory's poses that must pair up; fewer is an error (0 accepts any, as evo).")
    var minOverlap: Double = 0.5
    @Option(name: .long, help: "Write eval.json, trajectories.svg, ape.svg and ape-histogram.svg here.") var out: String?
    @Flag(name: .long, help: "Print JSON instead of the table.") var json = false

    func run() throws {
        var options = TrajectoryEvaluation.Options()
        guard let mode = TrajectoryAlignment.Mode(rawValue: align) else {
            throw fail("--align must be one of none, se3, sim3, posyaw (got '\(align)')", code: ExitCodes.badInput)
        }
        guard let unit = TrajectoryMetrics.DeltaUnit(rawValue: deltaUnit) else {
            throw fail("--delta-unit must be frames or m (got '\(deltaUnit)')", code: ExitCodes.badInput)
        }
        guard delta > 0, unit == .meters || delta == delta.rounded() else {
            throw fail("--delta must be positive (and whole for frames), got \(delta)", code: ExitCodes.badInput)
        }
        guard minOverlap.isFinite, (0...1).contains(minOverlap) else {
            throw fail("--min-overlap must be a share in 0…1, got \(minOverlap)", code: ExitCodes.badInput)
        }
        guard maxDiff.isFinite, maxDiff >= 0, offset.isFinite, delta.isFinite else {
            throw fail("--max-diff (≥ 0 s), --offset and --delta must be finite numbers", code: ExitCodes.badInput)
        }
        options.minimumOverlap = minOverlap
        options.alignment = mode
        options.rpeDelta = delta
        options.rpeUnit = unit
        options.maxTimeDifference = maxDiff
        options.timeOffset = offset
        let result: TrajectoryEvaluation, series: TrajectoryEvaluation.Series
        let gt: Trajectory, est: Trajectory
        do {
            // Poses going back in time (or repeating one) are refused, as dataset readers refuse
            // theirs: association would pair them in whatever order they happen to sort.
            gt = try TrajectoryFile.read(path: groundTruth, kittiTimes: gtTimes, requireIncreasingTimes: true)
            est = try TrajectoryFile.read(path: estimate, kittiTimes: estTimes, requireIncreasingTimes: true)
            // A pose file from an estimator that reset holds several world frames (marked).
            let restarts = TrajectoryFile.restarts(path: estimate)
            if restarts > 0 {
                StandardError.write(Data("parallax: warning: \(estimate): the estimator started again in a new world frame \(restarts) time(s) (marked '# restart' in the file); aligned as one trajectory the poses of different frames are mixed: align each stretch on its own (`parallax bench --chain CHAIN --dataset DATASET --evaluate trajectory` does)\n".utf8))
            }
            // Seconds beyond 10¹¹ (3,000 years) are almost surely nanoseconds written as seconds:
            // the numbers are still evaluated as given (as evo would), but say so.
            for (name, t) in [(groundTruth, gt), (estimate, est)] where (t.poses.first.map { abs($0.time) } ?? 0) > 1e11 {
                StandardError.write(Data("parallax: warning: \(name): times like \(t.poses[0].time) look like nanoseconds, not seconds; --max-diff and RPE deltas in metres assume seconds\n".utf8))
            }
            (result, series) = try TrajectoryEvaluation.evaluate(reference: gt, estimate: est, options: options)
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(result)
        if json {
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(Self.table(result))
        }
        if fitOffset {
            // Searched from where --offset put the estimate.
            var shifted = est
            for i in shifted.poses.indices {
                shifted.poses[i].time += offset
                shifted.poses[i].timestamp = Timestamp(seconds: shifted.poses[i].time)
            }
            // With --json the standard output is the JSON alone: the line goes to the error stream.
            let say: (String) -> Void = { line in json ? StandardError.write(Data("parallax: \(line)\n".utf8)) : print(line) }
            if let fit = TimeOffsetSearch.search(reference: gt, estimate: shifted) {
                say(String(format: "best-fitting clock offset: the reference %.1f ms %@ (SE3 APE %.6f m there, %.6f m at %@; %d poses); a shift also fits drift: believe it when independent estimators agree",
                             abs(fit.offset) * 1e3, fit.offset >= 0 ? "later" : "earlier", fit.rmse, fit.rmseAtZero, offset == 0 ? "the stamps" : "--offset", fit.poses))
            } else {
                say("best-fitting clock offset: none within ±50 ms (the best lies at the edge, or too few poses overlap the reference)")
            }
        }
        if let out {
            let output = try CommandOutput(out, command: "parallax eval", inputs: [groundTruth, estimate])
            let dir = output.url
            do {
                try data.write(to: dir.appendingPathComponent("eval.json"), options: .atomic)
                try SVGPlot.topViewColoredByError(reference: series.referencePositions, estimate: series.alignedPositions, errors: series.apeTranslation,
                                                  title: "Top view: ground truth (grey), estimate coloured by APE (\(mode.rawValue))", unit: "m")
                    .write(to: dir.appendingPathComponent("trajectories.svg"), atomically: true, encoding: .utf8)
                try SVGPlot.errorOverTime(times: series.times, errors: series.apeTranslation, title: "APE translation over time (\(mode.rawValue) alignment)",
                                          yLabel: "APE (m)", unit: "m")
                    .write(to: dir.appendingPathComponent("ape.svg"), atomically: true, encoding: .utf8)
                try SVGPlot.histogram(series.apeTranslation, title: "APE translation distribution (\(mode.rawValue) alignment)", xLabel: "APE (m)")
                    .write(to: dir.appendingPathComponent("ape-histogram.svg"), atomically: true, encoding: .utf8)
            } catch {
                throw output.failed("cannot write the results: \(OutputFolder.reason(error))")
            }
            try output.finish()
        }
    }

    static func table(_ r: TrajectoryEvaluation) -> String {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func row(_ name: String, _ s: ErrorStatistics) -> String {
            pad(name, 22) + String(format: "%11.6f%11.6f%11.6f%11.6f%11.6f%11.6f", s.rmse, s.mean, s.median, s.std, s.min, s.max)
        }
        var lines = ["\(r.estimate) vs \(r.reference): \(r.pairs) pairs (of \(r.estimatePoses) / \(r.referencePoses) poses), alignment \(r.options.alignment.rawValue)"
            + (r.options.alignment == .sim3 ? String(format: ", scale %.6f", r.transform.scale) : "")]
        lines.append(pad("", 22) + ["rmse", "mean", "median", "std", "min", "max"].map { String(repeating: " ", count: 11 - $0.count) + $0 }.joined())
        lines.append(row("APE translation (m)", r.apeTranslation))
        lines.append(row("APE rotation (deg)", r.apeRotationDegrees))
        if !r.alignmentRotationDetermined {
            lines.append(String(format: "(the APE rotation measures the alignment, not the estimate: the reference spans %.4f m, so the %@ alignment's rotation is undetermined by %.0f°)",
                                r.referenceExtent, r.options.alignment.rawValue, r.alignmentRotationUncertaintyDegrees))
        }
        let unit = r.options.rpeUnit == .frames ? "\(Int(r.options.rpeDelta)) frame(s)" : "\(r.options.rpeDelta) m"
        lines.append(row("RPE translation (m)", r.rpeTranslation) + "   per \(unit)")
        lines.append(row("RPE rotation (deg)", r.rpeRotationDegrees))
        return lines.joined(separator: "\n")
    }
}
