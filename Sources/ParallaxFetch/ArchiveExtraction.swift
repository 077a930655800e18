import CArchive
import Foundation
import ParallaxPayloads
import ParallaxFiles
/// Unpacks a zip or tar archive (plain, gzip, bzip2, xz; the format is read from the bytes,
/// not the name) through libarchive into a folder, dropping the first `strip` components of
/// each path. Entries that would land outside the folder (`..`, absolute paths) make the
/// archive an error; links and special files are skipped and counted.
///
/// Bounded: the bytes unpacked in all may not pass ``maximumBytes`` (an entry declaring more
/// than is left is refused before it is written; an entry writing more than it declared is
/// stopped), and `shouldStop` is asked between every block of every entry, so Ctrl-C inside a
/// large entry stops within a block.
public struct ArchiveExtraction {
    public let archive: String
    public let folder: String
    public let strip: Int
    /// Most bytes unpacked in all (bytes). Default: ``defaultMaximumBytes(archiveBytes:)`` of the
    /// archive's size on disk.
    public var maximumBytes: Int64

    /// How far an archive may expand in all: the shared ``DecompressionLimit`` with
    /// archives' own figures — 32:1 past 1 GiB, no other ceiling. Dataset archives (PNG or JPEG
    /// images, CSV) unpack to 1–3× their size; a "zip bomb" to thousands of times it.
    public static let limit = DecompressionLimit(ceilingBytes: .max, maximumRatio: 32, ratioFreeBytes: 1 << 30)

    /// The unpacked total an archive of `archiveBytes` may reach (``limit``).
    public static func defaultMaximumBytes(archiveBytes: Int64) -> Int64 {
        Int64(limit.limit(compressed: Int(clamping: archiveBytes)))
    }

    /// What was unpacked.
    public struct Summary: Equatable, Sendable {
        public var files = 0
        public var bytes: Int64 = 0
        /// Links, devices and other entries that are not files or folders.
        public var skipped = 0
    }

    public init(archive: String, into folder: String, strip: Int = 0, maximumBytes: Int64? = nil) {
        self.archive = archive
        // Symbolic links in the folder's own path resolved: libarchive's secure-symlinks rule
        // refuses to write through any link on an entry's path, the user's (a linked home or
        // data disk) included.
        self.folder = Self.resolvingLinks(URL(fileURLWithPath: folder).standardizedFileURL.path)
        self.strip = strip
        let size = ((try? FileManager.default.attributesOfItem(atPath: archive)[.size]) as? NSNumber)?.int64Value ?? 0
        self.maximumBytes = maximumBytes ?? Self.defaultMaximumBytes(archiveBytes: size)
    }

    /// `path` with the symbolic links of its longest existing ancestor resolved (realpath), the
    /// folders still to be made appended as they are.
    static func resolvingLinks(_ path: String) -> String {
        var existing = path, rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing), existing != "/", !existing.isEmpty {
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        guard let resolved = realpath(existing, nil) else { return path }
        defer { free(resolved) }
        return rest.reduce(String(cString: resolved)) { ($0 as NSString).appendingPathComponent($1) }
    }

    /// The path an entry lands on below ``folder``, `nil` for one stripped away entirely;
    /// throws for one that leaves the folder.
    func destination(of entryPath: String) throws -> String? {
        guard !entryPath.hasPrefix("/") else { throw FetchError.badArchive(file: archive, reason: "entry '\(entryPath)' is an absolute path") }
        let parts = entryPath.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !parts.contains("..") else { throw FetchError.badArchive(file: archive, reason: "entry '\(entryPath)' leaves the folder (..)") }
        guard parts.count > strip else { return nil }
        return ([folder] + parts.dropFirst(strip).map(String.init)).joined(separator: "/")
    }

