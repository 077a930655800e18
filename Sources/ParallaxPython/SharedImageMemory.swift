import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The shared memory images travel through to a Python worker: a file under `/dev/shm`
/// (the temporary folder where there is none) that Parallax writes and the worker maps
/// read-only (`numpy.frombuffer` over its `mmap`), so a 752×480 frame costs one copy into
/// memory and no pipe traffic.
///
/// Created with mode 0600 and a unique name, which is removed at once: the worker gets the open
/// file as a descriptor (``descriptor``), so no name is left behind whatever ends Parallax
/// (`kill -9` included). Grown (never shrunk) to the bytes one trigger needs.
final class SharedImageMemory {
    /// The file's path while it was created (for messages; removed since).
    let path: String
    /// The open file, for the worker to inherit.
    var descriptor: Int32 { fd }
    private var fd: Int32
    private var base: UnsafeMutableRawPointer?
    /// Bytes mapped (and the file's size).
    private(set) var capacity = 0
    /// The largest size it grows to (bytes): 1 GiB.
    static let maxBytes = 1 << 30

    /// Creates the file. Throws ``PythonWorkerError/launch(interpreter:reason:)`` when it cannot.
    init(label: String) throws(PythonWorkerError) {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let safe = String(label.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" }.prefix(40))
        var attempt = 0
        while true {
            let name = "\(folder)/parallax-\(getpid())-\(safe)-\(UInt32.random(in: 0 ... .max))"
            let f = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if f >= 0 { path = name; fd = f; _ = Glibc.unlink(name); break }
            attempt += 1
            if errno != EEXIST || attempt > 8 {
                throw .launch(interpreter: "shared memory", reason: "cannot create \(name): \(String(cString: strerror(errno)))")
            }
        }
    }

    deinit {
        if let base { munmap(base, capacity) }
        close(fd)
    }

    /// Makes room for `bytes` (rounded up to a power of two, at least 1 MiB).
    func reserve(_ bytes: Int) throws(PythonWorkerError) {
        guard bytes > capacity else { return }
        guard bytes <= Self.maxBytes else {
            throw .protocolViolation("one trigger's images need \(bytes) bytes of shared memory (limit \(Self.maxBytes))")
        }
        var size = max(1 << 20, capacity)
        while size < bytes { size *= 2 }
        if let base { munmap(base, capacity); self.base = nil; capacity = 0 }
        guard ftruncate(fd, off_t(size)) == 0 else {
            throw .protocolViolation("cannot grow shared memory \(path) to \(size) bytes: \(String(cString: strerror(errno)))")
        }
        guard let p = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            throw .protocolViolation("cannot map shared memory \(path): \(String(cString: strerror(errno)))")
        }
        base = p
        capacity = size
    }

    /// Copies `source` to `offset` (within ``capacity``: call ``reserve(_:)`` first).
    func write(_ source: UnsafeRawBufferPointer, at offset: Int) throws(PythonWorkerError) {
        guard source.count > 0 else { return }
        guard let base, let from = source.baseAddress, offset >= 0, offset + source.count <= capacity else {
            throw .protocolViolation("\(source.count) bytes at \(offset) do not fit the \(capacity) bytes of shared memory")
        }
        (base + offset).copyMemory(from: from, byteCount: source.count)
    }
}
