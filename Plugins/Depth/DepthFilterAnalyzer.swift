import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxVision

/// Cleans depth maps before use (``DepthFiltering``), each step an option: values outside
/// `[min_depth, max_depth]` made invalid; edge-preserving smoothing (a bilateral filter whose
/// depth tolerance is the sensor's noise at each range, or joint bilateral guided by a colour
/// stream registered to the depth); holes up to `fill_holes` pixels filled from their rim.
/// Emits `<depth>/filtered` (metric depth, same camera).
///
/// Example chain: `depth-filter smooth=joint color=rgb fill_holes=200 ! planes depth=depth/filtered`.
public struct DepthFilterAnalyzer: Analyzer {
    public static let name = "depth-filter"
    public static let summary = "Depth cleanup: range limits, bilateral or colour-guided smoothing, small-hole filling"
    public static let optionsFromData = [
        "min_depth": "the depth stream's range (a stereo matcher's, a folder's range:)",
        "max_depth": "the depth stream's range (a stereo matcher's, a folder's range:)",
    ]

    /// The smoothing.
    public enum Smoothing: String, CaseIterable, OptionValue {
        case none, bilateral, joint
    }

    public struct Options: AnalyzerOptions {
        @Parameter("depth stream (DepthMap)") public var depth = "depth"
        @Parameter("nearer values are invalid (m)", range: 0...1000) public var minDepth = 0.0
        @Parameter("farther values are invalid (m); 0: no limit", range: 0...1000) public var maxDepth = 0.0
        @Parameter("smoothing: none, bilateral, or joint (bilateral guided by the color stream)") public var smooth = Smoothing.bilateral
        @Parameter("smoothing radius (px)", range: 1...15) public var radius = 3
        @Parameter("σ of the spatial weight (px)", range: 0.1...20) public var sigmaSpace = 2.0
        @Parameter("depth tolerance in σ of the depth noise at the pixel's range (steps beyond are edges)", range: 0.1...50) public var sigmas = 3.0
        @Parameter("depth noise model: kinect or exact") public var noise = DepthNoiseOption.kinect
        @Parameter("colour stream guiding smooth=joint (registered to the depth, same size); none") public var color: String? = nil
        @Parameter("σ of the guide's intensity weight (gray levels)", range: 0.1...255) public var sigmaColor = 12.0
        @Parameter("largest time between a depth map and its colour frame (ms)", range: 0...1000) public var colorToleranceMs = 20.0
        @Parameter("holes (connected invalid pixels away from the border) up to this area are filled (px); 0: none", range: 0...1_000_000) public var fillHoles = 0
        public init() {}
    }

    private let depthPort: InputPort<DepthMap>
    private let colorPort: InputPort<CameraFrame>?
    private let filteredPort: OutputPort<DepthMap>
    private var options: Options
    private var warnings = RepeatedWarnings()

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        guard options.maxDepth == 0 || options.maxDepth > options.minDepth else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "max_depth", reason: "must exceed min_depth (\(options.minDepth) m), or be 0")
        }
        guard options.smooth != .joint || options.color != nil else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "color", reason: "smooth=joint needs the colour stream that guides it (color=rgb)")
        }
        self.options = options
        depthPort = .each(options.depth)
        colorPort = options.smooth == .joint ? options.color.map { .nearest($0, tolerance: Int64(options.colorToleranceMs * 1_000_000)) } : nil
        filteredPort = OutputPort("\(options.depth)/filtered")
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        // The same sensor, now metric depth.
        var sensor = context.metadata(of: depthPort).depth ?? DepthSensor(kind: .depth)
        if let range = sensor.range, range.lowerBound < 1000 {
            // Within the options' own bounds (0…1000 m): a range reaching beyond is cut there.
            let near = min(range.lowerBound, 1000), far = min(range.upperBound, 1000)
            let origin = "the range of '\(context.stream(of: depthPort))'" + String(format: " (%.4g–%.4g m", range.lowerBound, range.upperBound)
                + (range.upperBound > 1000 ? ", cut to 1000 m)" : ")")
            if !context.isGiven("min_depth"), options.maxDepth == 0 || near < options.maxDepth {
                options.minDepth = near
                context.useFromData("min_depth", value: "\(near)", from: origin)
            }
            if !context.isGiven("max_depth"), far > options.minDepth {
                options.maxDepth = far
                context.useFromData("max_depth", value: "\(far)", from: origin)
            }
        }
        sensor.kind = .depth
        sensor.unitsPerMetre = nil
        context.describe(filteredPort, as: StreamMetadata(depth: sensor))
    }

    public mutating func process(_ packet: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let map = packet.payload(depthPort) else { return }
        guard var depth = DepthInput.metricDepth(of: map, stream: options.depth, at: packet.timestamp, warnings: &warnings, context: &context) else { return }
        let upper = options.maxDepth > 0 ? Float(options.maxDepth) : .greatestFiniteMagnitude
        depth = DepthFiltering.clamp(depth, to: Float(options.minDepth)...upper)
        if options.smooth != .none {
            var guide: ImageBuffer<UInt8>?
            if let colorPort {
                if let frame = packet.nearest(colorPort)?.payload {
                    // A guide of another size is another camera's view (not registered to the
                    // depth): guiding by it would put its edges in the wrong places.
                    guard frame.image.width == depth.width, frame.image.height == depth.height else {
                        throw AnalyzerError.streamsDisagree(
                            analyzer: Self.name, stream: colorPort.key.name, timestamp: packet.timestamp.nanoseconds,
                            reason: "its \(frame.image.width)×\(frame.image.height) frame cannot guide '\(options.depth)''s \(depth.width)×\(depth.height) depth map (smooth=joint needs a colour image registered to the depth: depth-register, or smooth=bilateral)")
                    }
                    guide = frame.image.luma
                } else {
                    warnings.note("no guide", "no '\(colorPort.key.name)' frame within \(options.colorToleranceMs) ms of '\(options.depth)' at \(packet.timestamp.nanoseconds) ns: plain bilateral", context: &context)
                }
            }
            let noise = options.noise.model, k = Float(options.sigmas)
            depth = DepthFiltering.bilateral(depth, radius: options.radius, sigmaSpace: options.sigmaSpace,
                                             sigmaRange: { z in k * Float(max(noise.sigma(Double(z)), 0.001)) }, guide: guide, sigmaGuide: options.sigmaColor)
        }
        if options.fillHoles > 0 { depth = DepthFiltering.fillHoles(depth, maxArea: options.fillHoles) }
        context.emit(DepthMap(sensorID: map.sensorID, kind: .depth, values: depth, stereo: map.stereo), on: filteredPort, at: packet.timestamp)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "depth maps", context: &context)
    }
}
