/// Opens a dataset folder with the reader its layout calls for.
public enum DatasetFolder {
    /// Opens `path` with the first of `options`' formats (``DatasetOptions/formats``) that
    /// recognizes it (Parallax when `parallax.yaml`, EuRoC/ASL when `mav0/`, TUM RGB-D when
    /// `rgb.txt` or `depth.txt`, an image folder when it holds images, and any format a plugin
    /// registered);
    /// otherwise ``DatasetError/notADataset(path:expected:)`` saying what was expected. With
    /// ``DatasetOptions/groundTruth``, that file's poses replace the dataset's ground truth
    /// (``replacingGroundTruth(of:with:)``); with ``DatasetOptions/calibrations``, those files
    /// replace or supply the streams' calibrations (``CalibratedDatasetSource``).
    public static func open(_ path: String, options: DatasetOptions = DatasetOptions()) throws -> any DatasetSource {
        var source = try options.formats.open(path, options: options)
        if let file = options.groundTruth { source = try replacingGroundTruth(of: source, with: file) }
        guard !options.calibrations.isEmpty else { return source }
        return try CalibratedDatasetSource(source, overrides: options.calibrations, topicNames: options.topicNames)
    }

    /// ``open(_:options:)`` with only the reading rules given.
    public static func open(_ path: String, strict: Bool, validateOrder: Bool = true) throws -> any DatasetSource {
        try open(path, options: DatasetOptions(strict: strict, validateOrder: validateOrder))
    }
}
