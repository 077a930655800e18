import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxVision

/// Depth for a camera's frames (ARKit's `capturedDepthData` on each `ARFrame`): every frame
/// of `camera` gets the depth map nearest in time within `tolerance_ms`, registered into that
/// camera (``DepthRegistration``: through both calibrations and their places on the body), as
/// `<camera>/depth` at the frame's time. Depth usually runs slower than colour: frames without a
/// depth map close enough get none (ARKit's `nil`), and none is made up.
///
/// Example chain: `depth-register depth=depth0 camera=cam1 ! point-cloud depth=cam1/depth color=cam1`.
public struct DepthRegisterAnalyzer: Analyzer {
    public static let name = "depth-register"
    public static let summary = "Depth registered into a camera's frames (extrinsics, z-buffer), joined by time; frames without depth get none"

    public struct Options: AnalyzerOptions {
        @Parameter("depth stream (DepthMap)") public var depth = "depth"
        @Parameter("camera stream whose frames get depth (its calibration: intrinsics, distortion, T_BS)") public var camera = "cam0"
        @Parameter("largest time between a frame and its depth map (ms)", range: 0...1000) public var toleranceMs = 20.0
        public init() {}
    }

    private let framePort: InputPort<CameraFrame>
    private let depthPort: InputPort<DepthMap>
    private let registeredPort: OutputPort<DepthMap>
    private let options: Options
    private var input: DepthInput?
    private var target: CameraCalibration?
    private var targetFromSource = SE3.identity
    private var warnings = RepeatedWarnings()

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        guard options.depth != options.camera else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "camera", reason: "must name a camera stream, not the depth stream '\(options.depth)'")
        }
        self.options = options
        framePort = .each(options.camera)
        depthPort = .nearest(options.depth, tolerance: Int64(options.toleranceMs * 1_000_000))
        registeredPort = OutputPort("\(options.camera)/depth")
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        let source = try DepthInput(stream: options.depth, metadata: context.metadata(of: depthPort), registeredTo: nil, analyzer: context.instanceName)
        let camera = try context.cameraCalibration(of: framePort)
        input = source
        target = camera
        // T_TS = T_BT⁻¹ · T_BS.
        targetFromSource = camera.bodyFromSensor.inverse * source.calibration.bodyFromSensor
        context.describe(registeredPort, as: StreamMetadata(depth: DepthSensor(kind: .depth, camera: camera)))
    }

    public mutating func process(_ packet: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard packet.payload(framePort) != nil, let input, let target else { return }
        // No depth close enough in time: this frame has none.
        guard let map = packet.nearest(depthPort) else { return }
        guard let depth = input.depth(of: map.payload, at: map.timestamp, warnings: &warnings, context: &context) else { return }
        let registered = DepthRegistration.register(depth, rays: input.rays, into: target.model, targetFromSource: targetFromSource)
        context.emit(DepthMap(sensorID: options.camera, kind: .depth, values: ImageBuffer(width: target.model.width, height: target.model.height, samples: registered)),
                     on: registeredPort, at: packet.timestamp)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "depth maps", context: &context)
    }
}
