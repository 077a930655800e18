import ArgumentParser
import Foundation
import ParallaxApp
import ParallaxFetch

/// `parallax datasets`: the public datasets Parallax reads, with where they come from, their
/// licence, size and sequences; `parallax fetch` downloads them.
struct DatasetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "datasets",
        abstract: "List the public datasets Parallax reads (sizes, licences, sources, sequences); `parallax fetch` downloads them.")

    @Option(name: .long, help: ArgumentHelp("A catalog of your own (a mirror's), YAML as docs/datasets.md describes.", valueName: "file"))
    var catalog: String?
    @Flag(name: .long, help: "Print JSON for machines.") var json = false

    func run() throws {
        let catalog: DatasetCatalog
        do { catalog = try self.catalog.map { try DatasetCatalog(file: $0) } ?? DatasetCatalog.builtin } catch {
            throw fail("\(error)", code: ExitCodes.badInput)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(catalog.datasets), as: UTF8.self))
            return
        }
        var rows = [["name", "sequences", "size each (approx.)", "read as", "licence"]]
        for d in catalog.datasets {
            rows.append([d.name, "\(d.sequences.count)", Self.sizeRange(d.sequences.compactMap(\.size)),
                         d.layout ?? "files", d.licence])
        }
        print(TextColumns.format(rows))
        print("")
        for d in catalog.datasets {
            print("\(d.name): \(d.title). \(d.what).")
            print("  source: \(d.source)")
            if let reads = d.reads { print("  read: \(reads)") }
            print("  sequences: " + d.sequences.map(\.name).joined(separator: ", "))
        }
        print("")
        print("parallax fetch NAME [SEQUENCE] --to DIR downloads one (resumable; SHA-256 printed, and verified where the catalog has it).")
    }

    /// "0.8–1.6 GB" from sizes such as "1.6 GB" (the smallest and largest; as given when they
    /// cannot be read as a number and a unit).
    static func sizeRange(_ sizes: [String]) -> String {
        let units: [String: Double] = ["KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12]
        let parsed = sizes.compactMap { size -> (bytes: Double, text: String, unit: String)? in
            let parts = size.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[0]), let scale = units[String(parts[1])] else { return nil }
            return (value * scale, String(parts[0]), String(parts[1]))
        }
        guard parsed.count == sizes.count, let low = parsed.min(by: { $0.bytes < $1.bytes }), let high = parsed.max(by: { $0.bytes < $1.bytes }) else {
            return sizes.isEmpty ? "—" : Set(sizes).sorted().joined(separator: ", ")
        }
        if low.bytes == high.bytes { return "\(low.text) \(low.unit)" }
        return low.unit == high.unit ? "\(low.text)–\(high.text) \(high.unit)" : "\(low.text) \(low.unit)–\(high.text) \(high.unit)"
    }
}
