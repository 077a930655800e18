import Yams

/// YAML text composed into nodes, with one reading of Yams' errors for every YAML file Parallax
/// reads (calibration, chains, dataset descriptions, bench suites): a problem and where it is.
public enum YAMLText {
    /// Why YAML text could not be composed: Yams' problem and its place (1-based), when known.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let message: String
        public let line: Int?
        public let column: Int?
        public var description: String { message }
    }

    /// The root node of `text` (nil for an empty document).
    public static func compose(_ text: String) throws(Problem) -> Node? {
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            switch error {
            case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
                throw Problem(message: problem, line: mark.line, column: mark.column)
            case let .duplicatedKeysInMapping(duplicates, context):
                throw Problem(message: "a key appears twice in one mapping: \(duplicates.map { "'\($0)'" }.joined(separator: ", "))",
                              line: context.mark.line, column: context.mark.column)
            default:
                throw Problem(message: "\(error)", line: nil, column: nil)
            }
        } catch {
            throw Problem(message: "\(error)", line: nil, column: nil)
        }
    }
}
