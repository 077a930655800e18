import ParallaxCore

/// Mean intensity and clipping of one frame.
public struct Brightness: Sendable, Codable, Equatable {
    /// Mean intensity in [0, 255].
    public var mean: Double
    /// Fraction of pixels at 0 or 255 (under/over-exposed).
    public var clipped: Double
}

/// Mean brightness and clipped fraction of every frame: a user-written analyzer.
///
/// Example chain: `frame-brightness camera=cam0`
public struct FrameBrightness: Analyzer {
    public static let name = "frame-brightness"
    public static let summary = "Mean intensity and clipped-pixel fraction of each frame (example plugin)"

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream to measure (output: <camera>/brightness)") public var camera = "cam0"
        public init() {}
    }

    let frames: InputPort<CameraFrame>
    let brightness: OutputPort<Brightness>

    public init(options: Options) {
        frames = .each(options.camera)
        brightness = OutputPort("\(options.camera)/brightness")
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        let frame = try input.trigger(frames).payload
        let (sum, clipped) = frame.image.withUnsafeSamples { p in
            p.reduce(into: (0, 0)) { acc, v in acc.0 += Int(v); if v == 0 || v == 255 { acc.1 += 1 } }
        }
        let n = Double(max(1, frame.image.samples.count))
        context.emit(Brightness(mean: Double(sum) / n, clipped: Double(clipped) / n), on: brightness, at: input.timestamp)
    }
}
