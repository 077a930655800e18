import ArgumentParser
import Parallax

/// `--set ANALYZER.OPTION=VALUE`, repeatable: an option of an analyzer of the chain, changed
/// without editing the chain (``OptionOverride``). Shared by the commands that run a chain:
/// `run`, `bench` (one case, `--chain`) and `formats` (`--chain`).
struct OptionOverrideOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Set an option of an analyzer of the chain without editing it: --set vio.map=place.pxmap; repeat for several. "
            + "ANALYZER is its instance name (klt:left in a pipeline, as: in YAML), or its analyzer name when the chain has one of that kind; "
            + "VALUE is written as in a pipeline (300, true, none, [a, b], @stream for a port). "
            + "Checked as the chain's own options (`parallax plugins ANALYZER` lists them) and recorded with the results (run.json, the bench report).",
        valueName: "analyzer.option=value"))
    var texts: [String] = []

    func validate() throws {
        for text in texts {
            do { _ = try OptionOverride(parsing: text) } catch { throw ValidationError("\(error)") }
        }
    }

    /// The `--set`s, in order (``validate()`` has read each).
    var overrides: [OptionOverride] { texts.compactMap { try? OptionOverride(parsing: $0) } }
}
