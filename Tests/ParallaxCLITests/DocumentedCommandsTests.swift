import ArgumentParser
import Foundation
import Testing
import Parallax
@testable import ParallaxCLI
@testable import ParallaxApp

/// Every `parallax …` command the documentation shows still parses, and every option it names
/// exists. Read are the Markdown pages (the README, `docs/*.md`, the READMEs of `datasets/`,
/// `Benchmarks/` and `Examples/`) and the comments of the chain and suite files (`chains/*.yaml`,
/// `bench/*.yaml`):
///
/// - **commands**, whole lines — a shell block's lines (`sh`, `bash`, `shell`, `console`, or an
///   unmarked block's lines that run `parallax SUBCOMMAND`), a comment line set out as a command
///   (`#   parallax run chains/vio-mono.yaml DATASET --out out/vio`): parsed by the real parser
///   (the subcommand and every option exist and take the values written), and each chain (a
///   pipeline, or a chain file of the repository, with the command's `--set`s) names analyzers
///   and options that exist, with values in range;
/// - **mentions** in prose — a code span `` `parallax run … --save-map FILE` `` or, in a YAML
///   comment, plain text (`One machine: parallax bench bench/euroc.yaml --out out/euroc`): they
///   hold placeholders (`…`) and are not whole, so their subcommand and each option are looked up
///   in the command tree (ArgumentParser's own description of it).
///
/// Everywhere an option must be one the help shows: a hidden alias kept for old scripts
/// (`results --db`) is not documented. Commands are not run (they name the reader's datasets and
/// take minutes); what they do is tested elsewhere.
@Suite struct DocumentedCommandsTests {
    /// One documented command: where it is written, its arguments after `parallax`, and whether
    /// it is a whole command line (parsed) or a mention in prose (its options looked up).
    struct Command: CustomStringConvertible {
        var file: String
        var line: Int
        var arguments: [String]
        var whole = true
        var description: String { "\(file):\(line): parallax \(arguments.joined(separator: " "))" }
    }

    /// The Markdown pages read: the README, every page of docs/, and the other READMEs.
    static var pages: [URL] {
        let root = Paths.root
        var pages = [root.appendingPathComponent("README.md")] + files(in: "docs", ending: ".md")
        for folder in ["datasets", "Benchmarks", "Examples"] {
            let top = root.appendingPathComponent(folder)
            let subfolders = ((try? FileManager.default.contentsOfDirectory(atPath: top.path)) ?? []).sorted()
            for candidate in [top] + subfolders.map({ top.appendingPathComponent($0) }) {
                let readme = candidate.appendingPathComponent("README.md")
                if FileManager.default.fileExists(atPath: readme.path) { pages.append(readme) }
            }
        }
        return pages
    }

    /// The chain and suite files, whose comments are read.
    static var yamlFiles: [URL] { files(in: "chains", ending: ".yaml") + files(in: "bench", ending: ".yaml") }

