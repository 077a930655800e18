import Foundation
import ParallaxDatasets

/// Fetches one archive of a public dataset into a folder Parallax reads: downloads it (resuming
/// what an earlier try left), verifies its size and SHA-256 where the catalog (or the caller)
/// gives them, unpacks it, checks the layout, and moves the result into place in one rename.
///
/// Under `--to DIR`:
/// - `DIR/SEQUENCE/`: the unpacked sequence, with `.parallax-fetch.json` (where it came from,
///   its size and SHA-256, and which of them were verified). A second fetch of the same
///   archive finds it and does nothing.
/// - `DIR/.parallax-downloads/`: the archive while it downloads (`.partial`, kept when the
///   transfer is cut, so the next try resumes) and the folder while it unpacks; removed when
///   done.
public struct DatasetFetcher {
    public let catalog: DatasetCatalog
    /// The folder the sequence goes into.
    public let destination: String
    /// A SHA-256 the archive must have, checked in place of (or as well as) the catalog's.
    /// The dataset formats a catalog's `layout:` may name (a program passes its plugin
    /// registry's, so a plugin's format can be fetched into).
    public var formats: DatasetFormatRegistry = .standard
    public var expectedSHA256: String?
    /// Further attempts after a transfer is cut, each resuming where the last stopped.
    public var retries = 3
    /// Seconds between attempts (× the attempt's number).
    public var retryDelay: Double = 1
    /// Keeps the archive after unpacking (in `.parallax-downloads/`).
    public var keepArchive = false
    /// Seconds without a byte before a transfer counts as stalled.
    public var stallSeconds = 60
    /// Most bytes the archive may unpack to (bytes); `nil`:
    /// ``ArchiveExtraction/defaultMaximumBytes(archiveBytes:)`` of its size.
    public var maximumUnpackedBytes: Int64?

    /// What happened, for the command's summary.
    public struct Outcome: Equatable, Sendable {
        public var folder: String
        public var bytes: Int64
        public var sha256: String
        /// Whether the size / the SHA-256 were compared with a known value (not only announced).
        public var sizeVerified: Bool
        public var sha256Verified: Bool
        public var files: Int
        /// Whether the sequence was there already (nothing downloaded).
        public var alreadyThere: Bool
    }

    /// What a fetch tells as it goes: a phase line ("downloading …", "resuming at …").
    public typealias Log = (String) -> Void

    public init(catalog: DatasetCatalog, destination: String) {
        self.catalog = catalog
        self.destination = destination
    }

    static let recordName = ".parallax-fetch.json"
    static let workFolderName = ".parallax-downloads"

    /// The record written beside the data.
    struct Record: Codable, Equatable {
        var dataset: String
        var sequence: String
        var url: String
        var bytes: Int64
        var sha256: String
        var sizeVerified: Bool
        var sha256Verified: Bool
    }

