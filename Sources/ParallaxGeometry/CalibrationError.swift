import ParallaxFiles

/// Why a calibration file could not be loaded. Every case names the file, and the line
/// where one is known (1-based), so a user can fix the file at once.
public enum CalibrationError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// A key holds a value of the wrong kind or out of range.
    case invalidValue(path: String, key: String, line: Int?, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "\(path): cannot read calibration file (\(reason))"
        case let .invalidValue(path, key, line, reason):
            return "\(path)\(line.map { ":\($0)" } ?? ""): invalid '\(key)': \(reason)"
        }
    }
}
