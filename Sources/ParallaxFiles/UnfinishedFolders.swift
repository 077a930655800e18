import Foundation

/// The staging folders of this process's output folders that are not finished yet, each listed
/// in its marker every ``period`` while its command runs (``OutputFolder/progressLine``): a
/// command killed with `kill -9` leaves a list of what it wrote until a second before, so the
/// next command removes its stale folder only if nothing was put there since. Listing happens on
/// one background thread, started with the first folder, under the same lock that taking a
/// folder out holds: once ``remove(_:)`` returns, its marker is not written again.
final class UnfinishedFolders: @unchecked Sendable {
    /// Seconds between two listings.
    static let period: Double = 1

    private var paths: Set<String> = []
    private let lock = NSLock()
    private var listing: Thread?

    func insert(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.insert(path)
        if listing == nil {
            let thread = Thread { [self] in
                while true {
                    Thread.sleep(forTimeInterval: Self.period)
                    listAll()
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
        return paths.remove(path) != nil
    }

    /// Empties the set, returning what it held (sorted).
    func removeAll() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let all = paths.sorted()
        paths = []
        return all
    }

    /// Lists every unfinished folder in its marker (best effort: a folder changing while it is
    /// walked is listed at the next round).
    private func listAll() {
        lock.lock()
        defer { lock.unlock() }
        for path in paths.sorted() { try? OutputFolder.writeManifest(of: URL(fileURLWithPath: path), heading: OutputFolder.progressLine) }
    }
}
