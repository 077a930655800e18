import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath

/// What `parallax inspect` reports about a dataset folder.
public struct DatasetInspection: Sendable, Codable {
    /// One stream.
    public struct Stream: Sendable, Codable {
        public var name: String
        public var type: String
        /// Rows listed (including images that turn out to be missing).
        public var count: Int
        public var rateHz: Double
        public var durationSeconds: Double
        public var first: Timestamp?
        public var last: Timestamp?
        /// Intervals longer than 1.5 × the median period.
        public var gaps: Int
        public var maxGapMilliseconds: Double
        /// Rows whose timestamp is not after the previous row's (file order).
        public var outOfOrder: Int
        /// Listed images whose file does not exist.
        public var missing: Int
        /// Image size and layout of the first frame (`752×480 gray8`), for image streams.
        public var imageSize: String?
        /// The stream's metadata in one line (camera model, stereo baseline, IMU noise, depth
        /// units), when it has any.
        public var calibration: String?
    }

    public var path: String
    public var format: String
    public var streams: [Stream]
    /// Overall first-to-last time across streams (s).
    public var durationSeconds: Double
    /// Ground-truth poses (0 when absent) and their span (s).
    public var groundTruthPoses: Int
    public var groundTruthSeconds: Double
    /// What the reader skipped or assumed (``DatasetSource/notes``).
    public var notes: [String] = []
    /// The calibration files given for streams (`--calibration`), one line each
    /// (``AppliedCalibration``); the streams' `calibration` is theirs.
    public var calibrations: [String] = []

    /// Inspects `path` (opened as `options` say, except that timestamps going back are
    /// reported, not refused). Decodes only the first image of each image stream.
    public static func inspect(path: String, options: DatasetOptions = DatasetOptions()) throws -> DatasetInspection {
        var options = options
        options.validateOrder = false
        let source = try DatasetFolder.open(path, options: options)
        var firstImages: [String: String] = [:]
        let imageStreams = Set(source.streams.filter { $0.type == PayloadType(CameraFrame.self) || $0.type == PayloadType(DepthMap.self) }.map(\.name))
        while firstImages.count < imageStreams.count, let packet = try source.next() {
            guard imageStreams.contains(packet.stream), firstImages[packet.stream] == nil else { continue }
            if let frame = packet.payload as? CameraFrame {
                firstImages[packet.stream] = "\(frame.width)×\(frame.height) \(frame.format.rawValue)"
            } else if let depth = packet.payload as? DepthMap {
                firstImages[packet.stream] = "\(depth.values.width)×\(depth.values.height) \(depth.kind.rawValue) (m)"
            }
        }
        var all: [Timestamp] = []
        let streams = source.streams.map { description -> Stream in
            let stamps = source.listing.stamps[description.name] ?? []
            all += [stamps.min(), stamps.max()].compactMap { $0 }
            let sorted = stamps.sorted()
            let stats = StreamStatistics(stream: description.name, nanoseconds: sorted.map(\.nanoseconds))
            let disorder = zip(stamps.dropFirst(), stamps).filter { $0 <= $1 }.count
            return Stream(name: description.name, type: description.type.name, count: stamps.count, rateHz: stats.rateHz,
                          durationSeconds: sorted.count > 1 ? sorted.last!.seconds(since: sorted.first!) : 0,
                          first: sorted.first, last: sorted.last, gaps: stats.gaps, maxGapMilliseconds: stats.maxGapMilliseconds,
                          outOfOrder: disorder, missing: source.missingImages[description.name] ?? 0,
                          imageSize: firstImages[description.name],
                          calibration: Self.summary(description.metadata))
        }
        let gt = source.groundTruth
        return DatasetInspection(
            path: path, format: source.formatName, streams: streams,
            durationSeconds: (all.max().flatMap { mx in all.min().map { mx.seconds(since: $0) } }) ?? 0,
            groundTruthPoses: gt?.count ?? 0,
            groundTruthSeconds: gt.flatMap { g in g.poses.last.map { $0.time - g.poses[0].time } } ?? 0,
            notes: source.notes, calibrations: source.appliedCalibrations.map(\.description))
    }

    /// One line per kind of metadata, joined by "; " (`nil` when there is none).
    static func summary(_ m: StreamMetadata) -> String? {
        var parts: [String] = []
        if let c = m.camera { parts.append(summary(c)) }
        if let s = m.stereo { parts.append(String(format: "stereo with %@, baseline %.4f m", s.stream, s.partnerFromThis.translation.norm)) }
        if let imu = m.imu {
            let n = imu.noise
            parts.append(String(format: "IMU %.0f Hz, gyro noise %.3g rad/s/√Hz, walk %.3g rad/s²/√Hz, accel noise %.3g m/s²/√Hz, walk %.3g m/s³/√Hz",
                                imu.rateHz, n.gyroscopeNoiseDensity, n.gyroscopeRandomWalk, n.accelerometerNoiseDensity, n.accelerometerRandomWalk))
        }
        if let d = m.depth {
            var text = "depth kind \(d.kind.rawValue)"
            if let u = d.unitsPerMetre { text += String(format: ", %.6g raw units per metre", u) }
            if let c = d.camera { text += ", registered to " + summary(c) }
            parts.append(text)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    static func summary(_ c: CameraCalibration) -> String {
        let k = c.model.intrinsics
        let d = c.model.distortion.coefficients.map { String(format: "%.4g", $0) }.joined(separator: ", ")
        return String(format: "pinhole %d×%d fx %.3f fy %.3f cx %.3f cy %.3f, ", c.model.width, c.model.height, k.fx, k.fy, k.cx, k.cy)
            + "\(c.model.distortion.name) [\(d)]"
    }
}
