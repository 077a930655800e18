import ParallaxBus
import ParallaxPayloads
import ParallaxImage

/// Sharpness and exposure of every frame of a camera, with frames much blurrier than their
/// neighbours flagged: what to look at before tracking a new recording (motion blur in fast
/// turns, auto-exposure swings), and what picks keyframes or drops frames in a script.
///
/// Sharpness is the variance of the 4-neighbour Laplacian of the frame's luma, summed in
/// integers (bit-identical everywhere). A frame is flagged blurred when its sharpness is below
/// `blur-ratio` × the median of the previous `window` frames', so the flag follows the scene
/// (a white wall is never sharp) instead of a fixed threshold.
///
/// Example chain: `frame-quality camera=cam0` (output `cam0/quality`, written to `cam0/quality.csv`).
public struct FrameQualityAnalyzer: Analyzer {
    public static let name = "frame-quality"
    public static let summary = "Sharpness (Laplacian variance) and exposure of each frame; frames much blurrier than their neighbours flagged"

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream to measure (output: <camera>/quality)") public var camera = "cam0"
        @Parameter("frames before the current one whose median sharpness is the reference", range: 1...10_000) public var window = 31
        @Parameter("a frame is blurred below this fraction of the reference sharpness", range: 0.0...1.0) public var blurRatio = 0.5
        public init() {}
    }

    /// The camera stream read (the option, or what the chain wired `frames` to).
    var camera: String
    let frames: InputPort<CameraFrame>
    let quality: OutputPort<FrameQuality>
    let window: Int
    let blurRatio: Double
    /// The sharpness of the last `window` frames, oldest first.
    private var recent: [Double] = []

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        camera = options.camera
        frames = .each(options.camera)
        quality = OutputPort("\(options.camera)/quality")
        window = options.window
        blurRatio = options.blurRatio
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        camera = context.stream(of: frames)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        let image = try input.trigger(frames).payload.image.luma
        let sharpness = Self.laplacianVariance(image)
        let reference = Self.median(recent)
        let relative = reference.map { $0 > 0 ? sharpness / $0 : 1 } ?? 1
        recent.append(sharpness)
        if recent.count > window { recent.removeFirst(recent.count - window) }
        let (mean, black, white) = Self.exposure(image)
        context.emit(FrameQuality(camera: camera, width: image.width, height: image.height, sharpness: sharpness,
                                  relativeSharpness: relative, blurred: relative < blurRatio,
                                  meanLuma: mean, blackClipped: black, whiteClipped: white),
                     on: quality, at: input.timestamp)
    }

    /// Variance of `4·p − (left + right + up + down)` over the pixels with four neighbours (gray
    /// levels²); 0 for an image narrower or shorter than 3 px.
    static func laplacianVariance(_ gray: ImageBuffer<UInt8>) -> Double {
        let w = gray.width, h = gray.height
        guard w >= 3, h >= 3 else { return 0 }
        var sum: Int64 = 0, sumSquares: Int64 = 0
        gray.withUnsafeSamples { p in
            for y in 1..<(h - 1) {
                let row = y * w
                for x in 1..<(w - 1) {
                    let i = row + x
                    let l = 4 * Int64(p[i]) - Int64(p[i - 1]) - Int64(p[i + 1]) - Int64(p[i - w]) - Int64(p[i + w])
                    sum += l
                    sumSquares += l * l
                }
            }
        }
        let n = Double((w - 2) * (h - 2))
        let mean = Double(sum) / n
        return max(0, Double(sumSquares) / n - mean * mean)
    }

    /// Mean luma and the fractions of pixels at 0 and at 255.
    static func exposure(_ gray: ImageBuffer<UInt8>) -> (mean: Double, black: Double, white: Double) {
        let n = gray.width * gray.height
        guard n > 0 else { return (0, 0, 0) }
        var sum = 0, black = 0, white = 0
        gray.withUnsafeSamples { p in
            for v in p {
                sum += Int(v)
                if v == 0 { black += 1 } else if v == 255 { white += 1 }
            }
        }
        return (Double(sum) / Double(n), Double(black) / Double(n), Double(white) / Double(n))
    }

    /// The median of `values` (mean of the two middle ones for an even count), nil when empty.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let m = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
    }
}
