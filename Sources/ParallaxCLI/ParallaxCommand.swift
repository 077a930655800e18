import ArgumentParser
import Foundation
import Parallax

/// The `parallax` command line, as a library: the stock `parallax` executable calls
/// ``ParallaxCLI/main(registering:)`` with nothing extra; a plugin author's executable calls it
/// with their analyzers, and gets the whole CLI (`run`, `plugins`, …) with them built in.
///
/// ```swift
/// // Sources/my-parallax/main.swift in your package
/// import ParallaxCLI
/// ParallaxCLI.main { registry in registry.register(MyAnalyzer.self) }
/// ```
public enum ParallaxCLI {
    /// The registry the commands use: built-ins plus what the host executable registered.
    nonisolated(unsafe) static var registry = BuiltinAnalyzers.registry

    /// Parses the process arguments and runs the command; exits the process.
    public static func main(registering register: (inout AnalyzerRegistry) -> Void = { _ in }) -> Never {
        register(&registry)
        ProcessMemory.keepFreedBuffers()
        ParallaxCommand.main()
        exit(0)
    }
}

struct ParallaxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax",
        abstract: "Perception on recorded sensor data: run analyzer chains over dataset folders.",
        subcommands: [RunCommand.self, InspectCommand.self, EvalCommand.self, BenchCommand.self, ConvertCommand.self, SimulateCommand.self, PluginsCommand.self])
}

/// Exit codes: 0 success, 1 the run failed, 2 bad usage or input.
enum ExitCodes {
    static let runFailed = ExitCode(1)
    static let badInput = ExitCode(2)
}

func fail(_ message: String, code: ExitCode) -> ExitCode {
    FileHandle.standardError.write(Data("parallax: \(message)\n".utf8))
    return code
}
