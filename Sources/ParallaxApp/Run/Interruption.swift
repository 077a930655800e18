import Foundation
import ParallaxPython
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Signals that stop a long command cleanly (`run`, `bench`, `simulate`, `convert`): Ctrl-C
/// (SIGINT), a scheduler's time limit (SIGTERM), a closed terminal (SIGHUP). The handler only
/// records the signal; the command polls ``requested`` between units of work, flushes what it
/// computed, and exits with 128 + the signal's number.
public enum Interruption {
    /// The signals handled, with their names.
    public static let signals: [(number: Int32, name: String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")]

    /// The signal that asked to stop, 0 while none has (set by the handler: a lock-free atomic
    /// store is async-signal-safe).
    private static let signalNumber = Atomic<Int32>(0)

    /// The signal that asked to stop, 0 while none has.
    public static var received: Int32 { signalNumber.load(ordering: .relaxed) }

    /// Whether a stop was asked for.
    public static var requested: Bool { received != 0 }

    /// The received signal's name (`SIGTERM`), nil while none came.
    public static var name: String? { signals.first { $0.number == received }?.name }

    /// The exit status for the received signal: 128 + its number.
    public static var exitStatus: Int32 { 128 + received }

    /// Installs the handlers, and unblocks the signals: a parent may have started us with them
    /// blocked (the mask is inherited; Foundation's Process does this), and Ctrl-C would never
    /// arrive.
    public static func install() {
        for (number, _) in signals { signal(number) { Interruption.signalNumber.store($0, ordering: .relaxed) } }
        // A Python worker being waited on is killed at once, not waited for until its timeout.
        WorkerCancellation.install { Interruption.requested }
        var set = sigset_t()
        sigemptyset(&set)
        for (number, _) in signals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// The failure that ends an interrupted command: a message naming the signal and where the
    /// partial results are, exit 128 + n.
    public static func stop(partialResultsIn folder: URL) -> AppFailure {
        AppFailure("\(name ?? "signal \(received)"): stopped; what was computed is in '\(folder.path)'", status: .signal(received))
    }
}
