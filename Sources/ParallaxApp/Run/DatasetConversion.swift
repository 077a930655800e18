import Foundation
import Parallax
import ParallaxCodecs
import ParallaxOutputs

/// `parallax convert`'s file targets: a dataset's camera stream into a video file, every stream
/// into an MCAP recording. Both read on worker threads, stop between packets when a signal came
/// (``Interruption``), finish what was read into `FILE.partial` and take `FILE`'s name only when
/// complete, so an earlier `FILE` is never replaced by a part.
public enum DatasetConversion {
    /// The camera stream `camera` (default: the first) of `source` encoded into the video file
    /// `path`; `progress` is made from the stream's times and sees each frame's. Returns the
    /// stream and the frames written; a signal is an ``AppFailure`` saying where they are.
    public static func toVideo(_ source: any DatasetSource, camera: String?, path out: String, codec: VideoWriter.Codec, quality: Int?, datasetName: String,
                               progress makeProgress: ([Timestamp]) -> (Timestamp) -> Void) throws(AppFailure) -> (camera: String, frames: Int) {
        let cameras = source.streams.filter { $0.type == PayloadType(CameraFrame.self) }.map(\.name)
        guard let name = camera ?? cameras.first else { throw AppFailure("\(datasetName) has no camera stream to write as video", status: .badInput) }
        guard cameras.contains(name) else {
            throw AppFailure("--camera '\(name)' is not a camera stream of \(datasetName) (\(cameras.joined(separator: ", ")))", status: .badInput)
        }
        let progress = makeProgress(source.listing.stamps[name] ?? [])
        let reader = PrefetchingSource(source)
        defer { reader.stop() }
        var writer: VideoWriter?
        var frames = 0
        do {
            while !Interruption.requested, let packet = try reader.next() {
                guard packet.stream == name, let frame = packet.payload as? CameraFrame else { continue }
                progress(packet.timestamp)
                if writer == nil {
                    writer = try VideoWriter(path: out, codec: codec, width: frame.width, height: frame.height, gray: frame.image.channels == 1, quality: quality)
                }
                try writer?.write(frame.image, at: packet.timestamp)
                frames += 1
            }
            try writer?.finish(commit: !Interruption.requested)
        } catch {
            throw AppFailure("\(error)" + (frames > 0 ? "; nothing was written to '\(out)'" : ""), status: AppFailure.isBadInput(error) ? .badInput : .failed)
        }
        guard frames > 0 else { throw AppFailure("'\(name)' has no frames; nothing written", status: .badInput) }
        if Interruption.requested {
            throw AppFailure("\(Interruption.name ?? "signal"): stopped; the \(frames) frames converted so far are in '\(OutputPath.staged(out))'"
                             + (FileManager.default.fileExists(atPath: out) ? " ('\(out)' is as it was)" : ""), status: .signal(Interruption.received))
        }
        return (name, frames)
    }

    /// What ``toMCAP(_:path:progress:)`` recorded.
    public struct Recorded {
        public var packets: Int
        /// Packets per stream with no Foxglove or JSON form (not recorded).
        public var skipped: [String: Int]
        /// The signal that stopped it, saying where the packets recorded so far are.
        public var interruption: AppFailure?
    }

    /// Every stream of `source` (ground truth too) recorded into the MCAP file `path`.
    public static func toMCAP(_ source: any DatasetSource, path out: String, progress makeProgress: ([Timestamp]) -> (Timestamp) -> Void) throws(AppFailure) -> Recorded {
        let recorder: FoxgloveRecorder
        do { recorder = try FoxgloveRecorder(path: out) } catch { throw .badInput(error) }
        let progress = makeProgress(Array(source.listing.stamps.values.joined()))
        let reader = PrefetchingSource(source)
        defer { reader.stop() }
        var count = 0
        do {
            while !Interruption.requested, let packet = try reader.next() {
                progress(packet.timestamp)
                try recorder.record(packet)
                count += 1
            }
            try recorder.finish(commit: !Interruption.requested)
        } catch {
            let left = FileManager.default.fileExists(atPath: recorder.stagedPath) ? "; the unfinished recording is left as '\(recorder.stagedPath)'" : ""
            throw AppFailure("\(error)\(left)", status: AppFailure.isBadInput(error) ? .badInput : .failed)
        }
        var recorded = Recorded(packets: count, skipped: recorder.skipped)
        if Interruption.requested {
            recorded.interruption = AppFailure("\(Interruption.name ?? "signal"): stopped; the \(count) packets converted so far are in '\(recorder.stagedPath)'"
                                               + (FileManager.default.fileExists(atPath: out) ? " ('\(out)' is as it was)" : ""), status: .signal(Interruption.received))
        }
        return recorded
    }
}
