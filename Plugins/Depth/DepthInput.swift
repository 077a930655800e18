import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxVision

/// What the depth analyzers share about their input: the camera a depth stream's pixels are
/// registered to, and the checks each depth map passes before use (the stream goes on past a
/// map that fails them, with a warning).
struct DepthInput {
    /// The depth stream's name (for messages).
    let stream: String
    /// The depth stream's camera (its ``DepthSensor/camera``, or the `registeredTo` stream's
    /// calibration when given), and the rays of its pixels.
    let calibration: CameraCalibration
    let rays: DepthRays

    /// Resolves the camera of depth stream `stream` from its metadata, else from `registeredTo`
    /// (the colour camera the depth is registered to), else fails naming both.
    init(stream: String, metadata: StreamMetadata, registeredTo: (stream: String, metadata: StreamMetadata)?, analyzer: String) throws {
        self.stream = stream
        if let camera = metadata.depth?.camera ?? metadata.camera ?? registeredTo?.metadata.camera {
            calibration = camera
        } else {
            let what = registeredTo.map { "camera calibration (nor has '\($0.stream)', the camera it is registered to)" } ?? "camera calibration (the camera its pixels are registered to)"
            throw AnalyzerError.missingMetadata(analyzer: analyzer, stream: stream, what: what)
        }
        rays = DepthRays(camera: calibration.model)
    }

    /// Metric depth (m, NaN where invalid, row-major) of `map`, or `nil` after a warning (once
    /// per kind of problem) when it cannot be used: another size than the camera's, or a pixel
    /// disparity without its stereo geometry. Non-finite values are invalid pixels, not errors.
    func depth(of map: DepthMap, at t: Timestamp, warnings: inout RepeatedWarnings, context: inout AnalyzerContext) -> [Float]? {
        guard map.values.width == rays.width, map.values.height == rays.height else {
            warnings.note("size", "'\(stream)' at \(t.nanoseconds) ns is \(map.values.width)×\(map.values.height), its camera \(rays.width)×\(rays.height): skipped", context: &context)
            return nil
        }
        return Self.metricDepth(of: map, stream: stream, at: t, warnings: &warnings, context: &context)?.samples
    }

    /// Metric depth of `map` for analyzers that need no camera, or `nil` after a warning.
    static func metricDepth(of map: DepthMap, stream: String, at t: Timestamp, warnings: inout RepeatedWarnings,
                            context: inout AnalyzerContext) -> ImageBuffer<Float>? {
        do { return try map.metricDepth() } catch {
            warnings.note("conversion", "'\(stream)' at \(t.nanoseconds) ns: \(error): skipped", context: &context)
            return nil
        }
    }
}
