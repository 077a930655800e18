import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage

/// Delivers a camera stream in another ``VideoFormat`` so any chain runs at it: images shrunk by
/// area resampling (`scale=0.5` or `0.25`; the intrinsics rescaled exactly, a point at pixel `p`
/// lands at `(p + 0.5)·s − 0.5`), every 2nd or 3rd frame kept (`rate=1/2`, `1/3`; the kept
/// frames keep their timestamps), gray instead of colour (`pixels=gray`).
///
/// Emits `<camera>/formatted` (``CameraFrame``) described with the rescaled calibration (and
/// the frame rate divided); a stereo partner is not carried (each camera is formatted alone).
///
/// Example chain: `video-format camera=cam0 scale=0.5 rate=1/2 ! klt camera=cam0/formatted`
public struct VideoFormatAnalyzer: Analyzer {
    public static let name = "video-format"
    public static let summary = "A camera stream at another resolution (area resampling, exact intrinsics), frame rate or pixel format"

    /// Pixel formats to deliver.
    public enum Pixels: String, CaseIterable, OptionValue { case native, gray }

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream") public var camera = "cam0"
        @Parameter("image scale: 1, 0.5 or 0.25 (area resampling)") public var scale = 1.0
        @Parameter("frame rate kept: 1, 1/2 or 1/3 (every 1st, 2nd, 3rd frame)") public var rate = "1"
        @Parameter("native, or gray (colour converted, BT.601)") public var pixels = Pixels.native
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let output: OutputPort<CameraFrame>
    /// 1, 2 or 4.
    public let scaleDivisor: Int
    /// 1, 2 or 3.
    public let rateDivisor: Int
    private let pixels: Pixels
    private var index = 0

    public init(options: Options) throws {
        guard let scale = [1.0: 1, 0.5: 2, 0.25: 4][options.scale] else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "scale", reason: "must be 1, 0.5 or 0.25 (whole binning factors), got \(options.scale)")
        }
        guard let rate = ["1": 1, "1/1": 1, "1/2": 2, "1/3": 3][options.rate.replacingOccurrences(of: " ", with: "")] else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "rate", reason: "must be 1, 1/2 or 1/3, got '\(options.rate)'")
        }
        scaleDivisor = scale
        rateDivisor = rate
        pixels = options.pixels
        frames = .each(options.camera)
        output = OutputPort("\(options.camera)/formatted")
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        let camera = context.metadata(of: frames).camera
        context.describe(output, as: StreamMetadata(camera: camera.map { VideoFormat.convert($0, scaleDivisor: scaleDivisor, rateDivisor: rateDivisor) }))
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames) else { return }
        defer { index += 1 }
        guard VideoFormat.keeps(frame: index, rateDivisor: rateDivisor) else { return }
        guard frame.width >= scaleDivisor, frame.height >= scaleDivisor else {
            throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "scale",
                                              reason: "the \(frame.width)×\(frame.height) frame at \(input.timestamp.nanoseconds) ns is smaller than one \(scaleDivisor)×\(scaleDivisor) block")
        }
        var formatted = VideoFormat.convert(frame, scaleDivisor: scaleDivisor, gray: pixels == .gray)
        formatted.cameraID = output.key.name
        context.emit(formatted, on: output, at: input.timestamp)
    }
}
