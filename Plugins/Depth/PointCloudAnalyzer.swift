import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxVision

/// A depth map's points in 3D (the back-projection ARKit's scene depth and AVDepthData users
/// do by hand): every valid pixel through its camera's ray (lens distortion undone exactly,
/// ``DepthRays``), optionally coloured by the colour frame nearest in time (depth registered to
/// it: same size), optionally thinned by a voxel grid. `parallax run` writes each cloud as a
/// PLY file, `<depth>/points/<t_ns>.ply` (binary; `--ply ascii` for text).
///
/// Example chain: `point-cloud depth=depth color=rgb voxel=0.01` on a TUM RGB-D folder.
public struct PointCloudAnalyzer: Analyzer {
    public static let name = "point-cloud"
    public static let summary = "3D points from each depth map (camera model with distortion), optionally coloured and voxel-downsampled, written as PLY"
    public static let optionsFromData = ["max_depth": "the depth stream's range (a stereo matcher's, a folder's range:)"]

    public struct Options: AnalyzerOptions {
        @Parameter("depth stream (DepthMap: depth, disparity or pixel disparity with its stereo geometry)") public var depth = "depth"
        @Parameter("colour stream registered to the depth (same size), for coloured points; none: uncoloured") public var color: String? = nil
        @Parameter("largest time between a depth map and its colour frame (ms)", range: 0...1000) public var colorToleranceMs = 20.0
        @Parameter("voxel size of the downsampling (m); 0: every point", range: 0...10) public var voxel = 0.0
        @Parameter("use every n-th pixel in x and y", range: 1...64) public var stride = 1
        @Parameter("points farther than this are dropped (m); 0: no limit", range: 0...1000) public var maxDepth = 0.0
        public init() {}
    }

    private let depthPort: InputPort<DepthMap>
    private let colorPort: InputPort<CameraFrame>?
    private let pointsPort: OutputPort<PointCloud>
    private var options: Options
    private var input: DepthInput?
    private var warnings = RepeatedWarnings()

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        depthPort = .each(options.depth)
        colorPort = options.color.map { .nearest($0, tolerance: Int64(options.colorToleranceMs * 1_000_000)) }
        pointsPort = OutputPort("\(options.depth)/points")
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        if !context.isGiven("max_depth"), let range = context.metadata(of: depthPort).depth?.range, range.lowerBound < 1000 {
            // Within the option's own bound (1000 m): a range reaching beyond is cut there.
            options.maxDepth = min(range.upperBound, 1000)
            context.useFromData("max_depth", value: "\(options.maxDepth)",
                                from: "the range of '\(context.stream(of: depthPort))'" + String(format: " (%.4g–%.4g m", range.lowerBound, range.upperBound)
                                    + (range.upperBound > 1000 ? ", cut to 1000 m)" : ")"))
        }
        input = try DepthInput(stream: options.depth, metadata: context.metadata(of: depthPort),
                               registeredTo: colorPort.map { ($0.key.name, context.metadata(of: $0)) }, analyzer: context.instanceName)
    }

    public mutating func process(_ packet: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let map = packet.payload(depthPort), let input,
              let depth = input.depth(of: map, at: packet.timestamp, warnings: &warnings, context: &context) else { return }
        var color: ImageBuffer<UInt8>?
        if let colorPort {
            if let frame = packet.nearest(colorPort)?.payload {
                if frame.image.width == input.rays.width, frame.image.height == input.rays.height, frame.image.channels == 3 || frame.image.channels == 1 {
                    color = frame.image
                } else {
                    warnings.note("colour size", "'\(colorPort.key.name)' is \(frame.image.width)×\(frame.image.height)×\(frame.image.channels), the depth \(input.rays.width)×\(input.rays.height): points left uncoloured", context: &context)
                }
            } else {
                warnings.note("no colour", "no '\(colorPort.key.name)' frame within \(options.colorToleranceMs) ms of '\(options.depth)' at \(packet.timestamp.nanoseconds) ns: points left uncoloured", context: &context)
            }
        }
        let w = input.rays.width, h = input.rays.height, limit = options.maxDepth > 0 ? Float(options.maxDepth) : .infinity
        var points: [SIMD3<Float>] = []
        var colors: [SIMD3<UInt8>] = []
        points.reserveCapacity(w * h / (options.stride * options.stride))
        for v in Swift.stride(from: 0, to: h, by: options.stride) {
            for u in Swift.stride(from: 0, to: w, by: options.stride) {
                let i = v * w + u
                guard depth[i] <= limit, let p = input.rays.point(at: i, depth: depth[i]) else { continue }
                points.append(p)
                if let color {
                    colors.append(color.channels == 3 ? SIMD3(color[u, v, 0], color[u, v, 1], color[u, v, 2]) : SIMD3(repeating: color[u, v, 0]))
                }
            }
        }
        if points.isEmpty { warnings.note("no valid depth", "'\(options.depth)' at \(packet.timestamp.nanoseconds) ns has no valid depth: an empty cloud", context: &context) }
        var cloudColors: [SIMD3<UInt8>]? = color == nil ? nil : colors
        if options.voxel > 0 {
            let thinned = VoxelGrid(size: Float(options.voxel)).downsample(points, colors: cloudColors)
            points = thinned.points
            cloudColors = thinned.colors
        }
        context.emit(PointCloud(points: points, colors: cloudColors, camera: options.depth), on: pointsPort, at: packet.timestamp)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "depth maps", context: &context)
    }
}
