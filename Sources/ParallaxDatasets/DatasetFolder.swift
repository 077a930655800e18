import Foundation

/// Opens a dataset folder with the reader its layout calls for.
public enum DatasetFolder {
    /// Parallax when `parallax.yaml`, EuRoC/ASL when `mav0/` (or the folder itself is `mav0`),
    /// TUM RGB-D when `rgb.txt` or `depth.txt`, an image folder when it holds images;
    /// otherwise ``DatasetError/notADataset(path:expected:)`` saying what was expected.
    public static func open(_ path: String, strict: Bool = false, validateOrder: Bool = true) throws -> any DatasetSource {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else {
            throw DatasetError.notADataset(path: path, expected: "a dataset folder (EuRoC/ASL with mav0/, TUM RGB-D with rgb.txt/depth.txt, Parallax with parallax.yaml, or a folder of images)")
        }
        let url = URL(fileURLWithPath: path)
        if fm.fileExists(atPath: url.appendingPathComponent("parallax.yaml").path) {
            return try ParallaxFolderSource(path: path, strict: strict, validateOrder: validateOrder)
        }
        if url.lastPathComponent == "mav0" || fm.fileExists(atPath: url.appendingPathComponent("mav0").path) {
            return try EuRoCSource(path: path, strict: strict, validateOrder: validateOrder)
        }
        if fm.fileExists(atPath: url.appendingPathComponent("rgb.txt").path) || fm.fileExists(atPath: url.appendingPathComponent("depth.txt").path) {
            return try TUMRGBDSource(path: path, strict: strict, validateOrder: validateOrder)
        }
        if ImageFolderSource.looksLikeImageFolder(path) { return try ImageFolderSource(path: path) }
        throw DatasetError.notADataset(path: path, expected: "EuRoC/ASL (a mav0/ folder), TUM RGB-D (rgb.txt, depth.txt), Parallax (parallax.yaml) or a folder of images")
    }
}
