import Foundation
import ParallaxCore
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
}

/// Which payload types get a file of their own, and how (one writer per stream).
///
/// ``standard`` writes every ``Pose`` stream as a TUM trajectory `<stream>.tum` (so
/// `parallax eval GT OUT/vio/pose.tum` works directly). Register more types for your own
/// payloads; the CLI asks the registry, it knows no format.
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

    /// The writer for `stream`, or `nil` when its payload type has none.
    public func writer(for stream: StreamDescription, in folder: URL) throws -> (any StreamFileWriter)? {
        try factories[stream.type].map { try $0(stream.name, folder) }
    }

    /// Pose streams as TUM trajectories.
    public static let standard: OutputWriterRegistry = {
        var r = OutputWriterRegistry()
        r.register(Pose.self) { stream, folder in try TUMTrajectoryWriter(path: try outputPath(for: stream, extension: "tum", in: folder)) }
        return r
    }()

    /// `folder/<stream>.<extension>`, the stream's `/`-separated parts as subfolders (created).
    /// A part that is empty, `.` or `..` becomes `_`, so no stream name writes outside `folder`.
    public static func outputPath(for stream: String, extension ext: String, in folder: URL) throws -> String {
        let parts = stream.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            part.isEmpty || part == "." || part == ".." ? "_" : String(part)
        }
        var url = folder
        for part in parts.dropLast() { url.appendPathComponent(part, isDirectory: true) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.appendingPathComponent("\(parts.last ?? "_").\(ext)").path
    }
}

/// Writes a ``Pose`` stream as a TUM trajectory (`t tx ty tz qx qy qz qw`, exact decimal
/// seconds, full precision), readable by `parallax eval` and evo. Poses that are not finite are
/// skipped and counted (``skipped``), never written.
public final class TUMTrajectoryWriter: StreamFileWriter {
    /// The final path.
    public let path: String
    /// Poses not written because a value was not finite.
    public private(set) var skipped = 0
    private let handle: FileHandle
    private var buffer = "# timestamp tx ty tz qx qy qz qw\n"

    /// Starts `path.partial`.
    public init(path: String) throws {
        self.path = path
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: partial])
        }
        self.handle = handle
    }

    public func write(_ packet: AnyPacket) throws {
        guard let pose = packet.payload as? Pose else { return }
        let t = pose.worldFromBody.translation, q = pose.worldFromBody.rotation.quaternion
        guard [t.x, t.y, t.z, q.w, q.x, q.y, q.z].allSatisfy(\.isFinite) else { skipped += 1; return }
        buffer += "\(packet.timestamp.decimalSeconds) \(t.x) \(t.y) \(t.z) \(q.x) \(q.y) \(q.z) \(q.w)\n"
        if buffer.utf8.count > 1 << 16 { try flush() }
    }

    public func finish() throws -> String {
        try flush()
        try handle.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        return path
    }

    private func flush() throws {
        try handle.write(contentsOf: Data(buffer.utf8))
        buffer = ""
    }
}
