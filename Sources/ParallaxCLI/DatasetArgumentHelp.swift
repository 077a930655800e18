import ArgumentParser
import Parallax

/// The help of a command's dataset argument (`run`, `inspect`, `convert`, `bench --dataset`,
/// `formats`): what it is, then every format the plugins in use read, from their registry
/// (``DatasetFormatRegistry``, each format's `expects`), in the order they are asked.
///
/// ArgumentParser builds a command's arguments (and so their help) each time it parses or
/// prints help, from the command's `init()`: the list is made then, from ``ParallaxCLI/plugins``,
/// so a format a plugin adds is listed and none can be left out.
enum DatasetArgumentHelp {
    /// `lead`, then the formats: "The dataset: a folder or file in one of the formats Parallax
    /// reads — a Parallax folder (parallax.yaml); EuRoC/ASL (a mav0/ folder); …".
    static func text(_ lead: String, formats: DatasetFormatRegistry = ParallaxCLI.plugins.datasetFormats) -> String {
        "\(lead): a folder or file in one of the formats Parallax reads — "
            + formats.formatsInOrder.map { $0.expects }.joined(separator: "; ") + "."
    }

    /// ``text(_:formats:)`` as an argument's help.
    static func help(_ lead: String, valueName: String? = nil) -> ArgumentHelp {
        ArgumentHelp(text(lead), valueName: valueName)
    }
}
