import ParallaxBus
import ParallaxVIO

extension VIOAnalyzer {
    /// `vio`'s options: the streams it reads and writes, and the estimator's ``VIOSettings``
    /// (window, pixel_noise, landmarks, …), whose options are `vio`'s under the same names.
    public struct Options: AnalyzerOptions {
        @Parameter("FeatureTracks stream of the camera (from klt)") public var tracks = "cam0/tracks"
        @Parameter("IMU stream") public var imu = "imu0"
        @Parameter("pose stream written (T_WB; its covariance measures the drift since the first normal pose, which fixes position and yaw); biases go to <output>-biases") public var output = "vio/pose"
        @Parameter("use the tracks' stereo matches (klt stereo_camera=cam1) when their stream declares a calibrated pair") public var stereo = true
        @Parameter("the camera's image stream, for the world map (keyframe descriptors; needed by map= and by parallax run --save-map); empty: no map") public var images = ""
        @Parameter("world map file (.pxmap, from parallax run --save-map) to relocalize into: poses are in its frame once relocalized; needs images=") public var map = ""
        /// The estimator's own options (``VIOSettings``); its `mapping` follows ``images``.
        public var estimator = VIOSettings()
        public init() {}
    }
}

extension VIOAnalyzer.Options {
    /// The estimator's settings these options give: ``estimator``, building a world map when
    /// there are images.
    var settings: VIOSettings {
        var s = estimator
        s.mapping = !images.isEmpty
        return s
    }
}
