import Foundation
import ParallaxBus
import ParallaxPayloads
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
    /// What the writer left out by design (poses without an estimate), for the run report's
    /// notes (after ``finish()``).
    var notes: [String] { get }
}

extension StreamFileWriter {
    public var warnings: [String] { [] }
    public var notes: [String] { [] }
}

/// A payload that writes its streams to files of its own in a run's `--out`: a capability the
/// type carries, as ``MCAPRecordable`` and `FrameOverlayDrawable` are. ``OutputWriterRegistry``
/// uses it for a payload type with no registered writer; without either, a stream's packets are
/// in `events.jsonl` only (when `Codable`). A plugin's payload conforms the way a built-in does.
public protocol StreamFileWritable: Sendable {
    /// The writer of stream `stream` inside `folder` (name its file with
    /// ``OutputWriterRegistry/outputPath(for:extension:in:)`` or
    /// ``OutputWriterRegistry/outputFolder(for:in:)``: stream names never leave `folder`).
    static func streamFileWriter(stream: String, folder: URL) throws -> any StreamFileWriter
}
