import Foundation

/// Programs some tests drive or compare with (`chromium`, `ffmpeg`), which a user's machine may
/// not have: `installed` is the condition of `@Test(.enabled(if:))`, `path` where it is.
public enum ExternalTool {
    /// The first of `names` found executable on the `PATH` (or in /usr/bin, /usr/local/bin).
    public static func path(_ names: String...) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        for name in names {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) { return folder + "/" + name }
        }
        return nil
    }

    /// Whether one of `names` is installed.
    public static func installed(_ names: String...) -> Bool {
        names.contains { path($0) != nil }
    }
}
