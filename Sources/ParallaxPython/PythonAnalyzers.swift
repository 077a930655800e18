import Foundation
import ParallaxBus

/// Python analyzers in chains: the ``AnalyzerResolver`` for `python:FILE.py`, which asks a
/// worker what the file declares (``PythonAnalyzerDescription``) and makes a ``PythonAnalyzer``
/// with the chain's options.
public enum PythonAnalyzers {
    /// The interpreter used when none is given: `$PARALLAX_PYTHON`, else `python3` from `PATH`.
    public static var defaultInterpreter: String {
        ProcessInfo.processInfo.environment["PARALLAX_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
    }

    /// The resolver of `python:FILE.py` names, running `interpreter` (a path, or a name looked
    /// up on `PATH`).
    public static func resolver(interpreter: String = defaultInterpreter) -> AnalyzerResolver {
        let cache = DescriptionCache()
        return AnalyzerResolver(prefix: "python", argumentName: "FILE.py", summary: "An analyzer written in Python: the parallax.Analyzer subclass FILE.py declares") { file in
            let declaration = try cache.description(of: file, interpreter: interpreter)
            return try entry(file: file, declaration: declaration, interpreter: interpreter)
        }
    }

    /// What `file` declares, asked of a short-lived worker. Throws ``PythonWorkerError`` naming
    /// the file: missing, not importable, no analyzer.
    static func describe(file: String, interpreter: String) throws(PythonWorkerError) -> PythonAnalyzerDescription {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
            throw .declaration(file: file, message: "no such file")
        }
        guard !isFolder.boolValue else { throw .declaration(file: file, message: "is a folder: name the Python file in it") }
        // A FIFO, a device (/dev/zero through a symlink), a socket: the worker would wait on it or
        // read without end while importing. Only a regular file (symlinks followed) is a source.
        var info = stat()
        guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw .declaration(file: file, message: "is not a regular file (a FIFO, a device or a socket): name a Python source file")
        }
        let session = try PythonWorkerSession(file: file, interpreter: interpreter, timeout: PythonAnalyzerDescription.startTimeout,
                                              memoryLimit: PythonAnalyzerDescription.defaultMemoryMB << 20)
        defer { session.finish() }
        let frame = try session.ask(.describe, header: "{}", expecting: .description, during: "describe")
        let declaration: PythonAnalyzerDescription
        do { declaration = try JSONDecoder().decode(PythonAnalyzerDescription.self, from: frame.header) } catch {
            throw .protocolViolation("python:\(file): an unreadable description: \(error)")
        }
        for o in declaration.options where PythonAnalyzerDescription.reservedOptions.contains(o.name) {
            let what = o.name == "timeout" ? "the worker's answer timeout" : "the worker's memory limit"
            throw .declaration(file: file, message: "option '\(o.name)' is Parallax's own (\(what)); name yours otherwise")
        }
        _ = try declaration.ports(file: file)
        return declaration
    }

    /// The registry entry of `file`.
    static func entry(file: String, declaration: PythonAnalyzerDescription, interpreter: String) throws -> AnalyzerRegistry.Entry {
        let name = "python:\(file)"
        let ports = try declaration.ports(file: file)
        var entry = AnalyzerRegistry.Entry(
            name: name, summary: declaration.summary.isEmpty ? "(\(declaration.name), no summary)" : declaration.summary,
            options: declaration.optionInfos, defaultInputs: ports.inputs, defaultOutputs: ports.outputs,
            make: { values, instanceName, remap in
                let (options, timeout, memoryMB) = try declaration.decode(values, analyzer: name)
                let analyzer = try PythonAnalyzer(file: file, interpreter: interpreter, timeout: timeout, memoryMB: memoryMB,
                                                  declaration: declaration, options: options)
                var effective = Dictionary(options.map { ($0.0, $0.1.jsonText) }, uniquingKeysWith: { a, _ in a })
                effective["timeout"] = JSONText.number(timeout)
                // The limit is recorded only when given: its default depends on the machine.
                if values["memory_mb"] != nil { effective["memory_mb"] = "\(memoryMB)" }
                return try AnalyzerInstance(analyzer, name: instanceName ?? declaration.name, typeName: name, optionSummary: values,
                                            effectiveOptions: effective, givenOptions: Set(values.keys), remapping: remap)
            },
            decode: { values in _ = try declaration.decode(values, analyzer: name) })
        entry.defaultInstanceName = declaration.name
        return entry
    }
}

/// Descriptions already asked for, by file and modification time: a chain that makes an
/// analyzer twice (a consumer's preferences) starts one describing worker, not two.
final class DescriptionCache: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [String: (modified: Date?, description: PythonAnalyzerDescription)] = [:]

    func description(of file: String, interpreter: String) throws -> PythonAnalyzerDescription {
        let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date
        lock.lock()
        let hit = known[file]
        lock.unlock()
        if let hit, hit.modified == modified { return hit.description }
        let d = try PythonAnalyzers.describe(file: file, interpreter: interpreter)
        lock.lock()
        known[file] = (modified, d)
        lock.unlock()
        return d
    }
}

/// The Python bundle: `python:FILE.py` analyzers (``PythonAnalyzers``).
public enum PythonPlugin: ParallaxPlugin {
    public static let name = "python"
    public static func register(into registry: inout PluginRegistry) {
        registry.analyzers.register(resolver: PythonAnalyzers.resolver())
    }
}
