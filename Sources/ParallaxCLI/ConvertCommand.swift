import ArgumentParser
import Foundation
import Parallax

/// `parallax convert DATASET --to parallax --out DIR`.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a dataset folder (EuRoC/ASL, TUM RGB-D, Parallax) into the Parallax folder format.",
        discussion: "Images are copied as lossless PNG, samples with round-trip precision: reading the result gives identical packets. "
            + "Ground truth, when present, is written as groundtruth.csv (EuRoC layout).")

    @Argument(help: "The dataset folder to read.") var dataset: String
    @Option(name: .long, help: "Target format: parallax.") var to: String = "parallax"
    @Option(name: .long, help: "Output folder.") var out: String
    @Flag(name: .long, help: "Treat a listed image that does not exist as an error.") var strict = false

    func run() throws {
        guard to == "parallax" else {
            throw fail("--to: only 'parallax' can be written (EuRoC/ASL and TUM RGB-D are read-only formats here), got '\(to)'", code: ExitCodes.badInput)
        }
        let source: any DatasetSource
        let writer: ParallaxFolderWriter
        do {
            source = try DatasetFolder.open(dataset, strict: strict)
            writer = try ParallaxFolderWriter(path: out)
        } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        let reader = PrefetchingSource(source)
        var count = 0
        do {
            while let packet = try reader.next() {
                try writer.write(packet)
                count += 1
            }
            try writer.finish(groundTruth: source.groundTruth)
        } catch {
            throw fail("\(error)", code: ExitCodes.runFailed)
        }
        for (stream, n) in source.missingImages.sorted(by: { $0.key < $1.key }) {
            FileHandle.standardError.write(Data("parallax: warning: \(stream): \(n) listed image(s) do not exist; skipped\n".utf8))
        }
        print("converted \(count) packets (\(source.streams.map(\.name).joined(separator: ", "))) from \(source.formatName) to \(out)")
    }
}
