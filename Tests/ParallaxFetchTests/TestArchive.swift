import CArchive
import Foundation

/// Writes small archives for the tests through libarchive: zip, or tar with gzip.
enum TestArchive {
    enum Kind { case zip, tarGzip }

    /// An archive of `files` (path → contents); folders are implied by the paths.
    static func make(_ kind: Kind, files: [(String, [UInt8])]) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let a = archive_write_new() else { throw POSIXError(.ENOMEM) }
        defer { archive_write_free(a) }
        switch kind {
        case .zip: archive_write_set_format_zip(a)
        case .tarGzip: archive_write_set_format_pax_restricted(a); archive_write_add_filter_gzip(a)
        }
        guard archive_write_open_filename(a, path) == ARCHIVE_OK else { throw POSIXError(.EIO) }
        for (name, contents) in files {
            guard let e = archive_entry_new() else { throw POSIXError(.ENOMEM) }
            defer { archive_entry_free(e) }
            archive_entry_set_pathname(e, name)
            archive_entry_set_size(e, la_int64_t(contents.count))
            archive_entry_set_filetype(e, 0o100000)  // AE_IFREG
            archive_entry_set_perm(e, 0o644)
            guard archive_write_header(a, e) == ARCHIVE_OK else { throw POSIXError(.EIO) }
            _ = contents.withUnsafeBytes { archive_write_data(a, $0.baseAddress, $0.count) }
        }
        guard archive_write_close(a) == ARCHIVE_OK, let data = FileManager.default.contents(atPath: path) else { throw POSIXError(.EIO) }
        return [UInt8](data)
    }
}
