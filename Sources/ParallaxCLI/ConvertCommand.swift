import ArgumentParser
import Foundation
import ParallaxGeometry
import Parallax

/// `parallax convert DATASET --to parallax --out DIR`.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a dataset folder (EuRoC/ASL, TUM RGB-D, Parallax) into the Parallax or EuRoC folder format.",
        discussion: "Images are copied as lossless PNG, samples with round-trip precision: reading the result gives identical packets. "
            + "Ground truth, when present, is written as groundtruth.csv (EuRoC layout).")

    @Argument(help: "The dataset folder to read.") var dataset: String
    @Option(name: .long, help: "Target format: parallax, or euroc (cameras with calibration, imu0 and ground truth only).") var to: String = "parallax"
    @Option(name: .long, help: "Output folder.") var out: String
    @Flag(name: .long, help: "Treat a listed image that does not exist as an error.") var strict = false
    @OptionGroup var input: InputOptions

    func run() throws {
        input.applyImageSizeLimit()
        guard to == "parallax" || to == "euroc" else {
            throw fail("--to must be parallax or euroc (TUM RGB-D is read-only here), got '\(to)'", code: ExitCodes.badInput)
        }
        let source: any DatasetSource
        do { source = try DatasetFolder.open(dataset, options: input.datasetOptions(strict: strict)) } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        let output = try CommandOutput(out, command: "parallax convert")
        Interruption.install()
        let progress = ProgressDisplay(spanning: source.listing.stamps.values.joined())
        let count: Int
        do {
            let writer: any DatasetWriter = to == "euroc" ? try EuRoCFolderWriter(path: output.url.path) : try ParallaxFolderWriter(path: output.url.path)
            count = try writer.write(streaming: source, groundTruth: source.groundTruth, progress: { progress?.update($0) },
                                     cancelled: { Interruption.requested })
            progress?.finish()
        } catch {
            throw output.failed("\(error)")
        }
        try output.finish()
        for (stream, n) in source.missingImages.sorted(by: { $0.key < $1.key }) {
            FileHandle.standardError.write(Data("parallax: warning: \(stream): \(n) listed image(s) do not exist; skipped\n".utf8))
        }
        print("converted \(count) packets (\(source.streams.map(\.name).joined(separator: ", "))) from \(source.formatName) to \(out)")
    }
}
