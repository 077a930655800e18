import Foundation
import ParallaxFiles

/// The public datasets `parallax fetch` can download: for each, where it comes from, its
/// licence, how Parallax reads it, and its sequences with the archive of each.
///
/// A catalog is YAML (the built-in one is ``builtin``; `--catalog FILE` reads another, a
/// mirror's for instance):
///
/// ```yaml
/// datasets:
///   - name: euroc                       # what `parallax fetch NAME` takes
///     title: EuRoC MAV
///     what: stereo gray 752×480 @ 20 Hz, IMU 200 Hz, ground truth
///     licence: …
///     source: https://…                 # the publisher's page
///     layout: euroc                     # the dataset format the unpacked folder must be
///     sequences:
///       - name: MH_01_easy
///         url: http://…/MH_01_easy.zip  # zip, tar, tar.gz/bz2/xz
///         size: 1.6 GB                  # for the listing (approximate)
///         bytes: 1647185420             # exact: verified when given
///         sha256: 9f86d0…               # verified when given
///         strip: 1                      # leading folders of the archive's paths dropped
/// ```
public struct DatasetCatalog: Sendable, Equatable {
    public var datasets: [Entry]

    /// One public dataset.
    public struct Entry: Sendable, Equatable, Codable {
        public var name: String
        public var title: String
        /// What it holds (sensors, rates, truth), one line.
        public var what: String
        public var licence: String
        /// The publisher's page.
        public var source: String
        /// The dataset format (``ParallaxDatasets/DatasetFormat/name``) an unpacked sequence is
        /// checked to be; `nil` for data read by other commands (trajectories, flow files).
        public var layout: String?
        /// How Parallax reads it, for the listing when ``layout`` is `nil`.
        public var reads: String?
        /// What to do next, printed after a fetch below `next: parallax inspect FOLDER`;
        /// `{folder}` becomes the fetched folder and `{sequence}` the sequence's name.
        public var next: String?
        public var sequences: [Sequence]

        /// ``next`` for `sequence` fetched into `folder`.
        public func nextSteps(folder: String, sequence: String) -> String? {
            next.map { $0.replacingOccurrences(of: "{folder}", with: folder).replacingOccurrences(of: "{sequence}", with: sequence) }
        }
    }

    /// One downloadable archive of a dataset.
    public struct Sequence: Sendable, Equatable, Codable {
        public var name: String
        public var url: String
        /// Approximate size for the listing ("1.6 GB").
        public var size: String?
        /// Exact size in bytes, checked after the download when given.
        public var bytes: Int64?
        /// SHA-256 of the archive (64 hex digits), checked after the download when given.
        public var sha256: String?
        /// Leading path components dropped from the archive's entries (0: none).
        public var strip: Int?
    }

    public init(datasets: [Entry]) { self.datasets = datasets }

    /// Parses catalog YAML; `file` names it in errors (``YAMLDecodingError``: file, line,
    /// column, the field and why).
    public init(yaml: String, file: String) throws {
        datasets = try YAMLDecoding.decode(File.self, from: yaml, file: file).datasets
    }

    /// Why `name` cannot be a file name inside `--to` (`nil`: it can): it must be one path
    /// component — not empty, not `.` or `..`, no `/` or `\`, no control characters, not
    /// starting with `-` or `.`, at most 100 bytes.
    static func unsafeNameReason(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.utf8.count > 100 { return "is longer than 100 bytes" }
        if name.contains("/") || name.contains("\\") { return "is a path (it contains / or \\): names must be one folder name" }
        if name.hasPrefix(".") { return "starts with '.' (., .. and hidden names are not dataset names)" }
        if name.hasPrefix("-") { return "starts with '-'" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "contains a control character" }
        return nil
    }

    /// Reads a catalog file.
    public init(file: String) throws {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            throw FetchError.badCatalog(file: file, reason: "cannot read it as UTF-8 text")
        }
        try self.init(yaml: text, file: file)
    }

    /// The dataset `name` and its sequence `sequence` (the only one when `nil` and there is one).
    public func archive(dataset name: String, sequence: String?) throws -> (Entry, Sequence) {
        guard let entry = datasets.first(where: { $0.name == name }) else {
            throw FetchError.unknownDataset(name: name, known: datasets.map(\.name))
        }
        let known = entry.sequences.map(\.name)
        guard let sequence else {
            guard entry.sequences.count == 1 else { throw FetchError.sequenceNeeded(dataset: name, known: known) }
            return (entry, entry.sequences[0])
        }
        guard let s = entry.sequences.first(where: { $0.name == sequence }) else {
            throw FetchError.unknownSequence(dataset: name, sequence: sequence, known: known)
        }
        return (entry, s)
    }
}
