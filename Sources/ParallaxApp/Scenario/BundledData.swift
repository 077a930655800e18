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
