import Foundation
import ParallaxCore
import ParallaxImage
import ParallaxMath

/// Writes one output stream to a file of a standard format as its packets arrive (a TUM
/// trajectory for a pose stream), so results leave `parallax run` in forms other tools read.
///
/// Packets are written to `<file>.partial`; ``finish()`` flushes and renames it into place, so a
/// file under the final name is always complete (a process killed mid-run leaves `.partial`).
public protocol StreamFileWriter: AnyObject {
    /// Appends one packet of the stream.
    func write(_ packet: AnyPacket) throws
    /// Flushes and moves the file into place; returns its final path.
    @discardableResult func finish() throws -> String
    /// What the writer left out and why, for the run report (after ``finish()``).
    var warnings: [String] { get }
}

extension StreamFileWriter {
    public var warnings: [String] { [] }
}

/// Which payload types get a file of their own, and how (one writer per stream).
///
/// ``standard`` writes every ``Pose`` stream as a TUM trajectory `<stream>.tum` (so
/// `parallax eval GT OUT/vio/pose.tum` works directly), every ``TrackedObjects`` stream as OTB
/// result files (`<stream>/<id>.txt`), every ``PointCloud`` stream as PLY files
/// (`<stream>/<t_ns>.ply`), and image-like outputs as PNG sequences
/// (`<stream>/<t_ns>.png`: ``CameraFrame`` as is, ``DepthMap`` through the turbo colormap),
/// fixations as a CSV list (`<stream>.csv`), and image anchors as a CSV per picture
/// (`<stream>/<name>.csv`, ``ImageAnchorWriter``).
/// Register more types for your own payloads; the CLI asks the registry, it knows no format.
public struct OutputWriterRegistry: Sendable {
    /// Makes the writer of stream `stream` inside `folder`.
    public typealias Factory = @Sendable (_ stream: String, _ folder: URL) throws -> any StreamFileWriter

    private var factories: [PayloadType: Factory] = [:]

    /// An empty registry.
    public init() {}

    /// Writes streams of payload `type` with `factory` (replacing an earlier registration).
    public mutating func register<P>(_ type: P.Type, _ factory: @escaping Factory) {
        factories[PayloadType(type)] = factory
    }

    /// Adds every registration of `other` (replacing this registry's for the same types).
    public mutating func merge(_ other: OutputWriterRegistry) {
        factories.merge(other.factories) { _, theirs in theirs }
    }

    /// The writer for `stream`, or `nil` when its payload type has none.
    public func writer(for stream: StreamDescription, in folder: URL) throws -> (any StreamFileWriter)? {
        try factories[stream.type].map { try $0(stream.name, folder) }
    }

    /// The writers of those of `streams` whose payload type has one, by stream name. Streams whose
    /// names make one file name (``OutputPath/relativePath(_:)``: `a b` and `a_b`) are refused
    /// (``OutputPath/RefusedError``) before any writer is made.
    public func writers(for streams: [StreamDescription], in folder: URL) throws -> [String: any StreamFileWriter] {
        let written = streams.filter { factories[$0.type] != nil }
        var byPath: [String: String] = [:]
        for s in written {
            let path = OutputPath.relativePath(s.name)
            if let other = byPath[path], other != s.name {
                throw OutputPath.RefusedError(option: "stream", path: s.name, reason: "would share its output file '\(path)' with stream '\(other)'; rename one")
            }
            byPath[path] = s.name
        }
        var out: [String: any StreamFileWriter] = [:]
        for s in written where out[s.name] == nil { out[s.name] = try writer(for: s, in: folder) }
        return out
    }

    /// Pose streams as TUM trajectories, point clouds as binary PLY files.
    public static let standard = standard(ply: .binary)

    /// ``standard`` with point clouds written in `ply` encoding.
    public static func standard(ply: PLYFile.Encoding) -> OutputWriterRegistry {
        var r = OutputWriterRegistry()
        r.register(PointCloud.self, pointClouds(ply: ply))
        r.register(Pose.self) { stream, folder in try TUMTrajectoryWriter(path: try outputPath(for: stream, extension: "tum", in: folder)) }
        r.register(TrackedObjects.self) { stream, folder in try OTBResultWriter(folder: try outputFolder(for: stream, in: folder)) }
        r.register(CameraFrame.self) { stream, folder in try PNGSequenceWriter(folder: try outputFolder(for: stream, in: folder)) }
        r.register(Fixation.self) { stream, folder in try FixationListWriter(path: try outputPath(for: stream, extension: "csv", in: folder)) }
        r.register(DepthMap.self) { stream, folder in try PNGSequenceWriter(folder: try outputFolder(for: stream, in: folder)) }
        r.register(ImageAnchors.self) { stream, folder in ImageAnchorWriter(folder: try outputFolder(for: stream, in: folder)) }
        return r
    }

    /// Point cloud streams as PLY files in `ply` encoding (`<stream>/<t_ns>.ply`).
    public static func pointClouds(ply: PLYFile.Encoding) -> Factory {
        { stream, folder in PLYSequenceWriter(folder: try outputFolder(for: stream, in: folder), encoding: ply) }
    }

