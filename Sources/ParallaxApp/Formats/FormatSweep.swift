import Foundation
import Parallax

/// `parallax formats`' measurement: a chain run at every video format a camera stream can be
/// delivered in, each scored against ground truth and timed, for the selection policies
/// (``FormatPolicies``) to choose from.
public enum FormatSweep {
    /// One format measured.
    public struct Measured: Codable {
        public var format: VideoFormat
        public var error: Double
        public var metric: String
        /// Analyzer time per second of data (s/s: 1 = just keeps up).
        public var load: Double
        public var frames: Int
    }

    /// The camera stream's formats: size and pixel format from its first frame, rate from its
    /// listed times; `calibrated` sees what each `--calibration` replaced or supplied, once.
    public static func formats(of dataset: String, camera: String, options: DatasetOptions,
                               calibrated: (AppliedCalibration) -> Void = { _ in }) throws -> [VideoFormat] {
        let source = try DatasetFolder.open(dataset, options: options)
        source.appliedCalibrations.forEach(calibrated)
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

    /// Runs `chain` over `dataset` at each of `formats` (the camera stream delivered at that
    /// format under its own name), with `overrides` (`--set`) applied, and scores it with
    /// `evaluation`; `progress` sees each format before it runs. A failure names the format.
    public static func measure(_ formats: [VideoFormat], dataset: String, camera: String, chain: String, overrides: [OptionOverride] = [], evaluation: String,
                               options: DatasetOptions, plugins: PluginRegistry, progress: (Int, VideoFormat) -> Void = { _, _ in }) throws(AppFailure) -> [Measured] {
        do { _ = try plugins.evaluations.make(evaluation) } catch { throw .badInput(error) }
        // A chain or a --set that cannot be read is said once, not as the first format's failure.
        do { _ = try Chain.load(chain).applying(overrides, registry: plugins.analyzers) } catch { throw .badInput(error) }
        var measured: [Measured] = []
        for (k, format) in formats.enumerated() {
            progress(k, format)
            do {
                let source = try FormattedDatasetSource(try DatasetFolder.open(dataset, options: options), format: format)
                let runner = try ChainRunner(chain: chain, source: source, datasetPath: dataset, registry: plugins.analyzers, overrides: overrides)
                let (outcome, outputs) = try runner.runCollecting()
                if let failure = outcome.failure { throw failure }
                let result = try plugins.evaluations.evaluate(evaluation, runner.evaluationInput(outputs: outputs, outcome: outcome))
                let busy = outcome.report.analyzers.reduce(0) { $0 + $1.totalMilliseconds } / 1000
                let frames = outcome.report.streams.first { $0.stream == camera }?.packets ?? 0
                measured.append(Measured(format: format, error: result.statistics.rmse, metric: result.metric,
                                         load: outcome.report.datasetSeconds > 0 ? busy / outcome.report.datasetSeconds : .infinity, frames: frames))
            } catch let error as FrameBusFailure {
                throw AppFailure("\(format): \(error)", status: error.error.isBadInput ? .badInput : .failed)
            } catch {
                throw AppFailure("\(format): \(error)", status: .badInput)
            }
        }
        return measured
    }
}
