/// Opens a dataset folder with the reader its layout calls for.
public enum DatasetFolder {
    /// Opens `path` with the first format of ``DatasetFormatRegistry/shared`` that recognizes it
    /// (Parallax when `parallax.yaml`, EuRoC/ASL when `mav0/`, TUM RGB-D when `rgb.txt` or
    /// `depth.txt`, an image folder when it holds images, and any format a host registered);
    /// otherwise ``DatasetError/notADataset(path:expected:)`` saying what was expected.
    public static func open(_ path: String, strict: Bool = false, validateOrder: Bool = true) throws -> any DatasetSource {
        try DatasetFormatRegistry.shared.open(path, strict: strict, validateOrder: validateOrder)
    }
}