    /// Unpacks the archive; `folder` is created.
    @discardableResult
    public func run(shouldStop: () -> Bool = { false }) throws -> Summary {
        guard let reader = archive_read_new() else { throw FetchError.io(path: archive, reason: "libarchive could not start") }
        defer { archive_read_free(reader) }
        archive_read_support_filter_all(reader)
        archive_read_support_format_zip(reader)
        archive_read_support_format_tar(reader)
        archive_read_support_format_gnutar(reader)
        guard archive_read_open_filename(reader, archive, 1 << 16) == ARCHIVE_OK else {
            throw FetchError.badArchive(file: archive, reason: message(reader))
        }
        guard let writer = archive_write_disk_new() else { throw FetchError.io(path: folder, reason: "libarchive could not start") }
        defer { archive_write_free(writer) }
        // Entries are checked and given absolute destinations by ``destination(of:)``: libarchive
        // only refuses `..` and writing through links already on disk.
        archive_write_disk_set_options(writer, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS)
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw FetchError.io(path: folder, reason: error.localizedDescription)
        }

        var summary = Summary()
        var entry: OpaquePointer?
        while true {
            let r = archive_read_next_header(reader, &entry)
            if r == ARCHIVE_EOF { break }
            guard r == ARCHIVE_OK || r == ARCHIVE_WARN, let entry else { throw FetchError.badArchive(file: archive, reason: message(reader)) }
            if shouldStop() { throw FetchError.io(path: folder, reason: "stopped while unpacking") }
            guard let cPath = archive_entry_pathname(entry) else { throw FetchError.badArchive(file: archive, reason: "an entry has no name") }
            let path = String(cString: cPath)
            let type = archive_entry_filetype(entry)
            let isFile = type == 0o100000, isFolder = type == 0o040000  // AE_IFREG, AE_IFDIR (cast macros Swift does not import)
            guard let target = try destination(of: path) else { continue }
            guard (isFile || isFolder), archive_entry_hardlink(entry) == nil else { summary.skipped += 1; continue }
            // What the entry declares (tar always, zip when known) must fit in what is left.
            let declared: Int64? = isFile && archive_entry_size_is_set(entry) != 0 ? Int64(archive_entry_size(entry)) : nil
            if let declared, declared > maximumBytes - summary.bytes {
                throw FetchError.unpackLimit(file: archive, limit: maximumBytes,
                                             reason: "entry '\(path)' declares \(declared) bytes after \(summary.bytes) unpacked")
            }
            archive_entry_set_pathname(entry, target)
            archive_entry_set_perm(entry, isFolder ? 0o755 : 0o644)
            guard archive_write_header(writer, entry) == ARCHIVE_OK else { throw FetchError.io(path: target, reason: message(writer)) }
            if isFile {
                var block: UnsafeRawPointer?
                var size = 0
                var offset: la_int64_t = 0
                var entryBytes: Int64 = 0
                while true {
                    if shouldStop() { throw FetchError.io(path: folder, reason: "stopped while unpacking '\(path)'") }
                    let d = archive_read_data_block(reader, &block, &size, &offset)
                    if d == ARCHIVE_EOF { break }
                    guard d == ARCHIVE_OK || d == ARCHIVE_WARN else { throw FetchError.badArchive(file: archive, reason: "'\(path)': \(message(reader))") }
                    // Where the block ends in the entry (sparse entries skip ahead): within the
                    // entry's declared size, and the total within the limit.
                    let end = max(entryBytes, Int64(offset) + Int64(size))
                    if let declared, end > declared {
                        throw FetchError.unpackLimit(file: archive, limit: maximumBytes,
                                                     reason: "entry '\(path)' unpacks past the \(declared) bytes it declares")
                    }
                    guard end - entryBytes <= maximumBytes - summary.bytes else {
                        throw FetchError.unpackLimit(file: archive, limit: maximumBytes,
                                                     reason: "entry '\(path)' passes it after \(summary.bytes + entryBytes) bytes")
                    }
                    guard archive_write_data_block(writer, block, size, offset) == ARCHIVE_OK else { throw FetchError.io(path: target, reason: message(writer)) }
                    summary.bytes += end - entryBytes
                    entryBytes = end
                }
                summary.files += 1
            }
            guard archive_write_finish_entry(writer) == ARCHIVE_OK else { throw FetchError.io(path: target, reason: message(writer)) }
        }
        return summary
    }

    private func message(_ a: OpaquePointer) -> String {
        archive_error_string(a).map { String(cString: $0) } ?? "libarchive error \(archive_errno(a))"
    }
}
