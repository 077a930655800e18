import Foundation

/// A shard's `log.txt`: its progress lines and the errors of failed cases (what a merge points
/// to), written as they come; an earlier run's log comes first.
public final class ShardLog {
    private let handle: FileHandle?

    public init(url: URL?, previous: String) {
        guard let url else { handle = nil; return }
        let text = previous.isEmpty ? "" : previous + (previous.hasSuffix("\n") ? "" : "\n") + "--- resumed ---\n"
        FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8))
        handle = FileHandle(forWritingAtPath: url.path)
        _ = try? handle?.seekToEnd()
    }

    public func line(_ text: String) { try? handle?.write(contentsOf: Data((text + "\n").utf8)) }
}
