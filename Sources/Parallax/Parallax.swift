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
@_exported import ParallaxCore
@_exported import ParallaxDatasets
@_exported import ParallaxVideo
@_exported import ParallaxEval
@_exported import ParallaxGeometry
@_exported import ParallaxImage
@_exported import ParallaxVision
@_exported import ParallaxInertial
@_exported import ParallaxMath
@_exported import ParallaxSim

/// The analyzers that ship with Parallax.
public enum BuiltinAnalyzers {
    /// A registry holding every built-in analyzer (a value: add your own to a copy with
    /// `register(_:)`). Built once: registering reflects over every analyzer's options.
    public static let registry: AnalyzerRegistry = {
        var r = AnalyzerRegistry()
        r.register(StreamStatsAnalyzer.self)
        r.register(IMUIntegrator.self)
        r.register(KLTAnalyzer.self)
        r.register(ORBMatchAnalyzer.self)
        r.register(TriangulationAnalyzer.self)
        r.register(VIOAnalyzer.self)
        r.register(StereoDepthAnalyzer.self)
        r.register(PointCloudAnalyzer.self)
        r.register(PlanesAnalyzer.self)
        r.register(HitTestAnalyzer.self)
        r.register(MeasureAnalyzer.self)
        r.register(DepthColorizeAnalyzer.self)
        r.register(DepthFilterAnalyzer.self)
        r.register(DepthRegisterAnalyzer.self)
        r.register(TrackObjectAnalyzer.self)
        r.register(ImageTrackAnalyzer.self)
        r.register(ImageDetectAnalyzer.self)
        r.register(FaceLandmarksAnalyzer.self)
        r.register(FacePoseAnalyzer.self)
        r.register(GazeAnalyzer.self)
        r.register(VideoFormatAnalyzer.self)
        return r
    }()
}

/// The dataset formats that live outside ParallaxDatasets because they need a heavy system
/// library (video files through FFmpeg), and the video support the folder formats use.
public enum BuiltinDatasetFormats {
    /// Adds them to `registry` (asked before the folder formats).
    public static func register(into registry: inout DatasetFormatRegistry) {
        registry.register(VideoFileFormat.self)
    }

    /// ``DatasetFormatRegistry/shared`` with them and ``VideoSupport/installed``; evaluated
    /// once, before the first command.
    public static let installed: Void = {
        register(into: &DatasetFormatRegistry.shared)
        VideoSupport.installed = .ffmpeg
    }()
}
