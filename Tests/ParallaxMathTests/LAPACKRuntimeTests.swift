import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ParallaxMath

@Suite struct LAPACKRuntimeTests {
    static var addressSpaceLimited: Bool {
        var limit = rlimit()
        return getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
    }

    /// Without a limit on the address space a call is admitted at once and holds no lock (the
    /// wrappers stay concurrent); under one (a test runner under `ulimit -v`) it holds the lock.
    @Test func aCallHoldsTheLockOnlyUnderAnAddressLimit() throws {
        let lease = try LAPACKRuntime.enter("test")
        defer { lease.leave() }
        #expect((lease.lock != nil) == Self.addressSpaceLimited)
        if !Self.addressSpaceLimited { #expect(LAPACKRuntime.workspaceAvailable) }
    }

    /// A wrapper that calls another under its lease does not wait for itself: the lock is
    /// recursive, and is free for another thread once every level has left.
    @Test func theLockIsRecursive() async {
        let lock = RecursiveLock()
        lock.lock()
        lock.lock()
        lock.unlock()
        lock.unlock()
        let taken = await Task.detached { () -> Bool in lock.lock(); lock.unlock(); return true }.value
        #expect(taken)
    }

    @Test func theMessageSaysWhatToDo() {
        let text = LinearAlgebraError.outOfAddressSpace(routine: "LAPACKE_dgesdd", bytes: 136 << 20).description
        #expect(text.contains("LAPACKE_dgesdd") && text.contains("136 MB") && text.contains("ulimit -v"))
    }
}
