import ArgumentParser
import Foundation
import Parallax
import ParallaxFiles

/// A command's `--out` folder (an ``OutputFolder``) with the CLI's exit statuses: a folder that
/// cannot be used is bad input (exit 2); a command that fails after writing began keeps its
/// partial results and exits 1; an interrupted one keeps them and exits 128 + n; a finished one
/// moves them into place.
struct CommandOutput {
    let folder: OutputFolder
    /// Where the command writes (the staging folder).
    var url: URL { folder.staging }

    /// Opens `path` for `command`, or fails with exit 2 naming why (`inputs`: the files and
    /// folders the command reads, which the folder may not hold).
    init(_ path: String, command: String, inputs: [String] = []) throws {
        do { folder = try OutputFolder(path: path, command: command, inputs: inputs) } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
    }

    /// Exit 1 for a failure after writing began (exit 2 when `badInput`: an analyzer found its
    /// option or data unusable once frames came), saying where its partial results are.
    func failed(_ message: String, badInput: Bool = false) -> ExitCode {
        fail("\(message); what was written is in '\(folder.staging.path)'", code: badInput ? ExitCodes.badInput : ExitCodes.runFailed)
    }

    /// Ends the command: after a signal the partial results stay where they are (exit 128 + n);
    /// otherwise they take the folder's name (exit 1 if they cannot).
    func finish() throws {
        if Interruption.requested { throw Interruption.stop(partialResultsIn: folder.staging) }
        do { try folder.commit() } catch { throw fail("\(error)", code: ExitCodes.runFailed) }
    }
}

/// A result file that could not be written (disk full, read-only or vanished folder): names
/// the file and the system's reason.
struct OutputError: Error, CustomStringConvertible {
    let path: String
    let error: any Error
    var description: String { "cannot write '\(path)': \(OutputFolder.reason(error))" }
}
