#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ParallaxFiles

/// The command line's messages on standard error, written so that a reader gone away (`parallax
/// run … 2>&1 | head`: the pipe closed) costs the message and nothing else. `parallax` ignores
/// SIGPIPE (``ParallaxCommand/main(plugins:)``): a run whose console is closed goes on to its end
/// and keeps what it computed, rather than dying with exit 141 and its results half-written.
/// (Foundation's `FileHandle.write` traps on a write error such as `EPIPE`; this does not.)
enum StandardError {
    /// Writes `data` whole, or as much as the pipe takes before it fails; errors are dropped.
    static func write(_ data: Data) {
        _ = data.withUnsafeBytes { FileDescriptorWrite.all(2, $0) }
    }
}
