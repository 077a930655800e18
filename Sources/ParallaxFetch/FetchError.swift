import Foundation

/// Why fetching a public dataset failed. ``isBadInput`` tells the CLI's exit status apart: a name
/// or option the user gave wrong (2) against a transfer or archive that failed (1).
public enum FetchError: Error, CustomStringConvertible, Equatable {
    /// No dataset of this name in the catalog.
    case unknownDataset(name: String, known: [String])
    /// The dataset has no sequence of this name.
    case unknownSequence(dataset: String, sequence: String, known: [String])
    /// The dataset has several sequences and none was named.
    case sequenceNeeded(dataset: String, known: [String])
    /// The catalog file is not valid: `file`, and what is wrong.
    case badCatalog(file: String, reason: String)
    /// The server answered with an HTTP error status.
    case httpStatus(url: String, status: Int)
    /// The transfer failed (connection refused, cut, timed out) after `received` bytes of the
    /// archive were on disk; they are kept for the next try to resume.
    case transferFailed(url: String, reason: String, received: Int64)
    /// The archive's size differs from the catalog's; the file was removed.
    case wrongSize(file: String, expected: Int64, actual: Int64)
    /// The server announced or sent more than the catalog's size: the transfer was stopped then,
    /// after `received` bytes, and the file removed.
    case oversized(url: String, expected: Int64, received: Int64)
    /// Unpacking passed its limit (`limit` bytes in all; an entry larger than it declared):
    /// stopped, nothing kept.
    case unpackLimit(file: String, limit: Int64, reason: String)
    /// The archive's SHA-256 differs from the catalog's; the file was removed.
    case wrongChecksum(file: String, expected: String, actual: String)
    /// The archive could not be unpacked (corrupt, unsupported, or an entry escaping the folder).
    case badArchive(file: String, reason: String)
    /// The unpacked folder is not in the layout the catalog promises.
    case unexpectedLayout(folder: String, expected: String)
    /// The destination exists already and is not a finished fetch of the same archive.
    case destinationExists(path: String)
    /// A file-system operation failed.
    case io(path: String, reason: String)

    public var isBadInput: Bool {
        switch self {
        case .unknownDataset, .unknownSequence, .sequenceNeeded, .badCatalog, .destinationExists: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case let .unknownDataset(name, known):
            return "no public dataset named '\(name)' (known: \(known.joined(separator: ", ")); `parallax datasets` lists them)"
        case let .unknownSequence(dataset, sequence, known):
            return "\(dataset) has no sequence '\(sequence)' (it has: \(known.joined(separator: ", ")))"
        case let .sequenceNeeded(dataset, known):
            return "\(dataset) has several sequences: name one (\(known.joined(separator: ", ")))"
        case let .badCatalog(file, reason):
            return "\(file): \(reason)"
        case let .httpStatus(url, status):
            return "\(url): the server answered HTTP \(status)"
        case let .transferFailed(url, reason, received) where received == 0:
            return "\(url): \(reason)"
        case let .transferFailed(url, reason, received):
            return "\(url): \(reason) after \(received) bytes; they are kept, run the same command again to resume"
        case let .wrongSize(file, expected, actual):
            return "\(file): \(actual) bytes, the catalog says \(expected); the file was removed"
        case let .oversized(url, expected, received):
            return "\(url): the server sent or announced more than the catalog's \(expected) bytes (stopped after \(received)); the file was removed"
        case let .unpackLimit(file, limit, reason):
            return "\(file): unpacking stopped at its limit of \(limit) bytes: \(reason); nothing was kept"
        case let .wrongChecksum(file, expected, actual):
            return "\(file): SHA-256 \(actual), the catalog says \(expected); the file was removed"
        case let .badArchive(file, reason):
            return "\(file): cannot unpack: \(reason)"
        case let .unexpectedLayout(folder, expected):
            return "\(folder): unpacked, but it is not \(expected); nothing was kept"
        case let .destinationExists(path):
            return "\(path) exists and was not fetched from this archive: remove it or choose another --to"
        case let .io(path, reason):
            return "\(path): \(reason)"
        }
    }
}
