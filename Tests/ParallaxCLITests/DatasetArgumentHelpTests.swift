import ArgumentParser
import Foundation
import Testing
import Parallax
@testable import ParallaxCLI

/// A format a plugin adds (never opens anything): the help must list it too.
private enum ProbeFormat: DatasetFormat {
    static let name = "probe"
    static let expects = "a probe folder (probe.txt)"
    static func recognizes(_ path: String) -> Bool { false }
    static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        throw DatasetError.notADataset(path: path, expected: expects)
    }
}

private enum ProbePlugin: ParallaxPlugin {
    static let name = "probe"
    static func register(into registry: inout PluginRegistry) { registry.datasetFormats.register(ProbeFormat.self) }
}

/// The dataset argument of every command that reads one lists every format the registry in use
/// knows, from the registry itself: it cannot go stale.
@Suite struct DatasetArgumentHelpTests {
    static let commands: [any ParsableCommand.Type] = [RunCommand.self, InspectCommand.self, ConvertCommand.self, FormatsCommand.self, BenchRunCommand.self]

    /// A command's help, on one line per paragraph (no wrapping).
    static func help(_ command: any ParsableCommand.Type) -> String { ParallaxCommand.helpMessage(for: command, columns: 100_000) }

    @Test func everyRegisteredFormatIsListed() {
        let formats = ParallaxCLI.plugins.datasetFormats.formatsInOrder
        // The built-ins (EuRoC, TUM RGB-D, Parallax, bags, stereo, tracking, faces, images, video…).
        #expect(formats.count >= 14)
        for command in Self.commands {
            let help = Self.help(command)
            for format in formats {
                #expect(help.contains(format.expects), "\(command) does not list \(format.name) ('\(format.expects)')")
            }
        }
    }

    @Test func aFormatAPluginAddsIsListedToo() {
        ParallaxCLI.$plugins.withValue(BuiltinPlugins.registry.adding([ProbePlugin.self])) {
            for command in Self.commands {
                #expect(Self.help(command).contains("a probe folder (probe.txt)"), "\(command)")
            }
        }
        #expect(!Self.help(RunCommand.self).contains("probe.txt"))
    }

    /// `fetch`'s names are the built-in catalog's.
    @Test func fetchListsTheCatalogsNames() {
        let help = Self.help(FetchCommand.self)
        #expect(FetchCommand.catalogNames.count >= 8)
        #expect(help.contains("(" + FetchCommand.catalogNames.joined(separator: ", ") + ";"), "\(help)")
    }
}
