import Foundation
import Parallax

/// `shard.json`: what one shard of a suite ran, with everything `bench merge` needs to write
/// the same report as one unsharded run — each case's result in full (error series, plots,
/// images, the report's camera frames), not only what `report.json` keeps. Rewritten (whole,
/// atomically) after every case, so a shard killed half-way keeps its finished cases and the
/// same command run again (a scheduler's retry) runs only the rest.
public struct BenchShardFile: Codable {
    /// The layout of this file; a merge refuses others.
    public static let format = 1
    public static let fileName = "shard.json"

    public var format = BenchShardFile.format
    public var suite: String
    public var suiteFile: String
    /// SHA-256 of the suite file's bytes: shards of one suite have the same.
    public var suiteSHA256: String
    public var parallaxVersion: String
    public var shard: ShardSpec
    /// The cases this shard runs, in suite order, with their position in the suite.
    public var cases: [String]
    public var positions: [Int]
    /// The command that ran (last) in this folder.
    public var command: String
    public var results: [Case] = []

    /// One finished case.
    public struct Case: Codable {
        public var result: BenchRunner.Result
        /// Per evaluation (in order): what report.json leaves out.
        public var details: [Detail]
        public var framesHTML: String
        public var provenance: BenchRunner.Provenance
    }

    public struct Detail: Codable {
        public var series: [Double]?
        public var seriesTimes: [Double]?
        public var plots: [String: String]?
        public var images: [String: Image]?
    }

    /// An 8-bit image, lossless.
    public struct Image: Codable {
        public var width: Int
        public var height: Int
        public var channels: Int
        public var samples: Data
    }

    /// Whether every assigned case has a result that was not interrupted.
    public var isComplete: Bool { Set(cases) == Set(results.filter { $0.result.status != "interrupted" }.map(\.result.name)) }

    /// The cases still to run (assigned, and without a finished result).
    public var remaining: [String] {
        let finished = Set(results.filter { $0.result.status != "interrupted" }.map(\.result.name))
        return cases.filter { !finished.contains($0) }
    }

    public static func record(_ r: BenchRunner.Result) -> Case {
        Case(result: r, details: r.evaluations.map { e in
            Detail(series: e.result.series, seriesTimes: e.result.seriesTimes, plots: e.result.plots,
                   images: e.result.images?.mapValues { Image(width: $0.width, height: $0.height, channels: $0.channels, samples: Data($0.samples)) })
        }, framesHTML: r.framesHTML, provenance: r.provenance)
    }

    /// The full result of a recorded case; `file` names the shard file in errors.
    public static func result(of c: Case, file: String) throws -> BenchRunner.Result {
        var r = c.result
        guard c.details.count == r.evaluations.count else {
            throw ChainError.syntax(message: "\(file): case '\(r.name)' has \(c.details.count) evaluation details for \(r.evaluations.count) evaluations", location: nil)
        }
        for (k, d) in c.details.enumerated() {
            r.evaluations[k].result.series = d.series
            r.evaluations[k].result.seriesTimes = d.seriesTimes
            r.evaluations[k].result.plots = d.plots
            r.evaluations[k].result.images = try d.images?.mapValues { image in
                let (area, o1) = image.width.multipliedReportingOverflow(by: image.height)
                let (count, o2) = area.multipliedReportingOverflow(by: image.channels)
                guard image.width >= 0, image.height >= 0, (1...4).contains(image.channels), !o1, !o2, count == image.samples.count else {
                    throw ChainError.syntax(message: "\(file): case '\(r.name)': an image's size does not match its samples", location: nil)
                }
                return ImageBuffer(width: image.width, height: image.height, channels: image.channels, samples: [UInt8](image.samples))
            }
        }
        r.framesHTML = c.framesHTML
        r.provenance = c.provenance
        return r
    }

    public func write(to folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }

    /// Reads `folder/shard.json`; `nil` when there is none. A file that is not a shard file,
    /// or of another format, is an error naming it.
    public static func read(from folder: URL) throws -> BenchShardFile? {
        let url = folder.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url) else { return nil }
        struct Format: Decodable { var format: Int? }
        guard let format = try? JSONDecoder().decode(Format.self, from: data).format else {
            throw ChainError.syntax(message: "\(url.path): not a shard file", location: nil)
        }
        guard format == Self.format else {
            throw ChainError.syntax(message: "\(url.path): shard file format \(format); this Parallax reads format \(Self.format)", location: nil)
        }
        let file: BenchShardFile
        do { file = try JSONDecoder().decode(BenchShardFile.self, from: data) } catch {
            throw ChainError.syntax(message: "\(url.path): not a shard file: \(error)", location: nil)
        }
        guard (1...ShardSpec.maximumCount).contains(file.shard.count), (1...file.shard.count).contains(file.shard.index), file.positions.count == file.cases.count,
              file.positions.allSatisfy({ $0 >= 0 }), Set(file.cases).count == file.cases.count else {
            throw ChainError.syntax(message: "\(url.path): not a valid shard file (shard \(file.shard.index)/\(file.shard.count), \(file.cases.count) cases, \(file.positions.count) positions)", location: nil)
        }
        return file
    }
}

/// The fuzz target's way in (Sources/ParallaxFuzzing): reads a shard folder's file as `bench
/// merge` does and rebuilds every case; returns how many.
package enum BenchShardFileFuzzing {
    package static func read(folder: URL) throws -> Int {
        guard let file = try BenchShardFile.read(from: folder) else { return 0 }
        return try file.results.map { try BenchShardFile.result(of: $0, file: "shard.json") }.count
    }
}
