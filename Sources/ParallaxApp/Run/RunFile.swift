import Foundation
import Parallax

/// `run.json`: what ran, on what, how fast.
public enum RunFile {
    /// One analyzer instance of the chain.
    public struct Analyzer: Encodable {
        public var instance: String
        public var analyzer: String
        /// The options as given, `key=value` sorted: the chain's, with the `--set`s in place of
        /// what they replace.
        public var options: String
        /// This analyzer's `--set`s, `key=value` in order; absent when none was given.
        public var set: String?
        /// Its ports wired to other streams than they declare (`frames=@cam1`, sorted); absent
        /// when none is.
        public var wiring: String?
        /// Options taken from a consumer's preference where the chain gave none
        /// (`equalize=true refill_below=0.9 window=15 (as vio prefers)`; also in ``options``);
        /// absent when none was.
        public var preferred: [String]?
        /// Every option with the value the analyzer ran with, defaults included (text as a
        /// pipeline would give it: `cam0`, `200`, `[a,b]`, `none`).
        public var effectiveOptions: [String: String]
    }

    public struct Contents: Encodable {
        public var parallaxVersion = ParallaxVersion.current
        public var chain: String
        /// The `--set`s given (`vio.map=place.pxmap`), in order; absent when none was.
        public var set: [String]?
        public var dataset: String
        public var analyzers: [Analyzer]
        public var report: RunReport
        /// The calibration files given for the dataset's streams (`--calibration`), one line each
        /// as the run printed them; absent when none was given.
        public var calibrations: [String]?
        /// The signal that stopped the run early (`SIGINT`, `SIGTERM`, `SIGHUP`); absent when it ran to the end.
        public var interrupted: String?
    }

    /// Writes `run.json` for `chain` (with its `overrides` applied) made into `instances`.
    public static func write(report: RunReport, chain: Chain, instances: [AnalyzerInstance], dataset: String, overrides: [OptionOverride] = [],
                             calibrations: [AppliedCalibration] = [], interrupted: String? = nil, to url: URL) throws {
        // What an analyzer took from the data replaces the default it was made with.
        var fromData: [String: [String: String]] = [:]
        for o in report.optionsFromData ?? [] { fromData[o.instance, default: [:]][o.option] = o.value }
        let analyzers = instances.enumerated().map { k, i in
            // The chain's nodes are the instances, in order.
            let set = k < chain.nodes.count ? chain.nodes[k].overrides : []
            let remap = k < chain.nodes.count ? chain.nodes[k].remap : [:]
            return Analyzer(instance: i.name, analyzer: i.typeName,
                            options: i.optionSummary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "),
                            set: set.isEmpty ? nil : set.map { "\($0.option)=\($0.value)" }.joined(separator: " "),
                            wiring: remap.isEmpty ? nil : remap.sorted { $0.key < $1.key }.map { "\($0.key)=@\($0.value)" }.joined(separator: " "),
                            preferred: i.preferred.isEmpty ? nil : i.preferred.map(\.description),
                            effectiveOptions: i.effectiveOptions.merging(fromData[i.name] ?? [:]) { _, data in data })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Contents(chain: chain.name, set: overrides.isEmpty ? nil : overrides.map(\.description), dataset: dataset,
                                    analyzers: analyzers, report: report,
                                    calibrations: calibrations.isEmpty ? nil : calibrations.map(\.description),
                                    interrupted: interrupted)).write(to: url, options: .atomic)
    }
}
