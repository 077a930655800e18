import ArgumentParser
import Foundation
import Testing
import Parallax
@testable import ParallaxCLI
@testable import ParallaxApp

/// Every `parallax …` command the README and `docs/*.md` show in their shell blocks still
/// parses: the subcommand and every option exist and take the values written, and each chain
/// (a pipeline, or a chain file of the repository) names analyzers and options that exist, with
/// values in range. Commands are not run (they name the reader's datasets and take minutes);
/// what they do is tested elsewhere.
@Suite struct DocumentedCommandsTests {
    /// One documented command: where it is written and its arguments after `parallax`.
    struct Command: CustomStringConvertible {
        var file: String
        var line: Int
        var arguments: [String]
        var description: String { "\(file):\(line): parallax \(arguments.joined(separator: " "))" }
    }

    /// The pages read: the README and every page of docs/.
    static var pages: [URL] {
        let docs = Paths.root.appendingPathComponent("docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return [Paths.root.appendingPathComponent("README.md")]
            + names.filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    /// The `parallax` commands of the shell blocks of `page` (`sh` fences), one per command:
    /// lines split at `;` and `&&`, comments dropped, words split as the shell does with quotes.
    static func commands(in page: URL) throws -> [Command] {
        let text = try String(contentsOf: page, encoding: .utf8)
        var inShell = false, out: [Command] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") { inShell = !inShell && line.hasPrefix("```sh"); continue }
            guard inShell else { continue }
            for command in shellCommands(String(line)) {
                // Environment assignments before the command (`PARALLAX=… scripts/slurm/bench`).
                let words = command.drop { $0.range(of: #"^[A-Za-z_][A-Za-z0-9_]*="#, options: .regularExpression) != nil }
                guard let first = words.first, first == "parallax" || first.hasSuffix("/parallax") else { continue }
                out.append(Command(file: page.lastPathComponent, line: k + 1, arguments: Array(words.dropFirst())))
            }
        }
        return out
    }

    /// The commands of one shell line, each as its words: quotes (`'…'`, `"…"`) group, an
    /// unquoted `#` after a space starts a comment, unquoted `;`, `&&`, `|` and `>` end a command.
    static func shellCommands(_ line: String) -> [[String]] {
        var commands: [[String]] = [], words: [String] = [], word = "", inWord = false
        var quote: Character?
        var previous: Character = " "
        func endWord() { if inWord { words.append(word) }; word = ""; inWord = false }
        func endCommand() { endWord(); if !words.isEmpty { commands.append(words) }; words = [] }
        for c in line {
            defer { previous = c }
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
                continue
            }
            switch c {
            case "'", "\"": quote = c; inWord = true
            case " ", "\t": endWord()
            case "#" where previous == " " || previous == "\t": endCommand(); return commands
            case ";", "|", ">": endCommand()
            case "&": if previous == "&" { endCommand() } else { endWord() }
            default: word.append(c); inWord = true
            }
        }
        endCommand()
        return commands
    }

    /// The chain a command names, when it can be checked here: a pipeline, or a chain file of the
    /// repository (`chains/vio-mono.yaml`); nil for a reader's own file (`SUITE`, `my.yaml`).
    static func chain(of arguments: [String]) -> String? {
        if arguments.first == "run", arguments.count > 1 {
            let spec = arguments[1]
            if spec.hasSuffix(".yaml") || spec.hasSuffix(".yml") {
                let path = Paths.root.appendingPathComponent(spec).path
                return FileManager.default.fileExists(atPath: path) ? path : nil
            }
            return spec
        }
        if let i = arguments.firstIndex(of: "--chain"), i + 1 < arguments.count { return arguments[i + 1] }
        return nil
    }

    @Test func everyDocumentedCommandParses() throws {
        let commands = try Self.pages.flatMap { try Self.commands(in: $0) }
        // The README's tour alone shows more than twenty: finding few means the reading broke.
        #expect(commands.count > 40, "\(commands.count) commands found")
        for command in commands {
            do {
                _ = try ParallaxCommand.parseAsRoot(command.arguments)
            } catch {
                Issue.record("\(command): \(ParallaxCommand.message(for: error))")
            }
            guard let spec = Self.chain(of: command.arguments) else { continue }
            do {
                let chain = try Chain.load(spec)
                for node in chain.nodes {
                    _ = try BuiltinAnalyzers.registry.make(node.analyzer, options: node.options, instanceName: node.instanceName,
                                                         remap: node.remap, location: node.location)
                }
            } catch where "\(error)".contains("cannot read image file") {
                // A picture of the reader's (`reference=[poster.jpg]`): the analyzer and its
                // options exist, the file is theirs to give.
            } catch {
                Issue.record("\(command): its chain does not load: \(error)")
            }
        }
    }

    @Test func shellLinesSplitAsTheShellDoes() {
        #expect(Self.shellCommands(#"parallax run 'klt ! vio' D --out o   # a comment"#) == [["parallax", "run", "klt ! vio", "D", "--out", "o"]])
        #expect(Self.shellCommands("parallax a; parallax b && parallax c | head > f") == [["parallax", "a"], ["parallax", "b"], ["parallax", "c"], ["head"], ["f"]])
        #expect(Self.shellCommands(#"parallax run "a # b" x#y"#) == [["parallax", "run", "a # b", "x#y"]])
        #expect(Self.shellCommands("PARALLAX=/x/parallax scripts/slurm/bench s") == [["PARALLAX=/x/parallax", "scripts/slurm/bench", "s"]])
    }
}
