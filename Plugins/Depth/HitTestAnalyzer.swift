import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxVision

/// Pixels into the world (ARKit's hit test / raycast): for each pixel, where its ray meets the
/// depth map (the median depth of a small window, ``DepthProbe``) and the detected planes it
/// crosses inside their boundaries (from a `planes` stream), nearest first, each with its σ
/// along the ray from the depth noise model. Pixels come from the `pixels` option, from a
/// stream of ``PixelQueries``, or both; with neither, the image centre (the reticle of a
/// measuring app). A pixel outside the image, or without valid depth
/// nearby and no plane, gets no hit and a note saying why (the stream goes on).
///
/// Example chain: `planes ! hit-test pixels=[[320,240],[100,400]] planes=depth/planes`.
public struct HitTestAnalyzer: Analyzer {
    public static let name = "hit-test"
    public static let summary = "Pixels to 3D points on the depth map and on detected planes (ARKit's hit test), with σ from the depth noise"

    public struct Options: AnalyzerOptions {
        @Parameter("depth stream (DepthMap)") public var depth = "depth"
        @Parameter("pixels to test, [[u, v], …] (px); with no queries either: the image centre") public var pixels: [[Double]] = []
        @Parameter("stream of pixels to test (PixelQueries), joined to the nearest depth map; none") public var queries: String? = nil
        @Parameter("stream of detected planes (the planes analyzer's <depth>/planes, in the camera's frame); none: depth only") public var planes: String? = nil
        @Parameter("window whose median depth is read (px, odd)", range: 1...63) public var window = 5
        @Parameter("depth noise model: kinect or exact") public var noise = DepthNoiseOption.kinect
        @Parameter("largest time between a depth map and its queries or planes (ms)", range: 0...10_000) public var toleranceMs = 50.0
        public init() {}
    }

    private let depthPort: InputPort<DepthMap>
    private let queryPort: InputPort<PixelQueries>?
    private let planePort: InputPort<DetectedPlanes>?
    private let hitsPort: OutputPort<HitTestResults>
    private let options: Options
    private let pixels: [Vector2]
    private let probe: DepthProbe
    private var input: DepthInput?
    private var warnings = RepeatedWarnings()

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        pixels = try PixelList.parse(options.pixels, option: "pixels", analyzer: Self.name).map { $0[0] }
        self.options = options
        let tolerance = Int64(options.toleranceMs * 1_000_000)
        depthPort = .each(options.depth)
        queryPort = options.queries.map { .nearest($0, tolerance: tolerance) }
        planePort = options.planes.map { .nearest($0, tolerance: tolerance) }
        hitsPort = OutputPort("\(options.depth)/hits")
        probe = DepthProbe(window: options.window, noise: options.noise.model)
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        input = try DepthInput(stream: options.depth, metadata: context.metadata(of: depthPort), registeredTo: nil, analyzer: context.instanceName)
    }

    public mutating func process(_ packet: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let map = packet.payload(depthPort), let input,
              let depth = input.depth(of: map, at: packet.timestamp, warnings: &warnings, context: &context) else { return }
        let camera = input.calibration.model
        let centre = pixels.isEmpty && queryPort == nil ? [Vector2(Double(camera.width - 1) / 2, Double(camera.height - 1) / 2)] : []
        let asked = pixels + centre + (queryPort.flatMap { packet.nearest($0)?.payload.pixels } ?? [])
        // Each plane once per frame: the plane, its in-plane frame and its boundary there.
        var planes: [(anchor: PlaneAnchor, plane: Plane, frame: PlaneFrame, boundary: [Vector2])] = []
        if let planePort, let detected = packet.nearest(planePort)?.payload {
            if detected.frame == "camera" {
                planes = detected.planes.map { anchor in
                    let plane = Plane(normal: anchor.normal, offset: anchor.offset)
                    let frame = PlaneFrame(plane)
                    return (anchor, plane, frame, ConvexHull.of(anchor.boundary.map(frame.flat)))
                }
            } else {
                warnings.note("world planes", "'\(planePort.key.name)' holds planes in the \(detected.frame) frame; hit-test uses planes in the camera's frame (run planes without poses): depth hits only", context: &context)
            }
        }
        var results: [PixelHits] = []
        for pixel in asked {
            guard camera.contains(pixel) else {
                results.append(PixelHits(pixel: pixel, hits: [], note: "outside the \(camera.width)×\(camera.height) image"))
                continue
            }
            var hits: [HitTestResult] = []
            if let reading = probe.read(pixel, depth: depth, camera: camera) {
                hits.append(HitTestResult(kind: .depth, point: reading.point, distance: reading.point.norm, sigma: reading.sigma))
            }
            if !planes.isEmpty, let n = try? camera.normalized(pixel) {
                let ray = Vector3(n.x, n.y, 1)
                for (anchor, plane, frame, boundary) in planes {
                    guard let t = plane.intersection(ofRayAlong: ray) else { continue }
                    let point = t * ray
                    guard ConvexHull.contains(boundary, frame.flat(point)) else { continue }
                    // σ along the ray: the plane's fit is far surer than one pixel; its rms over the ray's angle.
                    let cosine = max(0.05, abs(plane.normal.dot(ray.normalized)))
                    hits.append(HitTestResult(kind: .plane, point: point, distance: point.norm, sigma: anchor.rms / cosine / Double(max(1, anchor.points)).squareRoot(), planeID: anchor.id))
                }
            }
            hits.sort { $0.distance < $1.distance }
            results.append(PixelHits(pixel: pixel, hits: hits, note: hits.isEmpty ? "no valid depth within the \(options.window)×\(options.window) window and no plane" : nil))
        }
        context.emit(HitTestResults(results: results), on: hitsPort, at: packet.timestamp)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "depth maps", context: &context)
    }
}

/// Pixel lists given as options: `[[u, v], …]`, or `[[u1, v1, u2, v2], …]` for pairs.
enum PixelList {
    /// Each entry's `perEntry` pixels.
    static func parse(_ list: [[Double]], perEntry: Int = 1, option: String, analyzer: String) throws -> [[Vector2]] {
        try list.enumerated().map { (k, entry) in
            guard entry.count == 2 * perEntry, entry.allSatisfy(\.isFinite) else {
                let form = perEntry == 1 ? "[u, v] (two" : "[u1, v1, u2, v2] (four"
                throw AnalyzerError.invalidOption(analyzer: analyzer, option: option, reason: "entry \(k + 1) must be \(form) finite numbers, px), got \(entry)")
            }
            return (0..<perEntry).map { Vector2(entry[2 * $0], entry[2 * $0 + 1]) }
        }
    }
}
