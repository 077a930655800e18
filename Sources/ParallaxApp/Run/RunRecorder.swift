import Foundation
import Parallax
import ParallaxFiles
import ParallaxOutputs

/// Everything a run keeps of its packets, as an observer of the bus with explicit state: every
/// output as a line of `events.jsonl` (buffered, flushed every 64 KiB), the streams with a file
/// format of their own to their writers (pose streams → TUM, …), the inputs and outputs to an
/// MCAP recording (`--mcap`), the frames the HTML report draws, and the last world map built.
///
/// Feed it with ``output(producer:packet:)`` and ``input(_:)`` from the bus's callbacks, then
/// ``finish(report:succeeded:)`` once: it closes every file whatever happened, so nothing
/// already computed is lost.
public final class RunRecorder {
    /// `events.jsonl`'s path.
    public let eventsPath: String
    private let events: LineFile
    private let encoder: JSONEncoder
    private var buffered = Data()
    /// Outputs per producer whose payload held values JSON cannot hold (written as null).
    private var unencodable: [String: Int] = [:]
    private let writers: [String: any StreamFileWriter]
    private let foxglove: FoxgloveRecorder?
    /// The frames and outputs `report.html` draws.
    public private(set) var html: RunHTMLReport
    /// The last world map an analyzer emitted (for `--save-map`).
    public private(set) var builtMap: WorldMap?

    /// A recorder writing `events.jsonl` into `folder`, stream files through `writers` and,
    /// with `foxglove`, an MCAP recording; drawing `source`'s first camera for the report.
    public init(folder: URL, writers: [String: any StreamFileWriter], foxglove: FoxgloveRecorder?, source: any DatasetSource) throws {
        eventsPath = folder.appendingPathComponent("events.jsonl").path
        events = try LineFile(path: eventsPath)
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.writers = writers
        self.foxglove = foxglove
        html = RunHTMLReport(source: source)
    }

    /// Records one output packet of `producer` (the bus's sink).
    public func output(producer: String, packet: AnyPacket) throws {
        let (line, encoded) = EventLine.encode(packet, producer: producer, encoder: encoder)
        if !encoded { unencodable[producer, default: 0] += 1 }
        buffered.append(line)
        if buffered.count > 1 << 16 {
            do { try events.append(buffered) } catch { throw OutputError(path: eventsPath, error: error) }
            buffered.removeAll(keepingCapacity: true)
        }
        try writers[packet.stream]?.write(packet)
        if let map = packet.payload as? WorldMap { builtMap = map }
        try foxglove?.record(packet)
        html.overlays.output(packet)
    }

    /// Records one input packet (from the dataset).
    public func input(_ packet: AnyPacket) throws {
        try foxglove?.record(packet)
        html.overlays.input(packet)
    }

    /// Closes `events.jsonl`, the stream files and the MCAP recording — whatever happened — and
    /// adds what they noticed to `report`'s warnings. The MCAP file (`recordingName`, as the
    /// user named it) takes its name when the run succeeded (`runSucceeded` and every file
    /// before it finished) or when it lies inside the staged output folder (whose commit decides);
    /// else it stays staged, and a warning says where. Returns the problems that lost results
    /// (a file that could not be finished).
    public func finish(report: inout RunReport, runSucceeded: Bool, recordingInsideStaging: Bool, recordingName: String?) -> [String] {
        var problems: [String] = []
        do { try events.append(buffered); try events.close() } catch {
            problems.append("\(OutputError(path: eventsPath, error: error))")
        }
        buffered = Data()
        for (stream, writer) in writers.sorted(by: { $0.key < $1.key }) {
            do {
                try writer.finish()
                report.warnings += writer.warnings.map { "\(stream): \($0)" }
                report.notes += writer.notes.map { "\(stream): \($0)" }
            } catch {
                problems.append("\(stream): could not finish its file: \(OutputFolder.reason(error))")
            }
        }
        if let foxglove, let name = recordingName {
            let commitRecording = (runSucceeded && problems.isEmpty) || recordingInsideStaging
            do {
                try foxglove.finish(commit: commitRecording)
                if !commitRecording { report.warnings.append("--mcap: the run did not finish; what was recorded is in '\(foxglove.stagedPath)' ('\(name)' is as it was)") }
                for (stream, n) in foxglove.skipped.sorted(by: { $0.key < $1.key }) {
                    report.warnings.append("\(stream): \(n) packet(s) have no Foxglove or JSON form; not in \(name)")
                }
            } catch {
                problems.append("\(error)")
            }
        }
        for (producer, count) in unencodable.sorted(by: { $0.key < $1.key }) {
            report.warnings.append("\(producer): \(count) output(s) had values JSON cannot hold (NaN or infinity); written as null in events.jsonl")
        }
        return problems
    }
}
