import ArgumentParser
import Foundation
import Parallax

@main
struct ParallaxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax",
        abstract: "Perception on recorded sensor data: run analyzer chains over dataset folders.",
        subcommands: [RunCommand.self, PluginsCommand.self])
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
