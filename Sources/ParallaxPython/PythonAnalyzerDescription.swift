import Foundation
import ParallaxBus

/// What a Python analyzer declares on its class, as the worker describes it (``WorkerProtocol/Kind/description``).
struct PythonAnalyzerDescription: Decodable, Sendable, Equatable {
    /// One declared port.
    struct Port: Decodable, Sendable, Equatable {
        var name: String
        var stream: String
        var type: String
        /// Inputs only: `each`, `latest`, `nearest`, `between`, `between-first-after`.
        var policy: String?
        /// `latest` and `nearest` only (ns).
        var tolerance_ns: Int64?
        /// Outputs only: the input port whose stream description this stream takes.
        var like: String?
    }

    /// One declared option.
    struct Option: Decodable, Sendable, Equatable {
        var name: String
        var `default`: JSONValue
        var doc: String
        /// `bool`, `int`, `float` or `str`.
        var type: String
        /// Inclusive bounds, numbers only.
        var range: [Double]?
        var choices: [String]?
    }

    var name: String
    var summary: String
    var inputs: [Port]
    var outputs: [Port]
    var options: [Option]
    /// The worker's fingerprint of the declaration (SHA-256 of its JSON): sent back when the run's
    /// worker opens, which refuses to run a file that now declares otherwise (edited in between,
    /// or declarations that depend on chance). Absent from older workers.
    var digest: String?

