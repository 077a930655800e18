import CCurl
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One resumable download through libcurl: appends to a `.partial` file, asking the server for
/// the bytes after those already there (an HTTP `Range` request), and starts over when the
/// server ignores the range (answers 200). Redirects are followed; an HTTP error status is an
/// error and writes nothing; a transfer cut short keeps what arrived.
public struct HTTPDownload {
    /// Bytes on disk and the archive's whole size when the server announced it.
    public typealias Progress = (_ received: Int64, _ total: Int64?) -> Void

    public let url: String
    /// The file the bytes go to (created, appended to).
    public let partialFile: String
    /// Seconds without a byte before the transfer counts as stalled.
    public var stallSeconds = 60
    /// The file's exact size when known (the catalog's `bytes:`): the transfer stops as soon as
    /// the server announces or sends more, with ``FetchError/oversized(url:expected:received:)``.
    public var maximumBytes: Int64?

    public init(url: String, partialFile: String) {
        self.url = url
        self.partialFile = partialFile
    }

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// What the callbacks share with ``run(progress:shouldStop:)``.
    private final class Transfer {
        let fd: Int32
        var offset: Int64
        let resumedFrom: Int64
        var decided = false
        var writeError: String?
        var total: Int64?
        let progress: Progress
        let shouldStop: () -> Bool
        var stopped = false
        var handle: UnsafeMutableRawPointer?
        let maximum: Int64?
        /// Set when the server sent or announced more than ``maximum``: the bytes received then.
        var oversizedAt: Int64?
        init(fd: Int32, offset: Int64, maximum: Int64?, progress: @escaping Progress, shouldStop: @escaping () -> Bool) {
            self.fd = fd; self.offset = offset; self.resumedFrom = offset; self.maximum = maximum; self.progress = progress; self.shouldStop = shouldStop
        }
    }

