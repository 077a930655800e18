import Foundation
import ParallaxFiles

/// A calibration file given for one stream of a dataset (`--calibration STREAM=FILE`, a bench
/// case's `calibration: {STREAM: FILE}`): it replaces or supplies the stream's metadata before
/// any analyzer sees it (``CalibratedDatasetSource``).
///
/// `FILE#ENTRY` names one entry of a file that holds several (`cam0=camchain.yaml#cam1`, a
/// Parallax folder's stream `cam0=rig/parallax.yaml#left`); without it the entry named like the
/// stream (or recorded from the stream's topic) is read. The file kinds are those
/// ``StreamCalibrationFile`` reads.
public struct CalibrationOverride: Sendable, Equatable {
    /// The dataset's stream (`cam0`, `imu0`).
    public var stream: String
    /// The calibration file.
    public var file: String
    /// The entry of `file` to read (`cam1`), when named.
    public var entry: String?
    /// How it was given, for messages: `--calibration cam0=camchain.yaml#cam1`, or a suite's
    /// `bench/x.yaml:12: calibration cam0`.
    public var given: String

    /// An override of `stream` by `file` (its `entry`), `given` as messages should name it
    /// (default: the command-line form).
    public init(stream: String, file: String, entry: String? = nil, given: String? = nil) {
        self.stream = stream
        self.file = file
        self.entry = entry
        self.given = given ?? "--calibration \(stream)=\(file)\(entry.map { "#\($0)" } ?? "")"
    }

    /// `STREAM=FILE` or `STREAM=FILE#ENTRY` as written after `--calibration`; an error saying the
    /// form otherwise.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !parts[0].contains(" ") else {
            throw CalibrationOverrideError(given: "--calibration \(text)", reason: "expected STREAM=FILE (e.g. cam0=mav0/cam0/sensor.yaml, cam0=camchain.yaml#cam1)")
        }
        let value = String(parts[1])
        if value.hasSuffix("#"), !FileManager.default.fileExists(atPath: value) {
            throw CalibrationOverrideError(given: "--calibration \(text)", reason: "'#' names no entry: give one (FILE#cam1) or leave the '#' out")
        }
        let (file, entry) = Self.splitEntry(value)
        self.init(stream: String(parts[0]), file: file, entry: entry, given: "--calibration \(text)")
    }

    /// `FILE#ENTRY` split at its last `#`; a file that exists under the whole name (a `#` in
    /// its name) is taken whole.
    public static func splitEntry(_ text: String) -> (file: String, entry: String?) {
        guard let hash = text.lastIndex(of: "#"), !FileManager.default.fileExists(atPath: text) else { return (text, nil) }
        let entry = String(text[text.index(after: hash)...])
        return (String(text[..<hash]), entry.isEmpty ? nil : entry)
    }

    /// Refuses a list that names one stream twice (which file would win cannot be guessed).
    public static func checkDistinct(_ overrides: [CalibrationOverride]) throws {
        var seen: [String: CalibrationOverride] = [:]
        for o in overrides {
            if let first = seen[o.stream] {
                throw CalibrationOverrideError(given: o.given, reason: "stream '\(o.stream)' is already calibrated by \(first.given): give one file per stream")
            }
            seen[o.stream] = o
        }
    }
}

/// Why a calibration override cannot be used: the override as given, and the reason (which names
/// the file, entry or stream at fault).
public struct CalibrationOverrideError: Error, BadInput, CustomStringConvertible, Equatable, Sendable {
    /// The override as given (``CalibrationOverride/given``).
    public var given: String
    public var reason: String

    public init(given: String, reason: String) {
        self.given = given
        self.reason = reason
    }

    public var description: String { "\(given): \(reason)" }
}