    static func files(in folder: String, ending: String) -> [URL] {
        let url = Paths.root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(ending) }.sorted().map { url.appendingPathComponent($0) }
    }

    /// Shell blocks whose every line is a shell line.
    static let shellFences: Set<String> = ["sh", "bash", "shell", "console"]

    /// The commands of a Markdown page: the `parallax` commands of its shell blocks (lines split
    /// at `;` and `&&`, comments dropped, words split as the shell does with quotes), those of
    /// unmarked blocks that run a subcommand, and the code spans of its prose that start with
    /// `parallax ` (as mentions).
    static func commands(in page: URL) throws -> [Command] {
        let text = try String(contentsOf: page, encoding: .utf8)
        var fence: String?, out: [Command] = []
        var prose: [(line: Int, text: String)] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                fence = fence == nil ? String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces) : nil
                continue
            }
            guard let language = fence else { prose.append((k + 1, String(line))); continue }
            guard shellFences.contains(language) || language.isEmpty else { continue }
            for command in expandingLoops(shellCommands(String(line))) {
                guard let arguments = parallaxArguments(command) else { continue }
                // An unmarked block holds trees and listings too: only a line that runs a subcommand is a command.
                if language.isEmpty, !(arguments.first.map(CommandTree.root.isSubcommand) ?? false) { continue }
                out.append(Command(file: relative(page), line: k + 1, arguments: arguments))
            }
        }
        out += mentions(inCodeSpansOf: prose, file: relative(page))
        return out
    }

    /// The commands of a YAML file's comments: a comment line set out as a shell line (`#` and
    /// at least two spaces, as `#   parallax run …`) is a whole command line; code spans and plain
    /// `parallax SUBCOMMAND …` in the other comment text are mentions.
    static func commands(inCommentsOf file: URL) throws -> [Command] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var out: [Command] = []
        var prose: [(line: Int, text: String)] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // A comment starts a line or follows a blank (a `#` inside a value, as a URL's, does not).
            guard let hash = line.firstIndex(of: "#"), line[..<hash].allSatisfy(\.isWhitespace) || line[..<hash].hasSuffix(" ") else { continue }
            let comment = String(line[line.index(after: hash)...])
            if comment.hasPrefix("  "), line[..<hash].allSatisfy(\.isWhitespace) {
                let commands = expandingLoops(shellCommands(comment)).compactMap(parallaxArguments)
                if !commands.isEmpty {
                    out += commands.map { Command(file: relative(file), line: k + 1, arguments: $0) }
                    continue
                }
            }
            prose.append((k + 1, comment.trimmingCharacters(in: .whitespaces)))
        }
        out += mentions(inCodeSpansOf: prose, file: relative(file))
        // Plain mentions outside code spans: `parallax SUBCOMMAND` and what follows up to a
        // bracket or the end of the line.
        for (line, text) in prose {
            let plain = text.replacingOccurrences(of: #"`[^`]*`"#, with: " ", options: .regularExpression)
            for match in plain.matches(of: #/(?:^|[\s(:])parallax ([^()`]*)/#) {
                let words = match.output.1.split(separator: " ").map(String.init)
                guard let first = words.first, CommandTree.root.isSubcommand(first) else { continue }
                out.append(Command(file: relative(file), line: line, arguments: words, whole: false))
            }
        }
        return out
    }

    /// The code spans starting with `parallax ` in `prose` (lines in order, a span may run over
    /// several), as mentions.
    static func mentions(inCodeSpansOf prose: [(line: Int, text: String)], file: String) -> [Command] {
        var out: [Command] = []
        // Consecutive lines joined (a span may break across them); a blank line ends a paragraph.
        var paragraph: [(line: Int, text: String)] = []
        func flush() {
            defer { paragraph = [] }
            guard let first = paragraph.first else { return }
            let text = paragraph.map(\.text).joined(separator: "\n")
            for match in text.matches(of: #/`(parallax [^`]+)`/#) {
                let before = text[..<match.range.lowerBound].filter { $0 == "\n" }.count
                let span = match.output.1.replacingOccurrences(of: "\n", with: " ")
                guard let words = shellCommands(String(span)).first, let arguments = parallaxArguments(words) else { continue }
                out.append(Command(file: file, line: first.line + before, arguments: arguments, whole: false))
            }
        }
        for entry in prose {
            // Lines apart (a command line or YAML between them) are apart.
            if let last = paragraph.last, last.line + 1 != entry.line { flush() }
            if entry.text.trimmingCharacters(in: .whitespaces).isEmpty { flush() } else { paragraph.append(entry) }
        }
        flush()
        return out
    }

    /// The commands of a shell line with a `for VAR in A B C; do …; done` loop run for each
    /// value (`$VAR` and `${VAR}` replaced): the loop's own words dropped. Other lines as they are.
    static func expandingLoops(_ commands: [[String]]) -> [[String]] {
        guard let head = commands.first, head.count > 3, head[0] == "for", head[2] == "in" else { return commands }
        let variable = head[1], values = head.dropFirst(3)
        let body = commands.dropFirst().filter { $0 != ["done"] }
        return values.flatMap { value in
            body.map { words in
                words.map { $0.replacingOccurrences(of: "${\(variable)}", with: value).replacingOccurrences(of: "$\(variable)", with: value) }
            }
        }
    }

    /// The arguments after `parallax` of one shell command, past environment assignments
    /// (`PARALLAX=… scripts/slurm/bench`), `do`/`then`, `time` (and `/usr/bin/time -v`) and
    /// `swift run`; nil when it does not run `parallax` (or a path ending in `/parallax`).
    static func parallaxArguments(_ command: [String]) -> [String]? {
        var words = ArraySlice(command)
        words = words.drop { $0.range(of: #"^[A-Za-z_][A-Za-z0-9_]*="#, options: .regularExpression) != nil }
        while let first = words.first, ["do", "then", "else", "time", "/usr/bin/time"].contains(first) {
            words = words.dropFirst()
            if first.hasSuffix("time") { words = words.drop { $0.hasPrefix("-") } }
        }
        if words.starts(with: ["swift", "run", "parallax"]) { words = words.dropFirst(2) }
        guard let first = words.first, first == "parallax" || first.hasSuffix("/parallax") else { return nil }
        return Array(words.dropFirst())
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
        if let i = arguments.firstIndex(of: "--chain"), i + 1 < arguments.count {
            let spec = arguments[i + 1]
            if spec.hasSuffix(".yaml") || spec.hasSuffix(".yml") {
                let path = Paths.root.appendingPathComponent(spec).path
                return FileManager.default.fileExists(atPath: path) ? path : nil
            }
            return spec
        }
        return nil
    }

    /// The `--set`s of a command.
    static func overrides(of arguments: [String]) throws -> [OptionOverride] {
        try zip(arguments, arguments.dropFirst()).filter { $0.0 == "--set" }.map { try OptionOverride(parsing: $0.1) }
    }

    /// A file's path from the repository's root, for messages.
    static func relative(_ url: URL) -> String {
        let root = Paths.root.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// Every command of every page and of the chain and suite files' comments.
    static func allCommands() throws -> [Command] {
        try pages.flatMap { try commands(in: $0) } + yamlFiles.flatMap { try commands(inCommentsOf: $0) }
    }

    @Test func everyDocumentedCommandParses() throws {
        let commands = try Self.allCommands().filter(\.whole)
        // The README's tour alone shows more than twenty, the chains and suites a dozen: finding
        // few means the reading broke.
        #expect(commands.count > 60, "\(commands.count) commands found")
        #expect(commands.filter { $0.file.hasPrefix("chains/") }.count >= 8 && commands.filter { $0.file.hasPrefix("bench/") }.count >= 8)
        // `python:FILE.py` analyzers are described by a worker: the repository's package on its path.
        let package = Paths.root.appendingPathComponent("python").path
        let path = ProcessInfo.processInfo.environment["PYTHONPATH"] ?? ""
        if !path.split(separator: ":").contains(Substring(package)) { setenv("PYTHONPATH", path.isEmpty ? package : package + ":" + path, 1) }
        for command in commands {
            do {
                _ = try ParallaxCommand.parseAsRoot(command.arguments)
            } catch {
                Issue.record("\(command): \(ParallaxCommand.message(for: error))")
            }
            guard let spec = Self.chain(of: command.arguments) else { continue }
            do {
                let chain = try Chain.load(spec).applying(try Self.overrides(of: command.arguments), registry: BuiltinAnalyzers.registry)
                for node in chain.nodes {
                    _ = try BuiltinAnalyzers.registry.make(node.analyzer, options: node.options, instanceName: node.instanceName,
                                                         remap: node.remap, location: node.location)
                }
            } catch where "\(error)".contains("cannot read image file") {
                // A picture of the reader's (`reference=[poster.jpg]`): the analyzer and its
                // options exist, the file is theirs to give.
            } catch where "\(error)".contains("the Python worker (") && "\(error)".contains("before it started") {
                // No python3 with numpy on this machine: a python:FILE.py's options cannot be
                // asked (PythonAnalyzerTests say so too); CI has them.
            } catch {
                Issue.record("\(command): its chain does not load: \(error)")
            }
        }
    }

    @Test func everyOptionTheDocumentationNamesExists() throws {
        let commands = try Self.allCommands()
        #expect(commands.filter { !$0.whole }.count > 40, "\(commands.filter { !$0.whole }.count) mentions found")
        for command in commands {
            for problem in CommandTree.root.problems(with: command.arguments) {
                Issue.record("\(command): \(problem)")
            }
        }
    }

    /// The commands' own help (abstracts, discussions, each option's help) names only options
    /// that exist: a renamed option leaves no stale mention behind.
    @Test func everyOptionTheHelpNamesExists() {
        let known = CommandTree.root.allOptions
        func visit(_ type: any ParsableCommand.Type, path: String) {
            let help = ParallaxCommand.helpMessage(for: type, columns: 10_000)
            for match in help.matches(of: #/(?:^|[^\w-])(--[a-z][a-z0-9-]*)/#) where !known.contains(String(match.output.1)) {
                Issue.record("`\(path) --help` names \(match.output.1), which no command has")
            }
            for sub in type.configuration.subcommands { visit(sub, path: path + " " + (sub.configuration.commandName ?? "")) }
        }
        visit(ParallaxCommand.self, path: "parallax")
    }

    /// What the reading finds, on made-up text: a code span across comment lines, a command
    /// line, a plain mention; and what the lookup refuses.
    @Test func theReadingFindsCommandsAndTheLookupRefusesWhatDoesNotExist() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-docs-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = folder.appendingPathComponent("c.yaml")
        try """
        # A chain. Run it:
        #   parallax run c.yaml DATASET --out out/c --set klt.max_features=300
        # as `parallax simulate --scene object
        # --textures A.png` writes it; one machine: parallax bench s.yaml --out o (or not)
        name: c   # parallax in a value's comment
        analyzers:
          - analyzer: klt
        """.write(to: yaml, atomically: true, encoding: .utf8)
        let found = try Self.commands(inCommentsOf: yaml)
        #expect(found.map(\.arguments) == [["run", "c.yaml", "DATASET", "--out", "out/c", "--set", "klt.max_features=300"],
                                           ["simulate", "--scene", "object", "--textures", "A.png"],
                                           ["bench", "s.yaml", "--out", "o"]])
        #expect(found.map(\.whole) == [true, false, false] && found.map(\.line) == [2, 3, 4], "\(found)")

        let page = folder.appendingPathComponent("p.md")
        try """
        Run `parallax run … --save-map FILE`.

        ```
        parallax (executable)
        /usr/bin/time -v .build/release/parallax inspect D
        ```
        ```swift
        parallax run x
        ```
        """.write(to: page, atomically: true, encoding: .utf8)
        #expect(try Self.commands(in: page).map(\.arguments) == [["inspect", "D"], ["run", "…", "--save-map", "FILE"]])

        let tree = CommandTree.root
        #expect(tree.problems(with: ["run", "…", "--save-map", "FILE", "--set", "a.b=c"]).isEmpty)
        #expect(tree.problems(with: ["run", "x", "--no-such-flag"]) == ["run has no option --no-such-flag"])
        #expect(tree.problems(with: ["bench", "--chain", "c", "--dataset", "d"]).isEmpty)       // bench's default subcommand, run
        #expect(tree.problems(with: ["bench", "merge", "a", "--check"]).isEmpty)
        #expect(tree.problems(with: ["results", "list", "--db", "x"]) == ["results list has no option --db (a hidden alias: document the name the help shows)"])
        #expect(tree.problems(with: ["results", "list", "--results-db", "x"]).isEmpty)
        #expect(tree.problems(with: ["simulat", "--out", "o"]) == ["no subcommand 'simulat'"])
    }

    @Test func shellLinesSplitAsTheShellDoes() {
        #expect(Self.shellCommands(#"parallax run 'klt ! vio' D --out o   # a comment"#) == [["parallax", "run", "klt ! vio", "D", "--out", "o"]])
        #expect(Self.shellCommands("parallax a; parallax b && parallax c | head > f") == [["parallax", "a"], ["parallax", "b"], ["parallax", "c"], ["head"], ["f"]])
        #expect(Self.shellCommands(#"parallax run "a # b" x#y"#) == [["parallax", "run", "a # b", "x#y"]])
        #expect(Self.shellCommands("PARALLAX=/x/parallax scripts/slurm/bench s") == [["PARALLAX=/x/parallax", "scripts/slurm/bench", "s"]])
        #expect(Self.parallaxArguments(["do", "parallax", "fetch", "euroc", "$s"]) == ["fetch", "euroc", "$s"])
        #expect(Self.expandingLoops(Self.shellCommands("for m in fast exit; do parallax simulate --motion $m --out o/${m}; done"))
                    == [["do", "parallax", "simulate", "--motion", "fast", "--out", "o/fast"], ["do", "parallax", "simulate", "--motion", "exit", "--out", "o/exit"]])
        #expect(Self.parallaxArguments(["swift", "run", "parallax", "run", "c.yaml"]) == ["run", "c.yaml"])
        #expect(Self.parallaxArguments(["swift", "run", "--package-path", "E", "my-parallax", "run"]) == nil)
    }
}