    /// Options every Python analyzer has, set on the Parallax side.
    static let reservedOptions = ["timeout", "memory_mb"]
    /// The default answer timeout (s): generous for a slow first call (a model loading).
    static let defaultTimeout = 30.0
    /// How long starting a worker (interpreter, imports), describing the file and opening the
    /// analyzer may take (s), whatever `timeout` says: importing a large library from a cold
    /// disk takes tens of seconds.
    static let startTimeout = 120.0
    /// The default limit of a worker's data (MiB, ``WorkerProcess``'s `memoryLimit`): half the
    /// machine's physical memory, so an analyzer that keeps what it should not (a list that grows
    /// by a frame a frame) fails with a MemoryError instead of taking the machine's memory.
    static let defaultMemoryMB: Int = {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), size = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, size > 0 else { return 4096 }
        return max(1024, Int(pages / 2 / (1 << 20 / max(1, size))))
    }()

    /// The declared ports as the bus sees them; throws naming the port when one has a type or
    /// policy Parallax does not know.
    func ports(file: String) throws(PythonWorkerError) -> (inputs: [PortDescription], outputs: [PortDescription]) {
        func describe(_ p: Port, input: Bool) throws(PythonWorkerError) -> PortDescription {
            guard let kind = PythonPayloadKind(rawValue: p.type), input || kind != .any else {
                throw .declaration(file: file, message: "port '\(p.name)' has payload type '\(p.type)', which Parallax does not know")
            }
            guard input else { return PortDescription(stream: p.stream, type: kind.payloadType, policy: .each, name: p.name) }
            let policy: SyncPolicy
            switch p.policy ?? "each" {
            case "each": policy = .each
            case "latest": policy = .latest(tolerance: p.tolerance_ns ?? 0)
            case "nearest": policy = .nearest(tolerance: p.tolerance_ns ?? 0)
            case "between": policy = .between(through: .trigger)
            case "between-first-after": policy = .between(through: .firstAfter)
            default: throw .declaration(file: file, message: "input '\(p.name)' has policy '\(p.policy ?? "")', which Parallax does not know")
            }
            return PortDescription(stream: p.stream, type: kind.payloadType, policy: policy, name: p.name)
        }
        var ins: [PortDescription] = [], outs: [PortDescription] = []
        for p in inputs { ins.append(try describe(p, input: true)) }
        for p in outputs {
            if let like = p.like, !inputs.contains(where: { $0.name == like }) {
                throw .declaration(file: file, message: "output '\(p.name)' is like '\(like)', which is not an input port")
            }
        }
        for p in outputs { outs.append(try describe(p, input: false)) }
        return (ins, outs)
    }

    /// The options for `parallax plugins`: the declared ones, then `timeout` and `memory_mb`.
    var optionInfos: [AnalyzerRegistry.OptionInfo] {
        options.map { o in
            let range = o.range.flatMap { r in r.count == 2 ? "\(JSONText.number(r[0]))…\(JSONText.number(r[1]))" : nil }
            let type = ["bool": "true or false", "int": "integer", "float": "number", "str": "text"][o.type] ?? o.type
            return AnalyzerRegistry.OptionInfo(name: o.name, defaultValue: o.default.jsonText, documentation: o.doc, type: type, range: range, choices: o.choices)
        } + [AnalyzerRegistry.OptionInfo(name: "timeout", defaultValue: JSONText.number(Self.defaultTimeout),
                                         documentation: "seconds one call of the Python worker (process, close) may take before it is killed and the run fails; starting and opening it may take 120 s or this, the longer (s)",
                                         type: "number", range: "0.001…86400", choices: nil),
           AnalyzerRegistry.OptionInfo(name: "memory_mb", defaultValue: "\(Self.defaultMemoryMB)",
                                       documentation: "most memory the Python worker's data may take (MiB: its heap and arrays, not the frames Parallax shares); beyond it the analyzer gets a MemoryError and the run fails; 0: no limit (default: half the machine's memory)",
                                       type: "integer", range: "0…\(Int32.max)", choices: nil)]
    }

    /// The chain's `values` checked and typed as declared (JSON values for the worker), the
    /// timeout (s) and the memory limit (MiB; 0: none). Throws ``AnalyzerError/invalidOption(analyzer:option:reason:)`` naming the
    /// option; unknown names are the registry's to refuse.
    func decode(_ values: [String: String], analyzer: String) throws -> (options: [(String, JSONValue)], timeout: Double, memoryMB: Int) {
        var timeout = Self.defaultTimeout
        var memoryMB = Self.defaultMemoryMB
        if let text = values["memory_mb"] {
            guard let m = Int(text), m >= 0, m <= Int(Int32.max) else {
                throw AnalyzerError.invalidOption(analyzer: analyzer, option: "memory_mb", reason: "must be a whole number of MiB in 0…\(Int32.max) (0: no limit)")
            }
            memoryMB = m
        }
        if let text = values["timeout"] {
            guard let t = Double(text), t.isFinite, t >= 0.001, t <= 86400 else {
                throw AnalyzerError.invalidOption(analyzer: analyzer, option: "timeout", reason: "must be a number of seconds in 0.001…86400")
            }
            timeout = t
        }
        var typed: [(String, JSONValue)] = []
        for o in options {
            guard let text = values[o.name] else { typed.append((o.name, o.default)); continue }
            let value: JSONValue
            switch o.type {
            case "bool":
                guard let b = ["true": true, "false": false, "1": true, "0": false, "yes": true, "no": false][text.lowercased()] else {
                    throw AnalyzerError.invalidOption(analyzer: analyzer, option: o.name, reason: "must be true or false")
                }
                value = .bool(b)
            case "int":
                guard let i = Int64(text) else { throw AnalyzerError.invalidOption(analyzer: analyzer, option: o.name, reason: "must be an integer") }
                value = .number(Double(i))
            case "float":
                guard let d = Double(text), d.isFinite else { throw AnalyzerError.invalidOption(analyzer: analyzer, option: o.name, reason: "must be a finite number") }
                value = .number(d)
            default:
                value = .string(text)
            }
            if let r = o.range, r.count == 2, case let .number(d) = value, !(d >= r[0] && d <= r[1]) {
                throw AnalyzerError.invalidOption(analyzer: analyzer, option: o.name,
                                                  reason: "must be in \(JSONText.number(r[0]))…\(JSONText.number(r[1]))")
            }
            if let choices = o.choices, !choices.contains(text) {
                throw AnalyzerError.invalidOption(analyzer: analyzer, option: o.name, reason: "must be one of \(choices.joined(separator: ", "))")
            }
            typed.append((o.name, value))
        }
        return (typed, timeout, memoryMB)
    }
}
