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

    /// Most values a document may expand to, aliases counted at every use: a few hundred bytes
    /// of nested aliases ("billion laughs") would otherwise expand to billions of values in
    /// whatever walks them (flow text, Yams' own `load`).
    public static let maxExpandedValues = 1_000_000

    /// The root node of `text` (nil for an empty document).
    public static func compose(_ text: String) throws(Problem) -> Node? {
        let root = try parse(text)
        if let root {
            var budget = maxExpandedValues
            guard withinBudget(root, &budget) else {
                throw Problem(message: "the document expands to more than \(maxExpandedValues) values (nested aliases?)", line: nil, column: nil)
            }
        }
        return root
    }

    /// Whether `node`, its aliases expanded, has at most `budget` values (spent as counted).
    static func withinBudget(_ node: Node, _ budget: inout Int) -> Bool {
        budget -= 1
        if budget < 0 { return false }
        if let sequence = node.sequence { return sequence.allSatisfy { withinBudget($0, &budget) } }
        if let mapping = node.mapping { return mapping.allSatisfy { withinBudget($0.key, &budget) && withinBudget($0.value, &budget) } }
        return true
    }

    static func parse(_ text: String) throws(Problem) -> Node? {
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
