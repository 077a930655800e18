import ArgumentParser
import Foundation
import ParallaxApp
import ParallaxGeometry
import Parallax

/// `parallax inspect DATASET`: streams, counts, rates, gaps, order, sizes, calibration, ground truth.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Describe a dataset: streams, counts, rates, gaps, image sizes, calibration, ground truth.")

    @Argument(help: DatasetArgumentHelp.help("The dataset to describe")) var dataset: String
    @Flag(name: .long, help: "Print JSON for machines.") var json = false
    @Option(name: .customLong("groundtruth"), help: ArgumentHelp("Ground truth from this trajectory file (TUM, or EuRoC CSV) instead of the dataset's own.", valueName: "file"))
    var groundTruth: String?
    @OptionGroup var input: InputOptions

    func run() throws {
        input.applyImageSizeLimit()
        let report: DatasetInspection
        do { report = try DatasetInspection.inspect(path: dataset, options: input.datasetOptions(groundTruth: groundTruth)) } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        print("\(report.path): \(report.format), \(report.streams.count) streams, \(String(format: "%.3f", report.durationSeconds)) s")
        let header = ["stream", "type", "count", "rate (Hz)", "duration (s)", "gaps", "max gap (ms)", "out of order", "missing", "first image"]
        var rows = [header]
        for s in report.streams {
            rows.append([s.name, s.type, "\(s.count)", String(format: "%.2f", s.rateHz), String(format: "%.3f", s.durationSeconds),
                         "\(s.gaps)", String(format: "%.1f", s.maxGapMilliseconds), "\(s.outOfOrder)", "\(s.missing)", s.imageSize ?? "—"])
        }
        print(TextColumns.format(rows))
        for line in report.calibrations { print(line) }
        for s in report.streams { if let c = s.calibration { print("calibration \(s.name): \(c)") } }
        print(report.groundTruthPoses > 0
              ? "ground truth: \(report.groundTruthPoses) poses over \(String(format: "%.2f", report.groundTruthSeconds)) s"
              : "ground truth: none")
        for note in report.notes { print("note: \(note)") }
        for s in report.streams where s.outOfOrder > 0 {
            print("warning: \(s.name) has \(s.outOfOrder) timestamp(s) that go backwards or repeat; `parallax run` will refuse it")
        }
    }
}
