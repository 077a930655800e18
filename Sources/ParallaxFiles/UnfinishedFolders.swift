import Foundation

/// The staging folders of this process's output folders that are not finished yet, each listed
/// in its marker every ``period`` while its command runs (``OutputFolder/progressLine``), every
/// ``startPeriod`` during its first ``start`` seconds: a command killed with `kill -9` leaves a
/// list of what it wrote until shortly before, so the next command removes its stale folder
/// only if nothing was put there since. Listing happens on one background thread, started with
/// the first folder, under the same lock that taking a folder out holds: once ``remove(_:)``
/// returns, its marker is not written again.
final class UnfinishedFolders: @unchecked Sendable {
    /// Seconds between two listings of a folder.
    static let period: Double = 1
    /// …during its first ``start`` seconds (a command's first files appear then).
    static let startPeriod: Double = 0.1
    static let start: Double = 2

    /// A folder is listed again only after this many times its last listing took (a folder of
    /// tens of thousands of files costs the command at most 5 % of a core), but never later than
    /// ``longestPeriod``, within ``OutputFolder/killMargin``.
    static let costFactor: Double = 20
    static let longestPeriod: Double = 2.5

    /// Each folder's time of arrival and last listing, and what that listing took (s, monotonic).
    private var paths: [String: (added: Double, listed: Double, cost: Double)] = [:]
    private let lock = NSLock()
    private var listing: Thread?

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func insert(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths[path] = (Self.now(), Self.now(), 0)
        if listing == nil {
            let thread = Thread { [self] in
                while true {
                    Thread.sleep(forTimeInterval: Self.startPeriod)
                    listDue()
                }
            }
            thread.name = "parallax-staging-lists"
            listing = thread
            thread.start()
        }
    }

    /// Removes `path`; whether it was there.
    @discardableResult
    func remove(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return paths.removeValue(forKey: path) != nil
    }

    /// Empties the set, returning what it held (sorted).
    func removeAll() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let all = paths.keys.sorted()
        paths = [:]
        return all
    }

    /// Lists each unfinished folder whose turn it is in its marker (best effort: a folder
    /// changing while it is walked is listed at the next round).
    private func listDue() {
        lock.lock()
        defer { lock.unlock() }
        for (path, times) in paths.sorted(by: { $0.key < $1.key }) {
            let now = Self.now()
            let base = now - times.added < Self.start ? Self.startPeriod : Self.period
            let due = now - times.listed >= min(Self.longestPeriod, max(base, Self.costFactor * times.cost))
            guard due else { continue }
            try? OutputFolder.writeManifest(of: URL(fileURLWithPath: path), heading: OutputFolder.progressLine)
            let done = Self.now()
            paths[path] = (times.added, done, done - now)
        }
    }
}
