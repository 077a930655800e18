import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for the fetch tests: serves byte arrays by path,
/// honours `Range: bytes=N-` (206) unless told to ignore it, can cut its first responses short
/// (an interrupted transfer), answers 404 for unknown paths, and logs every request.
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Resource {
        var body: [UInt8]
        /// Responses to cut after this many body bytes (then the connection closes).
        var cutAfter: Int? = nil
        /// How many of the next responses are cut.
        var cuts = 0
        /// Answers 200 with the whole body even when a range is asked for.
        var ignoresRange = false
        /// Sends no Content-Length (the body ends when the connection closes).
        var hidesLength = false
    }

    /// One request as received: its path and its Range header (nil without one).
    struct Request: Equatable { var path: String; var range: String? }

    private let lock = NSLock()
    private var resources: [String: Resource] = [:]
    private var log: [Request] = []
    private let listener: Int32
    let port: UInt16
    private var thread: Thread?
    /// Signalled when the serving thread has left its loop: only then is the listening socket
    /// closed, so its descriptor cannot be reused (by another test's server, which this thread
    /// would then serve with this server's resources) while this thread still accepts on it.
    private let finished = DispatchSemaphore(value: 0)

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 8) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve() }
        self.thread = thread
        thread.start()
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func set(_ path: String, _ resource: Resource) { lock.withLock { resources[path] = resource } }
    var requests: [Request] { lock.withLock { log } }

    /// Stops accepting (the serving thread ends at its next accept) and closes the socket once
    /// the thread has ended.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        // A thread still busy with a client past the wait keeps the descriptor (leaked, never reused).
        if finished.wait(timeout: .now() + 30) == .success { close(listener) }
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        // Read the request head.
        var head = [UInt8]()
        var byte = [UInt8](repeating: 0, count: 1024)
        while !head.ends(with: Array("\r\n\r\n".utf8)) && head.count < 65536 {
            let n = recv(client, &byte, byte.count, 0)
            if n <= 0 { return }
            head += byte[0..<n]
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return }
        let path = String(parts[1])
        let range = lines.first { $0.lowercased().hasPrefix("range:") }.map { String($0.dropFirst(6)).trimmingCharacters(in: .whitespaces) }
        let resource: Resource? = lock.withLock {
            log.append(Request(path: path, range: range))
            guard var r = resources[path] else { return nil }
            let current = r
            if r.cuts > 0 { r.cuts -= 1; resources[path] = r }
            return current
        }
        guard let resource else {
            send(client, "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found")
            return
        }
        var start = 0
        if let range, !resource.ignoresRange, range.hasPrefix("bytes="), range.hasSuffix("-"), let n = Int(range.dropFirst(6).dropLast()) {
            guard n < resource.body.count else {
                send(client, "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(resource.body.count)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            }
            start = n
        }
        let body = Array(resource.body[start...])
        var header = start > 0
            ? "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(start)-\(resource.body.count - 1)/\(resource.body.count)\r\n"
            : "HTTP/1.1 200 OK\r\n"
        if !resource.hidesLength { header += "Content-Length: \(body.count)\r\n" }
        header += "Accept-Ranges: bytes\r\nConnection: close\r\n\r\n"
        send(client, header)
        let sent = resource.cuts > 0 ? min(resource.cutAfter ?? body.count, body.count) : body.count
        send(client, Array(body[..<sent]))
    }

    private func send(_ client: Int32, _ text: String) { send(client, Array(text.utf8)) }
    private func send(_ client: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
