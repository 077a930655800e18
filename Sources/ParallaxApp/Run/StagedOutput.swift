import Foundation
import ParallaxFiles

/// A task's `--out` folder (an ``OutputFolder``) with the application's failures: a folder that
/// cannot be used is bad input; a task that fails after writing began keeps its partial results
/// (``failed(_:badInput:)``); an interrupted one keeps them (``finish()`` throws the signal); a
/// finished one moves them into place.
public struct StagedOutput: Sendable {
    public let folder: OutputFolder
    /// Where the task writes (the staging folder).
    public var url: URL { folder.staging }

    /// Opens `path` for `command`, or fails naming why: as bad input when the name cannot be used
    /// (`inputs`: the files and folders the task reads, which the folder may not hold), as a
    /// failure when the file system refuses (read-only, full).
    public init(_ path: String, command: String, inputs: [String] = []) throws(AppFailure) {
        do { folder = try OutputFolder(path: path, command: command, inputs: inputs) } catch let error as OutputFolder.UnwritableError {
            throw AppFailure("\(error)", status: .failed)
        } catch {
            throw AppFailure.badInput(error)
        }
    }

    /// The failure of a task that stopped after writing began (bad input when `badInput`: an
    /// analyzer found its option or data unusable once frames came), saying where its partial
    /// results are.
    public func failed(_ message: String, badInput: Bool = false) -> AppFailure {
        AppFailure("\(message); what was written is in '\(folder.staging.path)'", status: badInput ? .badInput : .failed)
    }

    /// Ends the task: after a signal the partial results stay where they are; otherwise they
    /// take the folder's name (a failure if they cannot).
    public func finish() throws(AppFailure) {
        if Interruption.requested {
            folder.keepUnfinished()
            throw Interruption.stop(partialResultsIn: folder.staging)
        }
        do { try folder.commit() } catch { throw AppFailure("\(error)", status: .failed) }
    }
}

/// A result file that could not be written (disk full, read-only or vanished folder): names
/// the file and the system's reason.
public struct OutputError: Error, CustomStringConvertible {
    public let path: String
    public let error: any Error
    public init(path: String, error: any Error) { self.path = path; self.error = error }
    public var description: String { "cannot write '\(path)': \(OutputFolder.reason(error))" }
}
