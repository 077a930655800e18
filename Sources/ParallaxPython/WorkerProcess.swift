import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One Python worker process and the socket Parallax speaks ``WorkerProtocol`` over.
///
/// Started with `posix_spawnp` (the interpreter found on `PATH`, or a path) in its own process
/// group, so the terminal's Ctrl-C reaches Parallax alone, which then closes the worker; its
/// stdin is `/dev/null`, its stdout goes to stderr (what the analyzer prints never mixes with
/// Parallax's output), its fd 3 is its end of the socket, and it inherits no other descriptor. Every wait for an answer is bounded by
/// ``timeout``; a worker that misses it is killed. The process is always reaped (`waitpid`):
/// by ``finish(during:)``, or by `deinit` (kill, then reap), so none outlives its analyzer as a
/// zombie; one whose Parallax dies reads end-of-file and exits.
final class WorkerProcess {
    /// The file the worker hosts (for messages).
    let file: String
    /// The interpreter it runs.
    let interpreter: String
    /// How long one answer may take (s); the analyzer shortens it to its `timeout` option once
    /// the worker has started and opened.
    var timeout: Double
    private(set) var pid: pid_t
    private var socket: Int32
    /// The exit status once reaped.
    private(set) var exitStatus: Int32?

    /// Every worker this process started and has not reaped yet (pid → file): empty once each
    /// analyzer has closed or failed, whatever happened to its worker.
    static let unreaped = UnreapedWorkers()

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 on), which Swift's Glibc module
    /// does not declare: looked up once; `nil` where the C library lacks it (descriptors opened
    /// without close-on-exec then reach the worker, which does not use them).
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// The bootstrap the interpreter runs: the worker loop of the installed `parallax` package.
    /// `-c` puts the current folder first on `sys.path`; it is taken off first, so a `numpy.py`
    /// or `parallax.py` where Parallax was started is not what the worker imports.
    static let bootstrap = "import sys; sys.path[:] = [p for p in sys.path if p != '']; from parallax._worker import main; main()"
    /// The descriptor a worker finds its shared image memory on, when it is given one.
    static let sharedMemoryDescriptor: Int32 = 4

    /// Starts `interpreter` on the worker of `file`, handing it `sharedMemory` (an open file,
    /// whose name may already be gone) as descriptor 4 and `memoryLimit` (bytes; 0: none) as
    /// the limit of its data. Throws ``PythonWorkerError/launch(interpreter:reason:)``.
    init(file: String, interpreter: String, timeout: Double, memoryLimit: Int = 0, sharedMemory: Int32? = nil) throws(PythonWorkerError) {
        self.file = file
        self.interpreter = interpreter
        self.timeout = timeout
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .launch(interpreter: interpreter, reason: "socketpair: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        // dup2 onto 3 clears close-on-exec (also when fds[1] is 3: glibc ≥ 2.29).
        posix_spawn_file_actions_adddup2(&actions, fds[1], 3)
        if let sharedMemory { posix_spawn_file_actions_adddup2(&actions, sharedMemory, Self.sharedMemoryDescriptor) }
        // Nothing else of Parallax's (output files, folder locks, other workers' sockets) leaks in.
        _ = Self.addCloseFrom?(&actions, sharedMemory == nil ? 4 : Self.sharedMemoryDescriptor + 1)
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        // The worker limits its own data to `memoryLimit` bytes (RLIMIT_DATA) before it imports
        // the file: an older parallax package ignores the argument.
        let arguments = [interpreter, "-c", Self.bootstrap, file, "3"] + (memoryLimit > 0 ? ["\(memoryLimit)"] : [])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let status = posix_spawnp(&child, interpreter, &actions, &attributes, &argv, environ)
        close(fds[1])
        guard status == 0 else {
            close(fds[0])
            throw .launch(interpreter: interpreter, reason: String(cString: strerror(status)))
        }
        pid = child
        socket = fds[0]
        Self.unreaped.insert(child, file: file)
    }

    deinit {
        if socket >= 0 { close(socket) }
        if pid > 0 { kill(-pid, SIGKILL) }
        if exitStatus == nil, pid > 0 {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            Self.unreaped.remove(pid)
        }
    }

    /// Sends one frame. A worker that is gone is reported with its exit status.
    func send(_ kind: WorkerProtocol.Kind, header: String, blob: Data = Data(), during: String) throws(PythonWorkerError) {
        let data = try WorkerProtocol.encode(kind, header: header, blob: blob)
        let ok = data.withUnsafeBytes { raw -> Bool in
            guard var p = raw.baseAddress else { return true }
            var left = raw.count
            while left > 0 {
                let n = Glibc.send(socket, p, left, Int32(MSG_NOSIGNAL))
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                p += n
                left -= n
            }
            return true
        }
        if !ok { throw died(during: during) }
    }

    /// Receives one frame within ``timeout``. End of stream: the worker died (reported with its
    /// status); no frame in time: the worker is killed and reaped.
    func receive(during: String) throws(PythonWorkerError) -> WorkerProtocol.Frame {
        let deadline = Self.now() + timeout
        let prefix = try read(WorkerProtocol.prefixBytes, deadline: deadline, during: during)
        let (kind, jsonLength, remaining) = try WorkerProtocol.decodePrefix(prefix)
        let body = try read(remaining, deadline: deadline, during: during)
        return WorkerProtocol.Frame(kind: kind, header: body.prefix(jsonLength), blob: body.dropFirst(jsonLength))
    }

    private func read(_ count: Int, deadline: Double, during: String) throws(PythonWorkerError) -> Data {
        var data = Data(count: count)
        var got = 0
        while got < count {
            let left = deadline - Self.now()
            // In slices of 0.1 s: between them, a stop asked for ends the wait, and a worker that
            // died is noticed even when a child it forked still holds its end of the socket.
            var fd = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fd, 1, Int32(max(0, min(left, 0.1) * 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw .protocolViolation("poll: \(String(cString: strerror(errno)))")
            }
            if ready == 0 {
                if WorkerCancellation.requested {
                    killGroup()
                    throw .interrupted(file: file, during: during)
                }
                reap(blocking: false)
                if exitStatus != nil { throw died(during: during) }
                if Self.now() < deadline { continue }
                killGroup()
                throw .timeout(file: file, seconds: timeout, during: during)
            }
            let n = data.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return recv(socket, base + got, count - got, 0)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw died(during: during)
            }
            if n == 0 { throw died(during: during) }
            got += n
        }
        return data
    }

    /// Kills the worker and every process it started in its group (it leads its own), and reaps it.
    private func killGroup() {
        kill(-pid, SIGKILL)
        if exitStatus == nil {
            kill(pid, SIGKILL)
            reap(blocking: true)
        }
    }

    /// The error for a worker that stopped answering: its exit status, once reaped (a worker that
    /// closed the socket but lives on is killed after a grace period); what it started in its
    /// process group goes with it.
    private func died(during: String) -> PythonWorkerError {
        let grace = Self.now() + 2
        while exitStatus == nil, Self.now() < grace {
            reap(blocking: false)
            if exitStatus == nil { usleep(1000) }
        }
        killGroup()
        return .died(file: file, status: Self.describe(status: exitStatus ?? 0), during: during)
    }

    /// Closes the socket and waits (at most ``timeout``) for the worker to exit, then kills it.
    /// Returns its status in words when it did not exit with 0.
    @discardableResult
    func finish() -> String? {
        if socket >= 0 { close(socket); socket = -1 }
        let deadline = Self.now() + min(timeout, 5)
        while exitStatus == nil, Self.now() < deadline {
            reap(blocking: false)
            if exitStatus == nil { usleep(1000) }
        }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            reap(blocking: true)
        }
        // Whatever the worker started in its process group ends with it.
        kill(-pid, SIGKILL)
        guard let s = exitStatus, s != 0 else { return nil }
        return Self.describe(status: s)
    }

    private func reap(blocking: Bool) {
        guard exitStatus == nil else { return }
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if r == pid {
                exitStatus = status
                Self.unreaped.remove(pid)
                return
            }
            if r < 0, errno == EINTR { continue }
            if r < 0 {
                exitStatus = -1   // not our child any more (ECHILD): nothing to reap
                Self.unreaped.remove(pid)
            }
            return
        }
    }

    /// `waitpid`'s status in words: "exited with status 1", "was killed by signal 9 (SIGKILL)".
    static func describe(status: Int32) -> String {
        if status == -1 { return "ended (its status is unknown)" }
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        let names: [Int32: String] = [SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGTERM: "SIGTERM",
                                      SIGINT: "SIGINT", SIGFPE: "SIGFPE", SIGILL: "SIGILL", SIGPIPE: "SIGPIPE", SIGHUP: "SIGHUP"]
        return "was killed by signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// The workers started and not yet reaped, process-wide (``WorkerProcess/unreaped``).
final class UnreapedWorkers: @unchecked Sendable {
    private let lock = NSLock()
    private var workers: [pid_t: String] = [:]

    func insert(_ pid: pid_t, file: String) {
        lock.lock()
        workers[pid] = file
        lock.unlock()
    }

    func remove(_ pid: pid_t) {
        lock.lock()
        workers[pid] = nil
        lock.unlock()
    }

    /// The pids of the unreaped workers of `file`.
    func pids(of file: String) -> [pid_t] {
        lock.lock()
        defer { lock.unlock() }
        return workers.filter { $0.value == file }.map(\.key).sorted()
    }
}