    public func fetch(dataset: String, sequence: String?, progress: @escaping HTTPDownload.Progress = { _, _ in },
                      log: Log = { _ in }, shouldStop: @escaping () -> Bool = { false }) throws -> Outcome {
        let (entry, archive) = try catalog.archive(dataset: dataset, sequence: sequence)
        if let sha = expectedSHA256, sha.count != 64 || !sha.allSatisfy(\.isHexDigit) {
            throw FetchError.badCatalog(file: "--sha256", reason: "'\(sha)' is not 64 hex digits")
        }
        let layoutFormat = try entry.layout.map { name in
            guard let format = formats.format(named: name) else {
                throw FetchError.badCatalog(file: "the catalog", reason: "\(entry.name): layout '\(name)' is not a dataset format (\(formats.names.joined(separator: ", ")))")
            }
            return format
        }
        let fm = FileManager.default
        let target = (destination as NSString).appendingPathComponent(archive.name)
        let expectedSHA = (expectedSHA256 ?? archive.sha256)?.lowercased()

        if fm.fileExists(atPath: target) {
            let recordFile = (target as NSString).appendingPathComponent(DatasetFetcher.recordName)
            guard let data = fm.contents(atPath: recordFile), let record = try? JSONDecoder().decode(Record.self, from: data),
                  record.url == archive.url, expectedSHA.map({ $0 == record.sha256 }) ?? true else {
                throw FetchError.destinationExists(path: target)
            }
            log("\(target) holds \(entry.name) \(archive.name) already (SHA-256 \(record.sha256))")
            return Outcome(folder: target, bytes: record.bytes, sha256: record.sha256, sizeVerified: record.sizeVerified,
                           sha256Verified: record.sha256Verified, files: 0, alreadyThere: true)
        }

        let work = (destination as NSString).appendingPathComponent(DatasetFetcher.workFolderName)
        do { try fm.createDirectory(atPath: work, withIntermediateDirectories: true) } catch {
            throw FetchError.io(path: work, reason: error.localizedDescription)
        }
        let urlName = URL(string: archive.url)?.lastPathComponent ?? "archive"
        let partial = (work as NSString).appendingPathComponent("\(entry.name)-\(archive.name)-\(urlName).partial")

        // Download, resuming what is there.
        var download = HTTPDownload(url: archive.url, partialFile: partial)
        download.stallSeconds = stallSeconds
        download.maximumBytes = archive.bytes
        var attempt = 0
        var bytes: Int64 = 0
        while true {
            let before = FileDigest.size(of: partial)
            log(before > 0 ? "resuming \(archive.url) at byte \(before)" : "downloading \(archive.url)")
            do {
                bytes = try download.run(progress: progress, shouldStop: shouldStop)
                break
            } catch let FetchError.transferFailed(url, reason, received) where attempt < retries && !shouldStop() {
                attempt += 1
                log("\(url): \(reason) after \(received) bytes; try \(attempt + 1) of \(retries + 1)")
                Thread.sleep(forTimeInterval: retryDelay * Double(attempt))
            } catch let error as FetchError {
                // Keep what arrived for the next try to resume; nothing arrived, nothing to keep.
                let kept = FileDigest.size(of: partial)
                switch error {
                case .httpStatus, .oversized: try? fm.removeItem(atPath: partial)  // not the archive, or more than it: nothing to resume
                default: if kept == 0 { try? fm.removeItem(atPath: partial) }
                }
                if (try? fm.contentsOfDirectory(atPath: work))?.isEmpty ?? false { try? fm.removeItem(atPath: work) }
                throw error
            }
        }

        // Verify.
        if let expected = archive.bytes, expected != bytes {
            try? fm.removeItem(atPath: partial)
            throw FetchError.wrongSize(file: partial, expected: expected, actual: bytes)
        }
        let sha = try FileDigest.sha256(of: partial)
        if let expectedSHA, expectedSHA != sha {
            try? fm.removeItem(atPath: partial)
            throw FetchError.wrongChecksum(file: partial, expected: expectedSHA, actual: sha)
        }

        // Unpack beside, check, move into place.
        let unpacking = (work as NSString).appendingPathComponent("\(entry.name)-\(archive.name).unpacking")
        try? fm.removeItem(atPath: unpacking)
        log("unpacking \(bytes) bytes into \(target)")
        let summary: ArchiveExtraction.Summary
        do {
            summary = try ArchiveExtraction(archive: partial, into: unpacking, strip: archive.strip ?? 0,
                                        maximumBytes: maximumUnpackedBytes ?? ArchiveExtraction.defaultMaximumBytes(archiveBytes: bytes)).run(shouldStop: shouldStop)
        } catch {
            try? fm.removeItem(atPath: unpacking)
            switch error {
            case FetchError.badArchive, FetchError.unpackLimit: try? fm.removeItem(atPath: partial)
            default: break
            }
            throw error
        }
        if let layoutFormat, !layoutFormat.recognizes(unpacking) {
            try? fm.removeItem(atPath: unpacking)
            try? fm.removeItem(atPath: partial)
            throw FetchError.unexpectedLayout(folder: target, expected: layoutFormat.expects)
        }
        let record = Record(dataset: entry.name, sequence: archive.name, url: archive.url, bytes: bytes, sha256: sha,
                            sizeVerified: archive.bytes != nil, sha256Verified: expectedSHA != nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(record).write(to: URL(fileURLWithPath: (unpacking as NSString).appendingPathComponent(DatasetFetcher.recordName)))
            try fm.moveItem(atPath: unpacking, toPath: target)
        } catch {
            try? fm.removeItem(atPath: unpacking)
            throw FetchError.io(path: target, reason: error.localizedDescription)
        }
        if !keepArchive { try? fm.removeItem(atPath: partial) }
        if (try? fm.contentsOfDirectory(atPath: work))?.isEmpty ?? false { try? fm.removeItem(atPath: work) }
        return Outcome(folder: target, bytes: bytes, sha256: sha, sizeVerified: record.sizeVerified, sha256Verified: record.sha256Verified,
                       files: summary.files, alreadyThere: false)
    }
}
