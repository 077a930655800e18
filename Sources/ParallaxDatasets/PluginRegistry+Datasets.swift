import ParallaxBus
extension DatasetFormatRegistry: PluginRegistryPart {}

/// The video implementation a plugin provides (``VideoSupport``), as a part of the
/// ``PluginRegistry``: none until a plugin that links FFmpeg registers one.
public struct VideoSupportPart: PluginRegistryPart {
    public var support: VideoSupport?
    public init() {}
}

extension PluginRegistry {
    /// The dataset formats, asked in order (``DatasetFormatRegistry``).
    public var datasetFormats: DatasetFormatRegistry {
        get { self[part: DatasetFormatRegistry.self] }
        set { self[part: DatasetFormatRegistry.self] = newValue }
    }

    /// Video decoding and encoding for the folder formats (nil: none linked).
    public var videoSupport: VideoSupport? {
        get { self[part: VideoSupportPart.self].support }
        set { self[part: VideoSupportPart.self].support = newValue }
    }

    /// How to open datasets with this registry's formats and video support (`options`' other
    /// settings kept).
    public func datasetOptions(_ options: DatasetOptions = DatasetOptions()) -> DatasetOptions {
        var o = options
        o.formats = datasetFormats
        o.videoSupport = videoSupport
        return o
    }
}

/// The dataset formats of ParallaxDatasets, as a plugin bundle: registered the way any
/// package's are.
public enum StandardDatasetsPlugin: ParallaxPlugin {
    public static let name = "datasets"
    public static func register(into registry: inout PluginRegistry) {
        for format in DatasetFormatRegistry.standard.formatsInOrder.reversed() { registry.datasetFormats.register(format) }
    }
}