/// The `parallax` command tree as ArgumentParser describes it (`_dumpHelp()`): each command's
/// subcommands, default subcommand and options, hidden ones apart.
struct CommandTree {
    var name: String
    var subcommands: [CommandTree]
    var defaultSubcommand: String?
    /// `--long`, `-s` names of the options and flags the help shows.
    var options: Set<String>
    /// Names of options kept out of the help (aliases for old scripts).
    var hidden: Set<String>

    static let root: CommandTree = {
        let json = ParallaxCommand._dumpHelp()
        let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        return CommandTree(object?["command"] as? [String: Any] ?? [:])
    }()

    init(_ info: [String: Any]) {
        name = info["commandName"] as? String ?? ""
        subcommands = (info["subcommands"] as? [[String: Any]] ?? []).map(CommandTree.init)
        defaultSubcommand = info["defaultSubcommand"] as? String
        var shown: Set<String> = ["--help", "-h"], hidden: Set<String> = []
        for argument in info["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String != "positional" {
            let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { n -> String? in
                guard let name = n["name"] as? String else { return nil }
                return (n["kind"] as? String == "long" ? "--" : "-") + name
            }
            if argument["shouldDisplay"] as? Bool ?? true { shown.formUnion(names) } else { hidden.formUnion(names) }
        }
        options = shown
        self.hidden = hidden
    }

