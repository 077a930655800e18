import ArgumentParser
import Foundation
import ParallaxApp
import ParallaxGeometry
import Parallax
import ParallaxFiles
import ParallaxCodecs
import ParallaxDatasets
import ParallaxOutputs

/// `parallax convert DATASET --to parallax --out DIR`, `--to video --out FILE`.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a dataset (EuRoC/ASL, TUM RGB-D, Parallax, a video, …) into a Parallax or EuRoC folder, or a camera stream into a video file.",
        discussion: "Images are copied as lossless PNG, samples with round-trip precision: reading the result gives identical packets. "
            + "Ground truth, when present, is written as groundtruth.csv (EuRoC layout). "
            + "With --video CODEC a Parallax folder keeps each camera stream as one video file (cam0/data.mkv) and its exact times in cam0/data.csv: "
            + "ffv1 is lossless (identical pixels), h264 lossy and small (--video-quality is x264's CRF, 0–51, default 18). "
            + "--to video writes one camera stream (--camera) as a bare video file, its times relative to the first frame in the container's resolution. "
            + "--to mcap writes every stream into an MCAP file for Foxglove (docs/foxglove.md).")

    @Argument(help: DatasetArgumentHelp.help("The dataset to read")) var dataset: String
    @Option(name: .long, help: "Target format: parallax, euroc (cameras with calibration, imu0 and ground truth only), video (one camera stream as a video file) or mcap (every stream, for Foxglove).") var to: String = "parallax"
    @Option(name: .long, help: "Output folder (a file for --to video: .mkv for ffv1, .mp4 for h264; for --to mcap: .mcap).") var out: String
    @Option(name: .long, help: "Keep camera streams as video with this codec: ffv1 (lossless) or h264 (lossy). Parallax folders and --to video (default ffv1 there).") var video: String?
    @Option(name: .customLong("video-quality"), help: "The codec's quality: x264's CRF for h264 (0–51, lower is better, default 18); ffv1 takes none.") var videoQuality: Int?
    @Option(name: .long, help: "The camera stream --to video writes (default: the dataset's first camera).") var camera: String?
    @Flag(name: .long, help: "Treat a listed image that does not exist as an error.") var strict = false
    @OptionGroup var input: InputOptions

    func validate() throws {
        guard ["parallax", "euroc", "video", "mcap"].contains(to) else {
            throw ValidationError("--to must be parallax, euroc, video or mcap (TUM RGB-D is read-only here), got '\(to)'")
        }
        if to == "mcap", video != nil || videoQuality != nil { throw ValidationError("--video: an MCAP file holds frames as PNG images") }
        if let video, VideoWriter.Codec(rawValue: video) == nil {
            throw ValidationError("--video must be \(VideoWriter.Codec.allCases.map(\.rawValue).joined(separator: " or ")), got '\(video)'")
        }
        if video != nil, to == "euroc" { throw ValidationError("--video: the EuRoC layout keeps images as PNG; convert --to parallax or --to video") }
        if let videoQuality {
            switch codec {
            case .ffv1: throw ValidationError("--video-quality: ffv1 is lossless and takes no quality")
            case .h264 where !(0...51).contains(videoQuality): throw ValidationError("--video-quality must be in 0…51 for h264 (x264's CRF), got \(videoQuality)")
            default: break
            }
        }
        if to == "mcap", (out as NSString).pathExtension.lowercased() != "mcap" {
            throw ValidationError("--out: --to mcap writes a .mcap file, got '\(out)'")
        }
        if to == "video" {
            let ext = (out as NSString).pathExtension.lowercased()
            guard ext == codec.fileExtension else {
                throw ValidationError("--out: \(codec.rawValue) is written as .\(codec.fileExtension), got '\(out)'")
            }
        } else if camera != nil {
            throw ValidationError("--camera applies to --to video")
        }
    }

    /// The codec asked for (ffv1 when --to video names none).
    var codec: VideoWriter.Codec { video.flatMap(VideoWriter.Codec.init(rawValue:)) ?? .ffv1 }

    func run() throws {
        input.applyImageSizeLimit()
        // A file target is checked before anything is read: an existing folder is refused, never
        // replaced (OutputPath); and locked as an --out folder is (FILE.lock), so two conversions
        // to one file never write one FILE.partial together.
        var fileLock: OutputFolderLock?
        defer { fileLock?.release() }
        if to == "video" || to == "mcap" {
            do {
                try OutputPath.checkOutsideInputs(out, option: "--out", inputs: [dataset])
                try OutputPath.checkFileTarget(out, option: "--out", kind: to == "video" ? VideoWriter.fileKind(codec) : MCAPWriter.fileKind)
                fileLock = try OutputFolderLock(folder: out)
            } catch { throw fail("\(error)", code: error is OutputFolder.UnwritableError ? ExitCodes.runFailed : ExitCodes.badInput) }
        }
        let source: any DatasetSource
        do { source = try DatasetFolder.open(dataset, options: input.datasetOptions(strict: strict)) } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        for applied in source.appliedCalibrations { StandardError.write(Data("parallax: \(applied)\n".utf8)) }
        if to == "video" { return try writeVideo(source) }
        if to == "mcap" { return try writeMCAP(source) }
        // Stream names become folders by the rule for names from data (`a b` → `a_b`): two that
        // would share one are refused before anything is written.
        let folders = Dictionary(grouping: source.streams.map(\.name), by: OutputPath.relativePath)
        if let shared = folders.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count > 1 }) {
            throw fail("streams \(shared.value.map { "'\($0)'" }.joined(separator: " and ")) would both be written to the folder '\(shared.key)': rename one (--topic for a bag)",
                       code: ExitCodes.badInput)
        }
        let output = try CommandOutput(out, command: "parallax convert", inputs: [dataset])
        Interruption.install()
        let progress = ProgressDisplay(spanning: source.listing.stamps.values.joined())
        let count: Int
        do {
            let writer: any DatasetWriter
            if to == "euroc" {
                writer = try EuRoCFolderWriter(path: output.url.path)
            } else {
                let folder = try ParallaxFolderWriter(path: output.url.path)
                folder.video = video.map { VideoSupport.Encoding(codec: $0, quality: videoQuality) }
                folder.videoSupport = ParallaxCLI.plugins.videoSupport
                writer = folder
            }
            count = try writer.write(streaming: source, groundTruth: source.groundTruth, progress: { progress?.update($0) },
                                     cancelled: { Interruption.requested })
            progress?.finish()
        } catch {
            throw output.failed("\(error)", badInput: ExitCodes.isBadInput(error))
        }
        try output.finish()
        reportSourceWarnings(source)
        print("converted \(count) packets (\(source.streams.map(\.name).joined(separator: ", "))) from \(source.formatName) to \(out)")
    }

    /// `--to video`: one camera stream into a video file, moved into place when complete (an
    /// interrupted conversion finishes the frames encoded so far into `FILE.partial` and leaves
    /// an earlier `FILE` as it was).
    private func writeVideo(_ source: any DatasetSource) throws {
        Interruption.install()
        var display: ProgressDisplay?
        let converted: (camera: String, frames: Int)
        do {
            converted = try DatasetConversion.toVideo(source, camera: camera, path: out, codec: codec, quality: videoQuality, datasetName: dataset,
                                                       progress: { stamps in display = ProgressDisplay(spanning: stamps); return { display?.update($0) } })
        } catch { throw fail(error) }
        display?.finish()
        reportSourceWarnings(source)
        print("converted \(converted.frames) frames of \(converted.camera) from \(source.formatName) to \(out) (\(codec.rawValue))")
    }

    /// `--to mcap`: every stream (ground truth too) into an MCAP file; an interrupted conversion
    /// finishes what was read into `FILE.partial` and leaves an earlier `FILE` as it was.
    private func writeMCAP(_ source: any DatasetSource) throws {
        Interruption.install()
        var display: ProgressDisplay?
        let converted: DatasetConversion.Recorded
        do {
            converted = try DatasetConversion.toMCAP(source, path: out, progress: { stamps in display = ProgressDisplay(spanning: stamps); return { display?.update($0) } })
        } catch { throw fail(error) }
        display?.finish()
        reportSourceWarnings(source)
        for (stream, n) in converted.skipped.sorted(by: { $0.key < $1.key }) {
            StandardError.write(Data("parallax: warning: \(stream): \(n) packet(s) have no Foxglove or JSON form; not in \(out)\n".utf8))
        }
        if let stop = converted.interruption { throw fail(stop) }
        print("converted \(converted.packets) packets (\(source.streams.map(\.name).joined(separator: ", "))) from \(source.formatName) to \(out)")
    }

    private func reportSourceWarnings(_ source: any DatasetSource) {
        for note in source.notes { StandardError.write(Data("parallax: warning: \(note)\n".utf8)) }
        for (stream, n) in source.missingImages.sorted(by: { $0.key < $1.key }) {
            StandardError.write(Data("parallax: warning: \(stream): \(n) listed image(s) do not exist; skipped\n".utf8))
        }
    }
}