    /// Downloads, resuming from the bytes already in ``partialFile``; returns the file's size
    /// when the server has sent everything. `shouldStop` is asked several times a second (a
    /// signal): the transfer then ends with ``FetchError/transferFailed(url:reason:received:)``.
    @discardableResult
    public func run(progress: @escaping Progress = { _, _ in }, shouldStop: @escaping () -> Bool = { false }) throws -> Int64 {
        _ = HTTPDownload.globalInit
        let fd = open(partialFile, O_WRONLY | O_CREAT, 0o644)
        guard fd >= 0 else { throw FetchError.io(path: partialFile, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let existing = lseek(fd, 0, SEEK_END)
        guard existing >= 0 else { throw FetchError.io(path: partialFile, reason: String(cString: strerror(errno))) }
        guard let curl = curl_easy_init() else { throw FetchError.io(path: url, reason: "libcurl could not start a transfer") }
        defer { curl_easy_cleanup(curl) }

        let transfer = Transfer(fd: fd, offset: Int64(existing), maximum: maximumBytes, progress: progress, shouldStop: shouldStop)
        transfer.handle = curl
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            _ = parallax_curl_set_string(curl, CURLOPT_URL, url)
            _ = parallax_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, errors.baseAddress)
            _ = parallax_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 1)
            _ = parallax_curl_set_long(curl, CURLOPT_MAXREDIRS, 10)
            _ = parallax_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT, 30)
            _ = parallax_curl_set_long(curl, CURLOPT_LOW_SPEED_LIMIT, 1)
            _ = parallax_curl_set_long(curl, CURLOPT_LOW_SPEED_TIME, stallSeconds)
            _ = parallax_curl_set_string(curl, CURLOPT_USERAGENT, "parallax-fetch")
            if existing > 0 { _ = parallax_curl_set_string(curl, CURLOPT_RANGE, "\(existing)-") }
            _ = parallax_curl_set_write(curl, HTTPDownload.onData)
            _ = parallax_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
            _ = parallax_curl_set_long(curl, CURLOPT_NOPROGRESS, 0)
            _ = parallax_curl_set_progress(curl, HTTPDownload.onProgress)
            _ = parallax_curl_set_pointer(curl, CURLOPT_XFERINFODATA, context)
            let code = curl_easy_perform(curl)
            // libcurl keeps the error buffer's address until cleanup; the buffer is pinned only
            // inside this closure, so curl forgets it before the closure ends.
            _ = parallax_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, nil)
            return code
        }
        var status = 0
        _ = parallax_curl_response_code(curl, &status)
        if status >= 400 {
            // 416: the range asked for starts at or past the end (a stale or oversize partial
            // file): start over once.
            if status == 416, existing > 0 {
                guard ftruncate(fd, 0) == 0 else { throw FetchError.io(path: partialFile, reason: String(cString: strerror(errno))) }
                return try run(progress: progress, shouldStop: shouldStop)
            }
            throw FetchError.httpStatus(url: url, status: status)
        }
        if let error = transfer.writeError { throw FetchError.io(path: partialFile, reason: error) }
        if let received = transfer.oversizedAt, let maximumBytes {
            throw FetchError.oversized(url: url, expected: maximumBytes, received: received)
        }
        guard code == CURLE_OK else {
            let reason = transfer.stopped ? "stopped" : (errorBuffer.first == 0 ? String(cString: curl_easy_strerror(code)) : String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            throw FetchError.transferFailed(url: url, reason: reason, received: transfer.offset)
        }
        guard fsync(fd) == 0 else { throw FetchError.io(path: partialFile, reason: String(cString: strerror(errno))) }
        return transfer.offset
    }

    /// The first byte of a `Content-Range: bytes START-END/TOTAL` value, nil when it is not one.
    static func contentRangeStart(_ value: String) -> Int64? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("bytes ") else { return nil }
        let range = trimmed.dropFirst(6).split(separator: "/", maxSplits: 1).first ?? ""
        guard let dash = range.firstIndex(of: "-") else { return nil }
        return Int64(range[..<dash])
    }

    /// libcurl's write callback: decides once (at the first bytes) whether they continue the
    /// partial file (206) or replace it (200), then writes them at the end.
    private static let onData: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = { data, size, count, context in
        guard let context, let data else { return 0 }
        let t = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let bytes = size * count
        if !t.decided {
            t.decided = true
            var status = 0
            if let handle = t.handle { _ = parallax_curl_response_code(handle, &status) }
            if status >= 400 { return 0 }  // an error page: not the archive
            if status == 206, let handle = t.handle {
                // CURLOPT_RANGE does not check where the server's part starts: a part that
                // does not start at the partial file's end would be appended at the wrong place.
                var value = [CChar](repeating: 0, count: 256)
                let start = parallax_curl_header(handle, "Content-Range", &value, value.count) == 0 ? nil
                    : HTTPDownload.contentRangeStart(String(decoding: value.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                guard start == t.offset else {
                    t.writeError = "the server resumed at byte \(start.map(String.init) ?? "?") (Content-Range), not at \(t.offset) where the partial file ends"
                    return 0
                }
            }
            if status == 200, t.offset > 0 {
                // The server ignored the range: the body is the whole file.
                guard ftruncate(t.fd, 0) == 0, lseek(t.fd, 0, SEEK_SET) == 0 else {
                    t.writeError = String(cString: strerror(errno)); return 0
                }
                t.offset = 0
            }
        }
        // More than the catalog's size: stop now, not after the whole file.
        if let maximum = t.maximum, Int64(bytes) > maximum - t.offset {
            t.oversizedAt = t.offset + Int64(bytes)
            return 0
        }
        var written = 0
        while written < bytes {
            let n = write(t.fd, data + written, bytes - written)
            if n < 0 {
                if errno == EINTR { continue }
                t.writeError = String(cString: strerror(errno)); return 0
            }
            written += n
        }
        t.offset += Int64(bytes)
        return bytes
    }

    /// libcurl's progress callback: reports bytes on disk against the whole size, and stops
    /// the transfer when asked to.
    private static let onProgress: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32 = { context, downloadTotal, _, _, _ in
        guard let context else { return 0 }
        let t = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        if t.shouldStop() { t.stopped = true; return 1 }
        if downloadTotal > 0, let handle = t.handle {
            // A 206 announces what remains; a 200 the whole file.
            var status = 0
            _ = parallax_curl_response_code(handle, &status)
            t.total = (status == 206 ? t.resumedFrom : 0) + Int64(downloadTotal)
            // A server announcing more than the catalog's size: stopped before the body.
            if let maximum = t.maximum, let total = t.total, total > maximum, status < 300 {
                t.oversizedAt = t.offset
                return 1
            }
        }
        t.progress(t.offset, t.total)
        return 0
    }
}
