import Foundation

/// The data files that ship with Parallax under `datasets/` (EuRoC calibration, texture photos,
/// the face mesh): the defaults of `parallax simulate`.
///
/// A path under `datasets/` that does not exist relative to the working folder is looked up
/// next to the installed binary (`PREFIX/share/parallax/datasets`, where the README's install
/// line copies them, for a binary in `PREFIX/bin`), then in the checkout the binary was built
/// in (`.build/release/parallax` → the repository root). Other paths are used as given.
public enum BundledData {
    /// `path`, or where the bundled file it names is, for the binary at `executable`.
    public static func resolve(_ path: String, executable: URL? = Bundle.main.executableURL) -> String {
        let fm = FileManager.default
        guard path.hasPrefix("datasets/"), !fm.fileExists(atPath: path), let executable else { return path }
        for root in roots(executable: executable.resolvingSymlinksInPath()) {
            let candidate = root.appendingPathComponent(path).path
            if fm.fileExists(atPath: candidate) { return candidate }
        }
        return path
    }

    /// `message` (an error about reading a file) with, when it names one of the `files` that is
    /// a bundled file found nowhere (``resolve(_:executable:)`` left it as given), where it was
    /// looked for and how to provide it (`files`: each path with the option that names it): a
    /// binary installed without the repository's `datasets/`.
    public static func explainingMissing(_ message: String, files: [(path: String, option: String)],
                                         executable: URL? = Bundle.main.executableURL) -> String {
        let fm = FileManager.default
        guard let missing = files.first(where: { $0.path.hasPrefix("datasets/") && !fm.fileExists(atPath: $0.path) && message.contains($0.path) })
        else { return message }
        var places = ["the working folder"]
        for root in executable.map({ roots(executable: $0.resolvingSymlinksInPath()) }) ?? [] where !places.contains(root.path) {
            places.append(root.path)
        }
        return message + " — '\(missing.path)' is a file bundled with Parallax, looked for under " + places.joined(separator: ", ")
            + ": copy the repository's datasets/ to PREFIX/share/parallax (README, \"Using it\"), run from the checkout, or give \(missing.option)"
    }

    /// Where bundled data may live for the binary at `executable`, nearest first.
    public static func roots(executable: URL) -> [URL] {
        let bin = executable.deletingLastPathComponent()
        var roots = [bin.deletingLastPathComponent().appendingPathComponent("share/parallax")]
        // .build/<triple>/release/parallax: the checkout is three or four levels up.
        var folder = bin
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            roots.append(folder)
        }
        return roots
    }
}
