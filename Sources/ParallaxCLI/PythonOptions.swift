import ArgumentParser
import Parallax

/// `--python`, shared by the commands that make `python:FILE.py` analyzers (run, bench, plugins).
struct PythonOptions: ParsableArguments {
    @Option(name: .customLong("python"), help: ArgumentHelp("The Python interpreter python:FILE.py analyzers run in (default: $PARALLAX_PYTHON, else python3 on PATH); it needs the parallax package (pip install ./python).", valueName: "interpreter"))
    var interpreter: String?

    /// Runs `body` with the command's plugins resolving `python:` names with ``interpreter``, when given.
    func applying<T>(_ body: () throws -> T) throws -> T {
        guard let interpreter else { return try body() }
        guard !interpreter.isEmpty else { throw ValidationError("--python is empty: name an interpreter (python3, or a path)") }
        var plugins = ParallaxCLI.plugins
        plugins.analyzers.register(resolver: PythonAnalyzers.resolver(interpreter: interpreter))
        return try ParallaxCLI.$plugins.withValue(plugins) { try body() }
    }
}
