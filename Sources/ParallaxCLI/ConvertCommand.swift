import ArgumentParser
import Foundation
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
    @OptionGroup var limits: InputLimits

    func run() throws {
        limits.apply()
        guard to == "parallax" || to == "euroc" else {
            throw fail("--to must be parallax or euroc (TUM RGB-D is read-only here), got '\(to)'", code: ExitCodes.badInput)
        }
        let source: any DatasetSource
        let writer: any DatasetWriter
        let folder: OutputFolder
        do {
            source = try DatasetFolder.open(dataset, strict: strict)
            folder = try OutputFolder(path: out, command: "parallax convert")
            writer = to == "euroc" ? try EuRoCFolderWriter(path: folder.staging.path) : try ParallaxFolderWriter(path: folder.staging.path)
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        Interruption.install()
        let progress = ProgressDisplay(spanning: source.listing.stamps.values.joined())
        let count: Int
        do {
            count = try writer.write(streaming: source, groundTruth: source.groundTruth, progress: { progress?.update($0) },
                                     cancelled: { Interruption.requested })
            progress?.finish()
        } catch {
            throw fail("\(error); what was written is in '\(folder.staging.path)'", code: ExitCodes.runFailed)
        }
        if Interruption.requested { throw Interruption.stop(partialResultsIn: folder.staging) }
        do { try folder.commit() } catch { throw fail("\(error)", code: ExitCodes.runFailed) }
        for (stream, n) in source.missingImages.sorted(by: { $0.key < $1.key }) {
            FileHandle.standardError.write(Data("parallax: warning: \(stream): \(n) listed image(s) do not exist; skipped\n".utf8))
        }
        print("converted \(count) packets (\(source.streams.map(\.name).joined(separator: ", "))) from \(source.formatName) to \(out)")
    }
}
