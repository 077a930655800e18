import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxVision

/// The measuring tape: the metric distance between two pixels' points in each depth map
/// (each read as a window's median depth on its own ray, ``DepthProbe``), with its σ from the
/// depth noise model (each point's error runs along its ray). Pairs come from the `pairs`
/// option or, two pixels at a time, from a stream of ``PixelQueries`` (`queries=`; with neither
/// given, the stream `<depth>/queries`, which then must exist); a pixel outside the
/// image or without valid depth nearby gives no distance and a note (the stream goes on).
///
/// Example chain: `measure pairs=[[100,240,540,240]]`.
public struct MeasureAnalyzer: Analyzer {
    public static let name = "measure"
    public static let summary = "Metric distance between two pixels' 3D points, with its σ from the depth noise (the measuring tape)"

    public struct Options: AnalyzerOptions {
        @Parameter("depth stream (DepthMap)") public var depth = "depth"
        @Parameter("pixel pairs, [[u1, v1, u2, v2], …] (px)") public var pairs: [[Double]] = []
        @Parameter("stream of pixels (PixelQueries), measured two at a time, joined to the nearest depth map; none: <depth>/queries when no pairs are given") public var queries: String? = nil
        @Parameter("window whose median depth is read (px, odd)", range: 1...63) public var window = 5
        @Parameter("depth noise model: kinect or exact") public var noise = DepthNoiseOption.kinect
        @Parameter("largest time between a depth map and its queries (ms)", range: 0...10_000) public var toleranceMs = 50.0
        public init() {}
    }

    private let depthPort: InputPort<DepthMap>
    private let queryPort: InputPort<PixelQueries>?
    private let measurementsPort: OutputPort<Measurements>
    private let options: Options
    private let pairs: [(Vector2, Vector2)]
    private let probe: DepthProbe
    private var input: DepthInput?
    private var warnings = RepeatedWarnings()

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        pairs = try PixelList.parse(options.pairs, perEntry: 2, option: "pairs", analyzer: Self.name).map { ($0[0], $0[1]) }
        self.options = options
        depthPort = .each(options.depth)
        let queries = options.queries ?? (pairs.isEmpty ? "\(options.depth)/queries" : nil)
        queryPort = queries.map { .nearest($0, tolerance: Int64(options.toleranceMs * 1_000_000)) }
        measurementsPort = OutputPort("\(options.depth)/measurements")
        probe = DepthProbe(window: options.window, noise: options.noise.model)
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        input = try DepthInput(stream: options.depth, metadata: context.metadata(of: depthPort), registeredTo: nil, analyzer: context.instanceName)
    }

    public mutating func process(_ packet: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let map = packet.payload(depthPort), let input,
              let depth = input.depth(of: map, at: packet.timestamp, warnings: &warnings, context: &context) else { return }
        var all = pairs
        if let queryPort, let queried = packet.nearest(queryPort)?.payload.pixels {
            if queried.count % 2 == 1 {
                warnings.note("odd queries", "'\(queryPort.key.name)' gave \(queried.count) pixels at \(packet.timestamp.nanoseconds) ns: pairs are two pixels each, the last one is left out", context: &context)
            }
            all += stride(from: 0, to: queried.count - 1, by: 2).map { (queried[$0], queried[$0 + 1]) }
        }
        let camera = input.calibration.model
        let measurements = all.map { (a, b) -> Measurement in
            let ra = probe.read(a, depth: depth, camera: camera), rb = probe.read(b, depth: depth, camera: camera)
            guard let ra, let rb else {
                let missing = [(a, ra), (b, rb)].filter { $0.1 == nil }.map { p in
                    camera.contains(p.0) ? "(\(p.0.x), \(p.0.y)) has no valid depth within \(options.window)×\(options.window) px"
                        : "(\(p.0.x), \(p.0.y)) is outside the \(camera.width)×\(camera.height) image"
                }
                return Measurement(from: a, to: b, fromPoint: ra?.point, toPoint: rb?.point, distance: nil, sigma: nil, note: missing.joined(separator: "; "))
            }
            let d = DepthProbe.distance(ra, rb)
            return Measurement(from: a, to: b, fromPoint: ra.point, toPoint: rb.point, distance: d.distance, sigma: d.sigma)
        }
        context.emit(Measurements(measurements: measurements), on: measurementsPort, at: packet.timestamp)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "depth maps", context: &context)
    }
}
