import ArgumentParser
import Foundation
import ParallaxFiles
import ParallaxApp
import Parallax

/// `parallax plugins [NAME]`: every analyzer with its summary, inputs, outputs and options (like gst-inspect).
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "plugins", abstract: "List analyzers, or describe one.")

    @Argument(help: "An analyzer name to describe in full.")
    var name: String?
    @OptionGroup var python: PythonOptions

    func run() throws { try python.applying { try runWithPlugins() } }

    private func runWithPlugins() throws {
        let registry = ParallaxCLI.registry
        guard let name else {
            let width = registry.names.map(\.count).max() ?? 0
            for n in registry.names {
                guard let entry = registry.entry(n) else { continue }
                print("\(n.padding(toLength: width, withPad: " ", startingAt: 0))  \(entry.summary)")
            }
            for r in registry.resolverList {
                let n = "\(r.prefix):\(r.argumentName)"
                print("\(n.padding(toLength: width, withPad: " ", startingAt: 0))  \(r.summary)")
            }
            return
        }
        // `python:FILE.py`: the file is asked what it declares; its failure to say is bad input.
        // A worker may take its start's 120 s: Ctrl-C (also when started with it ignored, as a
        // background job is) ends it at once.
        Interruption.install()
        let resolved: AnalyzerRegistry.Entry?
        do { resolved = try registry.resolvedEntry(name) } catch {
            if Interruption.requested {
                throw fail("\(Interruption.name ?? "signal \(Interruption.received)"): stopped while the analyzer was asked what it declares", code: Interruption.exitCode)
            }
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        guard let entry = resolved else {
            let hint = Spelling.closest(to: name, in: registry.names).map { "; did you mean '\($0)'?" } ?? ""
            throw fail("unknown analyzer '\(name)'\(hint)", code: ExitCodes.badInput)
        }
        print("\(entry.name): \(entry.summary)\n")
        if let problem = entry.defaultsProblem {
            print("Ports depend on options that must be given (with the defaults: \(problem))\n")
        }
        print("Inputs (port = stream with default options; remap with port=@stream):")
        for p in entry.defaultInputs {
            print("  \(p.name ?? "?") = \(p.stream)  \(p.type == PortDescription.anyPayload ? "any" : p.type.name)  \(p.policy)")
        }
        print("Outputs:")
        for p in entry.defaultOutputs { print("  \(p.name ?? "?") = \(p.stream)  \(p.type.name)") }
        print("Options:")
        for o in entry.options {
            var line = "  \(o.name) = \(o.defaultValue)"
            if !o.documentation.isEmpty { line += "  — \(o.documentation)" }
            var facts: [String] = []
            if let choices = o.choices { facts.append("one of: " + choices.joined(separator: ", ")) } else if let type = o.type { facts.append(type) }
            if let range = o.range { facts.append("valid: \(range)") }
            if !facts.isEmpty { line += " [" + facts.joined(separator: "; ") + "]" }
            print(line)
            if let origin = o.fromData { print("      from the data when not given: \(origin)") }
        }
        if !entry.upstreamPreferences.isEmpty {
            print("Asks of its inputs' producers (options the chain does not give them):")
            for p in entry.upstreamPreferences {
                let options = p.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                print("  \(p.port) from \(p.analyzer): \(options)  — \(p.reason)")
            }
        }
    }
}
