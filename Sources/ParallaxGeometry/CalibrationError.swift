/// Why a calibration file could not be loaded. Every case names the file, and the line
/// where one is known (1-based), so a user can fix the file at once.
public enum CalibrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The YAML itself is malformed.
    case syntax(path: String, line: Int?, message: String)
    /// A required key is absent. `line` is the line of the enclosing mapping.
    case missingKey(path: String, key: String, line: Int?)
    /// A key holds a value of the wrong kind or out of range.
    case invalidValue(path: String, key: String, line: Int?, reason: String)
    /// `sensor_type` names another kind of sensor than the loader expects.
    case wrongSensorType(path: String, expected: String, found: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason):
            return "\(path): cannot read calibration file (\(reason))"
        case let .syntax(path, line, message):
            return "\(path)\(line.map { ":\($0)" } ?? ""): malformed YAML: \(message)"
        case let .missingKey(path, key, line):
            return "\(path)\(line.map { ":\($0)" } ?? ""): missing key '\(key)'"
        case let .invalidValue(path, key, line, reason):
            return "\(path)\(line.map { ":\($0)" } ?? ""): invalid '\(key)': \(reason)"
        case let .wrongSensorType(path, expected, found):
            return "\(path): sensor_type is '\(found)', expected '\(expected)'"
        }
    }
}
