import Foundation
#if canImport(Glibc)
import Glibc
#endif
import CFileSystem

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
    /// Whether the file is sealed against shrinking after each growth (a memfd); otherwise (a
    /// file under /dev/shm, an old kernel) its size is checked before each copy.
    private let sealed: Bool
    private var base: UnsafeMutableRawPointer?
    /// Bytes mapped (and the file's size).
    private(set) var capacity = 0
    /// The largest size it grows to (bytes): 1 GiB.
    static let maxBytes = 1 << 30

    /// Creates the file. Throws ``PythonWorkerError/launch(interpreter:reason:)`` when it cannot.
    init(label: String) throws(PythonWorkerError) {
        // An anonymous memory file whose size is sealed against shrinking once grown: a worker
        // that truncates its descriptor 4 cannot make the copy into the mapping fault (SIGBUS).
        // The instance's name, in at most 40 letters and digits (≤ 160 bytes: within memfd's 249).
        let safe = String(label.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" }.prefix(40))
        let sealable = parallax_sealable_memory_file("parallax-\(safe)")
        if sealable >= 0 { path = "memfd:parallax-\(safe)"; fd = sealable; sealed = true; return }
        sealed = false
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
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
        // Sealed from here on: nobody can shrink it below what is mapped (growing stays allowed;
        // a seal already set by an earlier growth makes this call fail harmlessly).
        if sealed { _ = parallax_seal_against_shrinking(fd) }
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
        if !sealed {
            // Unsealed, a worker could have shrunk the file: copying past its end would fault.
            var info = stat()
            guard fstat(fd, &info) == 0, Int(info.st_size) >= offset + source.count else {
                throw .protocolViolation("the shared memory \(path) was shrunk by the worker")
            }
        }
        (base + offset).copyMemory(from: from, byteCount: source.count)
    }
}
