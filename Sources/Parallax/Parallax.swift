// The umbrella module: one import for users and the CLI, and the list of built-in analyzers.
@_exported import Diagnostics
@_exported import FeatureTracking
@_exported import Triangulation
@_exported import VisualInertialOdometry
@_exported import Depth
@_exported import ObjectTracking
@_exported import ImageTracking
@_exported import FaceTracking
@_exported import FaceLandmarks
@_exported import VideoFormats
@_exported import ParallaxFace
@_exported import ParallaxTracking
@_exported import ParallaxBus
@_exported import ParallaxPayloads
@_exported import ParallaxFiles
@_exported import ParallaxCodecs
@_exported import ParallaxDatasets
@_exported import ParallaxOutputs
@_exported import ParallaxVideo
@_exported import ParallaxEval
@_exported import ParallaxGeometry
@_exported import ParallaxImage
@_exported import ParallaxVision
@_exported import ParallaxInertial
@_exported import ParallaxVIO
@_exported import ParallaxMath
@_exported import ParallaxSim
@_exported import ParallaxPython

/// The plugin bundles that ship with Parallax, registered exactly as a package's own are: the
/// analyzers of every folder under `Plugins/`, the dataset formats of ParallaxDatasets,
/// the output writers of ParallaxOutputs, the evaluations of ParallaxEval, video through FFmpeg,
/// and `python:FILE.py` analyzers (ParallaxPython).
public enum BuiltinPlugins {
    /// Every built-in bundle, in registration order.
    public static var all: [any ParallaxPlugin.Type] { [
        StandardDatasetsPlugin.self, StandardOutputsPlugin.self, StandardEvaluationsPlugin.self, VideoPlugin.self,
        DiagnosticsPlugin.self, FeatureTrackingPlugin.self, TriangulationPlugin.self, VisualInertialOdometryPlugin.self,
        DepthPlugin.self, ObjectTrackingPlugin.self, ImageTrackingPlugin.self, FaceLandmarksPlugin.self, FaceTrackingPlugin.self,
        VideoFormatsPlugin.self, PythonPlugin.self,
    ] }

    /// A registry holding every built-in bundle (a value: add your own to a copy with
    /// ``PluginRegistry/register(_:)`` or ``PluginRegistry/adding(_:)``). Built once:
    /// registering reflects over every analyzer's options.
    public static let registry: PluginRegistry = PluginRegistry().adding(all)
}

/// The built-in analyzers (``BuiltinPlugins/registry``'s).
public enum BuiltinAnalyzers {
    /// Every built-in analyzer, as ``BuiltinPlugins/registry`` holds them.
    public static var registry: AnalyzerRegistry { BuiltinPlugins.registry.analyzers }
}

extension DatasetOptions {
    /// Options that open datasets with every built-in format and video support
    /// (``BuiltinPlugins/registry``), `options`' other settings kept.
    public static func builtin(_ options: DatasetOptions = DatasetOptions()) -> DatasetOptions {
        BuiltinPlugins.registry.datasetOptions(options)
    }
}
