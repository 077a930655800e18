import CArchive
import Foundation

/// Unpacks a zip or tar archive (plain, gzip, bzip2, xz; the format is read from the bytes,
/// not the name) through libarchive into a folder, dropping the first `strip` components of
/// each path. Entries that would land outside the folder (`..`, absolute paths) make the
/// archive an error; links and special files are skipped and counted.
public struct ArchiveExtraction {
    public let archive: String
    public let folder: String
    public let strip: Int

    /// What was unpacked.
    public struct Summary: Equatable, Sendable {
        public var files = 0
        public var bytes: Int64 = 0
        /// Links, devices and other entries that are not files or folders.
        public var skipped = 0
    }

    public init(archive: String, into folder: String, strip: Int = 0) {
        self.archive = archive
        self.folder = URL(fileURLWithPath: folder).standardizedFileURL.path
        self.strip = strip
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
            archive_entry_set_pathname(entry, target)
            archive_entry_set_perm(entry, isFolder ? 0o755 : 0o644)
            guard archive_write_header(writer, entry) == ARCHIVE_OK else { throw FetchError.io(path: target, reason: message(writer)) }
            if isFile {
                var block: UnsafeRawPointer?
                var size = 0
                var offset: la_int64_t = 0
                while true {
                    let d = archive_read_data_block(reader, &block, &size, &offset)
                    if d == ARCHIVE_EOF { break }
                    guard d == ARCHIVE_OK || d == ARCHIVE_WARN else { throw FetchError.badArchive(file: archive, reason: "'\(path)': \(message(reader))") }
                    guard archive_write_data_block(writer, block, size, offset) == ARCHIVE_OK else { throw FetchError.io(path: target, reason: message(writer)) }
                    summary.bytes += Int64(size)
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
