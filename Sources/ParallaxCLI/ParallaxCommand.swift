import ArgumentParser
import Foundation
import Parallax
import ParallaxFiles
import ParallaxApp

/// The `parallax` command line, as a library: the stock `parallax` executable calls
/// ``ParallaxCLI/main(plugins:)`` with nothing extra; a plugin author's executable calls it with
/// their plugin bundles, and gets the whole CLI (`run`, `plugins`, `bench`, …) with them built in:
/// their analyzers run, their formats open, their payloads are written, drawn and recorded, their
/// evaluations score.
///
/// ```swift
/// // Sources/my-parallax/main.swift in your package
/// import ParallaxCLI
/// ParallaxCLI.main(plugins: [MyPlugin.self])
/// ```
public enum ParallaxCLI {
    /// This build's version, as run.json, report.json and the HTML reports give it.
    public static let version = ParallaxVersion.current
    /// The plugins the commands use: the built-ins plus the host executable's, set for the run by
    /// ``main(plugins:)`` (a task-local value, not a global: tests run commands with other
    /// plugins concurrently).
    @TaskLocal static var plugins: PluginRegistry = BuiltinPlugins.registry
    /// The analyzers the commands use (``plugins``').
    static var registry: AnalyzerRegistry { plugins.analyzers }

    /// Parses the process arguments and runs the command with the built-in plugins and
    /// `plugins`; exits the process with its status.
    public static func main(plugins extra: [any ParallaxPlugin.Type] = []) -> Never {
        BLASThreadsGuard.restartIfNeeded()
        // A closed console (`parallax run … | head`) must not kill a run: writes to it fail quietly
        // (StandardError) and the run keeps what it computes. Child processes get the default back.
        signal(SIGPIPE, SIG_IGN)
        ProcessMemory.keepFreedBuffers()
        ProcessMemory.shareOneArenaUnderAddressLimit()
        do {
            // Under `ulimit -v`: BLAS's work buffer taken while the space is free, and room for data
            // checked, before anything is read or written (ChainRunner checks again for library hosts).
            try AddressSpace.requireRoomForRun()
        } catch {
            StandardError.write(Data("parallax: \(error)\n".utf8))
            exit(ExitCodes.runFailed.rawValue)
        }
        let status = $plugins.withValue(BuiltinPlugins.registry.adding(extra)) { run() }
        // A command that ended without committing its --out (a failure, a signal) lists what it
        // left in DIR.partial, so the next command removes only that.
        OutputFolder.keepAllUnfinished()
        // A file named by the user that Parallax could not remember as its own is refused by the
        // next command that would replace it: said now, not then.
        for path in OutputLedger.takeUnrecorded() {
            StandardError.write(Data(("parallax: warning: '\(path)' was written, but Parallax's record of the files it wrote could not be updated "
                                      + "(is the state folder writable? PARALLAX_STATE_DIR, XDG_STATE_HOME, ~/.local/state/parallax): "
                                      + "a later command will refuse to replace it; move it away before rerunning\n").utf8))
        }
        exit(status)
    }

    /// Parses `arguments` (default: the process's), runs the command and returns the exit
    /// status: 0 success, 1 the run failed, 2 bad usage or input — ArgumentParser's own usage
    /// errors (its 64) included. Messages go to standard error, help to standard output.
    static func run(_ arguments: [String]? = nil) -> Int32 {
        do {
            var command = try ParallaxCommand.parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            let code = ParallaxCommand.exitCode(for: error)
            let message = ParallaxCommand.fullMessage(for: error)
            if !message.isEmpty {
                if code == .success { print(message) } else { StandardError.write(Data((message + "\n").utf8)) }
            }
            return code == .validationFailure ? ExitCodes.badInput.rawValue : code.rawValue
        }
    }
}

struct ParallaxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parallax",
        abstract: "Perception on recorded sensor data: run analyzer chains over dataset folders.",
        subcommands: [RunCommand.self, InspectCommand.self, EvalCommand.self, BenchCommand.self, ConvertCommand.self, SimulateCommand.self, FormatsCommand.self, DatasetsCommand.self, FetchCommand.self, ResultsCommand.self, PluginsCommand.self])
}

/// Exit codes: 0 success, 1 the run failed, 2 bad usage or input.
enum ExitCodes {
    static let runFailed = ExitCode(1)
    static let badInput = ExitCode(2)

    /// Whether `error` says the user's input is at fault (exit 2) rather than the run (exit 1):
    /// a ``BadInput`` error, or one of the errors that carry the distinction per case.
    static func isBadInput(_ error: any Error) -> Bool { AppFailure.isBadInput(error) }

    /// ``badInput`` or ``runFailed`` for `error`.
    static func code(for error: any Error) -> ExitCode { isBadInput(error) ? badInput : runFailed }
}

func fail(_ message: String, code: ExitCode) -> ExitCode {
    StandardError.write(Data("parallax: \(message)\n".utf8))
    return code
}

/// Prints an application failure as the command's message and gives its exit status.
func fail(_ failure: AppFailure) -> ExitCode {
    StandardError.write(Data("parallax: \(failure.message)\n".utf8))
    return ExitCode(failure.status.exitStatus)
}

extension Interruption {
    /// The exit status for the received signal: 128 + its number.
    static var exitCode: ExitCode { ExitCode(exitStatus) }
}
