import ParallaxGeometry

/// How a dataset is opened: what every reader is told (``DatasetFormat/open(_:options:)``) and
/// what ``DatasetFolder/open(_:options:)`` does after (ground truth from a file). The CLI's
/// `--strict`, `--image-rate` and `--groundtruth` fill it.
public struct DatasetOptions: Sendable {
    /// A listed file that does not exist is an error instead of being skipped and counted.
    public var strict = false
    /// Timestamps going back are an error naming the file and line, instead of being sorted.
    public var validateOrder = true
    /// Frames per second of a folder of images whose file names are not times (Hz, > 0);
    /// `nil`: the format's own (1 Hz for an image folder, 30 Hz for a tracking sequence).
    public var imageRateHz: Double?
    /// A trajectory file (TUM, or EuRoC CSV) whose poses replace the dataset's ground truth.
    public var groundTruth: String?

    /// Video files' frames in gray instead of colour (the decoder's luma plane: no colour
    /// conversion, the cheapest way in for gray-only chains).
    public var grayVideo = false

    /// Calibration files replacing or supplying streams' metadata (`--calibration STREAM=FILE`),
    /// applied by ``DatasetFolder/open(_:options:)`` (``CalibratedDatasetSource``).
    public var calibrations: [CalibrationOverride] = []

    /// Stream names for bag topics, overriding the convention (`/cam0/image_raw` → `cam0`).
    public var topicNames: [String: String] = [:]

    /// The pixel budget of one image (pixels, `width × height`; the CLI's
    /// `--max-image-megapixels` × 10⁶): a reader checks the size a header or message declares
    /// against it with ``ParallaxGeometry/ImageSizeLimit/check(width:height:limit:)`` before it
    /// allocates the image, and refuses a larger one naming the file. Default: the process-wide
    /// ``ParallaxGeometry/ImageSizeLimit/maxPixels`` when these options were made.
    public var maxImagePixels: Int = ImageSizeLimit.maxPixels

    /// The formats a dataset is opened with (``DatasetFolder/open(_:options:)``): the standard
    /// ones, unless a program passes its plugin registry's (``PluginRegistry/datasetOptions(_:)``).
    public var formats: DatasetFormatRegistry = .standard

    /// Video decoding and encoding for the folder formats that keep a stream as a video file
    /// (a plugin that links FFmpeg provides it); nil: such a stream is an error that says so.
    public var videoSupport: VideoSupport?

    public init(strict: Bool = false, validateOrder: Bool = true, imageRateHz: Double? = nil, groundTruth: String? = nil, grayVideo: Bool = false) {
        self.grayVideo = grayVideo
        self.strict = strict
        self.validateOrder = validateOrder
        self.imageRateHz = imageRateHz
        self.groundTruth = groundTruth
    }
}