    func isSubcommand(_ word: String) -> Bool { subcommands.contains { $0.name == word } }

    /// The options of this command and of every command below it, as the help shows them.
    var allOptions: Set<String> { subcommands.reduce(options) { $0.union($1.allOptions) } }

    /// What in `arguments` (after `parallax`) does not exist: an unknown subcommand, an option
    /// the command does not have (or has only hidden). Values and positionals are not judged.
    func problems(with arguments: [String]) -> [String] {
        var command = self, path: [String] = []
        var rest = ArraySlice(arguments)
        while let word = rest.first, !word.hasPrefix("-") {
            if let sub = command.subcommands.first(where: { $0.name == word }) {
                command = sub
                path.append(word)
                rest = rest.dropFirst()
            } else if command.subcommands.isEmpty {
                break
            } else if let name = command.defaultSubcommand, let sub = command.subcommands.first(where: { $0.name == name }) {
                command = sub
                path.append(name)
            } else {
                return ["no subcommand '\(word)'" + (path.isEmpty ? "" : " in \(path.joined(separator: " "))")]
            }
        }
        // Options before a positional of a command with a default subcommand are the default's.
        if !command.subcommands.isEmpty, let name = command.defaultSubcommand, let sub = command.subcommands.first(where: { $0.name == name }) {
            command = sub
            path.append(name)
        }
        let shownPath = path == ["bench", "run"] && !arguments.starts(with: ["bench", "run"]) ? "bench" : path.joined(separator: " ")
        var problems: [String] = []
        for word in rest where word.hasPrefix("-") && word.count > 1 && !(word.dropFirst().first?.isNumber ?? false) && word != "--" {
            let name = String(word.split(separator: "=", maxSplits: 1).first ?? "")
            guard !command.options.contains(name) else { continue }
            problems.append("\(shownPath) has no option \(name)" + (command.hidden.contains(name) ? " (a hidden alias: document the name the help shows)" : ""))
        }
        return problems
    }
}
