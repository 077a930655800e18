import ArgumentParser
import Foundation
import ParallaxApp
import ParallaxFiles

/// A command's `--out` folder: the application's ``StagedOutput`` with the CLI's exit statuses,
/// its messages printed as the command's.
struct CommandOutput {
    let staged: StagedOutput
    var folder: OutputFolder { staged.folder }
    /// Where the command writes (the staging folder).
    var url: URL { staged.url }

    init(_ path: String, command: String, inputs: [String] = []) throws {
        do { staged = try StagedOutput(path, command: command, inputs: inputs) } catch { throw fail(error) }
    }

    /// Exit 1 for a failure after writing began (exit 2 when `badInput`), saying where its
    /// partial results are.
    func failed(_ message: String, badInput: Bool = false) -> ExitCode { fail(staged.failed(message, badInput: badInput)) }

    /// Ends the command: after a signal the partial results stay (exit 128 + n); otherwise they
    /// take the folder's name (exit 1 if they cannot).
    func finish() throws {
        do { try staged.finish() } catch { throw fail(error) }
    }
}
