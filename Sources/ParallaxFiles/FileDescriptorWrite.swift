#if canImport(Glibc)
import Glibc
#endif

/// Writing bytes whole to a file descriptor with write(2): the system's own error (`errno`,
/// for "No space left on device", "File too large", `EPIPE`) rather than Foundation's, which on
/// Linux loses it ("error 512") or traps (FileHandle on `EPIPE`).
public enum FileDescriptorWrite {
    /// Writes all of `bytes` to `fd`, retrying after a signal; nil when done, else the `errno`
    /// of the write that failed (what came before it is written).
    public static func all(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }
}
