import Foundation
import Parallax

/// `run.json`: what ran, on what, how fast.
public enum RunFile {
    public struct Contents: Encodable {
        public var parallaxVersion = ParallaxVersion.current
        public var chain: String
        public var dataset: String
        public var analyzers: [[String: String]]
        public var report: RunReport
        /// The calibration files given for the dataset's streams (`--calibration`), one line each
        /// as the run printed them; absent when none was given.
        public var calibrations: [String]?
        /// The signal that stopped the run early (`SIGINT`, `SIGTERM`, `SIGHUP`); absent when it ran to the end.
        public var interrupted: String?
    }

    public static func write(report: RunReport, chain: Chain, instances: [AnalyzerInstance], dataset: String, calibrations: [AppliedCalibration] = [],
                             interrupted: String? = nil, to url: URL) throws {
        let analyzers = instances.map { i in
            ["instance": i.name, "analyzer": i.typeName,
             "options": i.optionSummary.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(Contents(chain: chain.name, dataset: dataset, analyzers: analyzers, report: report,
                                    calibrations: calibrations.isEmpty ? nil : calibrations.map(\.description), interrupted: interrupted)).write(to: url, options: .atomic)
    }
}
