import Foundation

/// Paths written inside a dataset's own files (`data.csv`, `rgb.txt`, `parallax.yaml`) stay
/// inside the dataset: they are relative and never climb above the folder they are relative to.
/// A dataset from elsewhere must not make Parallax read `../../etc/passwd` (or anything else
/// the user did not hand it). The check is on the text (lexical): to use files kept elsewhere,
/// link them into the dataset folder — a link the user made is followed.
public enum DatasetPath {
    /// Whether `relative` is a relative path whose `..` parts never climb above its base.
    public static func staysInside(_ relative: String) -> Bool {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.hasPrefix("~") else { return false }
        var depth = 0
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
            if part == ".." { depth -= 1; if depth < 0 { return false } } else if part != "." { depth += 1 }
        }
        return true
    }

    /// `relative` under `base` (a folder path ending in `/` or not), or
    /// ``DatasetError/pathLeavesDataset(file:line:path:)`` naming where it was written.
    public static func resolve(_ relative: String, under base: String, listedIn file: String, line: Int) throws -> String {
        guard staysInside(relative) else { throw DatasetError.pathLeavesDataset(file: file, line: line, path: relative) }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
    }
}