    /// `folder/<stream>/`, created (the stream's `/`-separated parts as subfolders, made safe as
    /// in ``outputPath(for:extension:in:)``).
    public static func outputFolder(for stream: String, in folder: URL) throws -> URL {
        let path = try outputPath(for: stream, extension: "d", in: folder)
        let url = URL(fileURLWithPath: String(path.dropLast(2)), isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `folder/<stream>.<extension>`, the stream's `/`-separated parts as subfolders (created),
    /// each made a file name by ``OutputPath/fileName(_:)`` (an empty part, `.` and `..` become
    /// `_`), so no stream name writes outside `folder`.
    public static func outputPath(for stream: String, extension ext: String, in folder: URL) throws -> String {
        let parts = OutputPath.relativePath(stream).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var url = folder
        for part in parts.dropLast() { url.appendPathComponent(part, isDirectory: true) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.appendingPathComponent("\(parts.last ?? "_").\(ext)").path
    }
}

/// Writes a ``Pose`` stream as a TUM trajectory (`t tx ty tz qx qy qz qw`, exact decimal
/// seconds, full precision), readable by `parallax eval` and evo. Only estimates are written:
/// poses of an estimator still initializing, relocalizing into a map, or without tracking
/// (`limited(initializing)`, `limited(relocalizing)`, `notAvailable`) carry no position and
/// are left out, as are poses that are not finite
/// (counted in ``skipped``).
public final class TUMTrajectoryWriter: StreamFileWriter {
    /// The final path.
    public var path: String { file.path }
    /// Poses not written because a value was not finite.
    public private(set) var skipped = 0
    private let file: StagedTextFile

    /// Starts `path.partial`.
    public init(path: String) throws {
        file = try StagedTextFile(path: path, name: "a pose list", header: "# timestamp tx ty tz qx qy qz qw\n")
    }

    public func write(_ packet: AnyPacket) throws {
        guard let pose = packet.payload as? Pose, ![.limited(.initializing), .limited(.relocalizing), .notAvailable].contains(pose.trackingState) else { return }
        let t = pose.worldFromBody.translation, q = pose.worldFromBody.rotation.quaternion
        guard [t.x, t.y, t.z, q.w, q.x, q.y, q.z].allSatisfy(\.isFinite) else { skipped += 1; return }
        try file.append("\(packet.timestamp.decimalSeconds) \(t.x) \(t.y) \(t.z) \(q.x) \(q.y) \(q.z) \(q.w)\n")
    }

    public var warnings: [String] {
        skipped == 0 ? [] : ["\(skipped) pose(s) with non-finite values not written to \(path)"]
    }

    public func finish() throws -> String { try file.finish() }
}

/// Writes a ``TrackedObjects`` stream as OTB result files, one per object id
/// (`<id>.txt`, one `x,y,w,h` line per frame of the stream, OTB's 1-based pixel convention:
/// `x_otb = x + 1.5` for Parallax's edge coordinates where pixel centres are integers), with
/// `0,0,0,0` where the object was absent or lost, and `frames.txt` listing each frame's time
/// (ns) so lines can be matched to frames.
public final class OTBResultWriter: StreamFileWriter {
    private let folder: URL
    private var times: [Int64] = []
    private var lines: [UInt64: [String]] = [:]

    public init(folder: URL) throws { self.folder = folder }

    public func write(_ packet: AnyPacket) throws {
        guard let frame = packet.payload as? TrackedObjects else { return }
        times.append(packet.timestamp.nanoseconds)
        let k = times.count - 1
        for o in frame.objects {
            var list = lines[o.id] ?? Array(repeating: "0,0,0,0", count: k)
            if list.count < k { list += Array(repeating: "0,0,0,0", count: k - list.count) }
            let b = o.box
            let visible = o.state != .notAvailable && [b.x, b.y, b.width, b.height].allSatisfy(\.isFinite)
            list.append(visible ? "\(b.x + 1.5),\(b.y + 1.5),\(b.width),\(b.height)" : "0,0,0,0")
            lines[o.id] = list
        }
    }

    public func finish() throws -> String {
        for (id, var list) in lines {
            if list.count < times.count { list += Array(repeating: "0,0,0,0", count: times.count - list.count) }
            try (list.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("\(id).txt"), atomically: true, encoding: .utf8)
        }
        try (times.map(String.init).joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("frames.txt"), atomically: true, encoding: .utf8)
        return folder.path
    }
}

/// Writes image-like outputs (overlays, depth and disparity maps) as PNG files
/// `<t_ns>.png`: 8-bit frames as they are, depth maps through the turbo colormap (near blue,
/// far red; invalid black) over the stream's own value range: from the 1st to the 99th
/// percentile of its first map's valid values (a few stray matches at 50 m would otherwise
/// paint everything else one colour), values beyond clamped to the ends.
public final class PNGSequenceWriter: StreamFileWriter {
    private let folder: URL
    private var range: ClosedRange<Double>?

    public init(folder: URL) throws { self.folder = folder }

    public func write(_ packet: AnyPacket) throws {
        let path = folder.appendingPathComponent("\(packet.timestamp.nanoseconds).png").path
        switch packet.payload {
        case let frame as CameraFrame:
            try ImageEncoder.writePNG(frame.image, to: path)
        case let depth as DepthMap:
            // One range for the whole stream (from its first map), so colours compare across frames.
            if range == nil { range = Colormap.percentileRange(depth.values.samples) }
            try ImageEncoder.writePNG(Colormap.turbo(depth.values, range: range), to: path)
        default:
            return
        }
    }

    public func finish() throws -> String { folder.path }

}
