import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxImage
import ParallaxMath
import ParallaxFiles
import ParallaxCodecs

/// Which payload types get a file of their own, and how (one writer per stream).
///
/// ``standard`` writes every ``Pose`` stream as a TUM trajectory `<stream>.tum` (so
/// `parallax eval GT OUT/vio/pose.tum` works directly), every ``TrackedObjects`` stream as OTB
/// result files (`<stream>/<id>.txt`), every ``PointCloud`` stream as PLY files
/// (`<stream>/<t_ns>.ply`), and image-like outputs as PNG sequences
/// (`<stream>/<t_ns>.png`: ``CameraFrame`` as is, ``DepthMap`` through the turbo colormap),
/// fixations as a CSV list (`<stream>.csv`), and image anchors as a CSV per picture
/// (`<stream>/<name>.csv`, ``ImageAnchorWriter``).
/// A payload type with no registration is written by its own ``StreamFileWritable`` writer when
/// it has one. Register types for payloads you do not own; the CLI asks the registry, it knows no
/// format.
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
        try factory(for: stream.type).map { try $0(stream.name, folder) }
    }

    /// How streams of payload `type` are written: its registration, else its own
    /// ``StreamFileWritable`` writer, else nil.
    public func factory(for type: PayloadType) -> Factory? {
        if let registered = factories[type] { return registered }
        guard let writable = type.swiftType as? any StreamFileWritable.Type else { return nil }
        return { stream, folder in try writable.streamFileWriter(stream: stream, folder: folder) }
    }

    /// The writers of those of `streams` whose payload type has one, by stream name. Streams whose
    /// names make one file name (``OutputPath/relativePath(_:)``: `a b` and `a_b`) are refused
    /// (``OutputPath/RefusedError``) before any writer is made.
    public func writers(for streams: [StreamDescription], in folder: URL) throws -> [String: any StreamFileWriter] {
        try checkFileNames(of: streams)
        let written = streams.filter { factory(for: $0.type) != nil }
        var out: [String: any StreamFileWriter] = [:]
        for s in written where out[s.name] == nil { out[s.name] = try writer(for: s, in: folder) }
        return out
    }

    /// Refuses, before anything is made, streams of `streams` with a writer whose files could not
    /// be made: two whose names make one file name (``OutputPath/relativePath(_:)``: `a b` and
    /// `a_b`), or a name part too long for a file name once a writer adds its extension and the
    /// staging suffix (at most 239 bytes for the last part, 255 for the others), or a path inside
    /// the output folder longer than ``longestRelativePath`` (the system's paths end at 4096 bytes,
    /// the output folder's own included), or a name that would take the place of one of
    /// `reserved` (the folder's own files: `run.json`, `events.jsonl`, …) at its top.
    ///
    /// `extras` are the other files the command writes inside the folder (`--mcap`, `--save-map`:
    /// option → path relative to the folder): one where a stream needs its folder (`--mcap OUT/vio`
    /// with a stream `vio/pose`), or that is a stream's own file (`OUT/vio/pose.tum`), is refused
    /// naming the option; beside a stream's files (`OUT/vio/x.mcap`) it is fine.
    public func checkFileNames(of streams: [StreamDescription], reserved: Set<String> = [], extras: [String: String] = [:]) throws {
        var byPath: [String: String] = [:]
        for s in streams where factory(for: s.type) != nil {
            let path = OutputPath.relativePath(s.name)
            for (option, extra) in extras.sorted(by: { $0.key < $1.key }) {
                let stem = (extra as NSString).deletingPathExtension
                if path.hasPrefix(extra + "/") || stem == path {
                    throw OutputPath.RefusedError(option: option, path: extra, reason: "is, inside the output folder, where stream '\(s.name)' writes its files ('\(path)…'): name another file")
                }
                // Inside the folder a stream fills (a PNG per frame: its names are not known before the run).
                if extra.hasPrefix(path + "/") {
                    throw OutputPath.RefusedError(option: option, path: extra, reason: "is inside '\(path)/', the folder where stream '\(s.name)' may write its files: name another file")
                }
            }
            if let top = path.split(separator: "/", omittingEmptySubsequences: false).first, reserved.contains(String(top)) {
                throw OutputPath.RefusedError(option: "stream", path: s.name, reason: "would write its files at '\(top)' in the output folder, which is the run's own: rename the stream")
            }
            if let other = byPath[path], other != s.name {
                throw OutputPath.RefusedError(option: "stream", path: s.name, reason: "would share its output file '\(path)' with stream '\(other)'; rename one")
            }
            byPath[path] = s.name
            if path.utf8.count > Self.longestRelativePath {
                throw OutputPath.RefusedError(option: "stream", path: String(s.name.prefix(48)) + "…", reason: "makes a path of \(path.utf8.count) bytes inside the output folder, "
                                              + "more than the \(Self.longestRelativePath) a stream's files may take: give the stream a shorter name (fewer '/' levels)")
            }
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            for (k, part) in parts.enumerated() where part.utf8.count > (k == parts.count - 1 ? 239 : 255) {
                throw OutputPath.RefusedError(option: "stream", path: s.name, reason: "makes a name of \(part.utf8.count) bytes ('\(part.prefix(24))…') in the output folder, "
                                              + "where a name holds 255 with room for an extension and '.partial' (239 for the last part): give the stream a shorter name")
            }
        }
    }

    /// The longest path a stream's files may take inside the output folder (bytes).
    public static let longestRelativePath = 1024

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
    /// `_`), so no stream name writes outside `folder`. Names too long for a file are refused
    /// earlier, by ``checkFileNames(of:)``.
    public static func outputPath(for stream: String, extension ext: String, in folder: URL) throws -> String {
        let parts = OutputPath.relativePath(stream).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var url = folder
        for part in parts.dropLast() { url.appendPathComponent(part, isDirectory: true) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.appendingPathComponent("\(parts.last ?? "_").\(ext)").path
    }
}
