import Synchronization

/// Whether the command running Python workers was asked to stop (Ctrl-C, SIGTERM, SIGHUP): a
/// worker being waited on is then killed at once, with everything it started, instead of being
/// waited for until its `timeout`. The command installs the check (`Interruption.install()` in
/// ParallaxApp does); without one, nothing stops a wait but its answer, its death or its timeout.
public enum WorkerCancellation {
    private static let check = Mutex<(@Sendable () -> Bool)?>(nil)

    /// Makes `requested` the check a waiting worker polls (every 0.1 s).
    public static func install(_ requested: @escaping @Sendable () -> Bool) {
        check.withLock { $0 = requested }
    }

    /// Whether a stop was asked for.
    static var requested: Bool {
        let current = check.withLock { $0 }
        return current?() ?? false
    }
}
