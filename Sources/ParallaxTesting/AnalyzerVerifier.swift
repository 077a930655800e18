import Foundation
import ParallaxBus
/// Checks the contract every analyzer must keep, on inputs you provide:
/// - output timestamps never decrease on any output stream;
/// - results are identical across two runs, when each stream comes from its own source instead
///   of one merged source, and when the input is read on worker threads (determinism: an
///   analyzer that reads the clock, draws unseeded random numbers or iterates a dictionary fails);
/// - `open` is called once before any `process`, and `close` once after the last.
///
/// Returns the list of violations (empty when the analyzer passes), each a sentence.
public enum AnalyzerVerifier {
    public static func verify<A: Analyzer>(_ make: @escaping () throws -> A,
                                           feed: (inout AnalyzerHarness) -> Void) throws -> [String] {
        var problems: [String] = []
        var harness = AnalyzerHarness { Lifecycle(try make()) }
        feed(&harness)
        let reference = try harness.run()
        if let failure = reference.failure { problems.append("the run failed: \(failure)") }

        var last: [String: Timestamp] = [:]
        for p in reference.outputs {
            if let prev = last[p.stream], p.timestamp < prev {
                problems.append("output '\(p.stream)' goes back in time from \(prev.nanoseconds) to \(p.timestamp.nanoseconds) ns")
            }
            last[p.stream] = p.timestamp
        }
        let expected = fingerprint(reference.outputs)
        for (label, result) in [("a second run", try harness.run()),
                                ("one source per stream", try harness.run(sourcePerStream: true)),
                                ("prefetched input", try harness.run(prefetch: true))] {
            if fingerprint(result.outputs) != expected { problems.append("outputs differ with \(label)") }
        }
        for p in reference.outputs where p.stream == Lifecycle<A>.violationStream {
            problems.append((p.payload as? String) ?? "lifecycle violation")
        }
        return problems
    }

    /// A canonical text of packets: stream, timestamp and the payload (JSON when Encodable).
    public static func fingerprint(_ packets: [AnyPacket]) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return packets.map { p in
            let body: String
            if let e = p.payload as? any Encodable, let data = try? encoder.encode(e) {
                body = String(decoding: data, as: UTF8.self)
            } else {
                body = String(describing: p.payload)
            }
            return "\(p.stream) \(p.timestamp.nanoseconds) \(body)"
        }
    }
}

/// Wraps an analyzer and reports lifecycle violations on an extra output stream.
struct Lifecycle<Base: Analyzer>: Analyzer {
    static var name: String { Base.name }
    static var summary: String { Base.summary }
    static var violationStream: String { "__lifecycle_violations" }
    typealias Options = Base.Options

    var base: Base
    var opened = 0, closed = 0
    let violations = OutputPort<String>(Lifecycle.violationStream)

    init(_ base: Base) { self.base = base }
    init(options: Options) throws { base = try Base(options: options) }

    var inputs: [PortDescription] { base.inputs }
    var outputs: [PortDescription] { base.outputs + [violations.erased] }

    mutating func open(context: inout AnalyzerContext) throws {
        opened += 1
        if opened > 1 { context.emit("open called \(opened) times", on: violations, at: Timestamp(nanoseconds: .min)) }
        try base.open(context: &context)
    }

    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        if opened != 1 || closed != 0 {
            context.emit("process called with open×\(opened), close×\(closed)", on: violations, at: input.timestamp)
        }
        try base.process(input, context: &context)
    }

    mutating func close(context: inout AnalyzerContext) throws {
        closed += 1
        try base.close(context: &context)
        if closed != 1 || opened != 1 {
            context.emit("close called with open×\(opened), close×\(closed)", on: violations, at: Timestamp(nanoseconds: .max))
        }
    }
}
