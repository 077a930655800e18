import ParallaxBus
import ParallaxPayloads
import ParallaxImage

/// Depth for people who would rather look than read: each depth map through a colour map
/// (turbo: near blue, far red; or viridis), invalid pixels black, with a legend bar giving the
/// range in metres, as an RGB frame `<depth>/colorized` (`parallax run` writes it as PNG files).
/// One range for the whole stream, so colours compare across frames: the `range` option, or
/// the 1st to 99th percentile of the first map's valid depths (a few stray far values would
/// otherwise paint everything else one colour).
///
/// Example chain: `depth-colorize depth=depth colormap=viridis range=[0.5, 4]`.
public struct DepthColorizeAnalyzer: Analyzer {
    public static let name = "depth-colorize"
    public static let summary = "Depth maps as colour images (turbo or viridis) with a legend of the range in metres"

    public struct Options: AnalyzerOptions {
        @Parameter("depth stream (DepthMap: depth, disparity, or pixel disparity with its geometry)") public var depth = "depth"
        @Parameter("colour map: turbo or viridis") public var colormap = Colormap.Map.turbo
        @Parameter("depth range [near, far] (m) mapped to the colours; empty: the first map's 1st–99th percentile") public var range: [Double] = []
        @Parameter("append the legend bar with the range") public var legend = true
        public init() {}
    }

    private let depthPort: InputPort<DepthMap>
    private let colorizedPort: OutputPort<CameraFrame>
    private let options: Options
    private var range: ClosedRange<Double>?
    private var warnings = RepeatedWarnings()

    public init(options: Options) throws {
        guard options.range.isEmpty || (options.range.count == 2 && options.range.allSatisfy(\.isFinite) && options.range[0] < options.range[1]) else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "range", reason: "must be [near, far] with near < far (m), got \(options.range)")
        }
        self.options = options
        depthPort = .each(options.depth)
        colorizedPort = OutputPort("\(options.depth)/colorized")
        if options.range.count == 2 { range = options.range[0]...options.range[1] }
    }

    public mutating func process(_ packet: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let map = packet.payload(depthPort) else { return }
        guard let depth = DepthInput.metricDepth(of: map, stream: options.depth, at: packet.timestamp, warnings: &warnings, context: &context) else { return }
        if range == nil { range = Colormap.percentileRange(depth.samples) }
        let shown = range ?? 0...1
        if range == nil {
            warnings.note("no valid depth", "'\(options.depth)' at \(packet.timestamp.nanoseconds) ns has no valid depth to set the colour range from: all black", context: &context)
        }
        var image = Colormap.image(depth, map: options.colormap, range: shown)
        if options.legend { image = ColorLegend.appended(to: image, map: options.colormap, range: shown) }
        context.emit(CameraFrame(cameraID: options.depth, image: image), on: colorizedPort, at: packet.timestamp)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "depth maps", context: &context)
    }
}

extension Colormap.Map: OptionValue {}
