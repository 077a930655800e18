import ParallaxBus
import ParallaxPayloads
import ParallaxFace
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// Where a face looks, for recorded sessions (ARKit apps record face and eye transforms per
/// frame; `face-pose` measures them from irises): each eye's line of sight in the camera frame —
/// head and eye rotations composed, `R_CH · R_HE`, not angles added — the point where the
/// combined line of sight (from between the eyes along the mean direction) meets a screen of
/// given pose and size, fixations by velocity threshold (I-VT), and a heatmap of the fixations
/// on the screen.
///
/// Input: a ``FaceAnchor`` stream (`anchor=`, default `face0/anchor`: Live Link Face takes and
/// `parallax simulate --scene face`), or a ``FacePoses`` stream (`poses=`, `face-pose`'s output;
/// its first face whose eyes were measured). Outputs, named after the input's first component
/// (`face0`): `face0/gaze` (``GazeSample`` per frame), `face0/fixations` (``Fixation``, each when
/// it ends) and `face0/heatmap` (an RGB image over the screen, at the end: fixations splatted
/// with their durations as weights; `parallax run` writes it as a PNG).
///
/// The screen lies in the camera's plane with its axes along the camera's x and y; `screen_x`,
/// `screen_y` place its top-left corner (m, camera frame; default: a phone with the camera
/// centred 1 cm above the screen).
///
/// Example chain: `gaze anchor=face0/anchor screen_width=0.071 screen_height=0.15 velocity=30`
public struct GazeAnalyzer: Analyzer {
    public static let name = "gaze"
    public static let summary = "Lines of sight, where they meet a screen, fixations (I-VT) and a heatmap, from face and eye transforms"

    public struct Options: AnalyzerOptions {
        @Parameter("stream of face anchors (face and eye transforms)") public var anchor: String? = nil
        @Parameter("stream of face poses (face-pose's output), instead of anchor") public var poses: String? = nil
        @Parameter("screen width (m)", range: 0.001...10) public var screenWidth = 0.071
        @Parameter("screen height (m)", range: 0.001...10) public var screenHeight = 0.15
        @Parameter("screen's top-left corner along the camera's x (m); default: centred under the camera") public var screenX: Double? = nil
        @Parameter("screen's top-left corner along the camera's y (m, down)", range: -10...10) public var screenY = 0.01
        @Parameter("I-VT threshold: angular speed below which the eyes fixate (°/s)", range: 1...1000) public var velocity = 30.0
        @Parameter("shortest fixation (s)", range: 0.01...10) public var minFixation = 0.1
        @Parameter("heatmap width (px; height by the screen's aspect)", range: 8...4096) public var heatmapWidth = 200
        @Parameter("heatmap splat radius (σ, m)", range: 0.0001...1) public var heatmapSigma = 0.004
        public init() {}
    }

    private let options: Options
    private let anchors: [InputPort<FaceAnchor>]
    private let poseInputs: [InputPort<FacePoses>]
    private let samples: OutputPort<GazeSample>
    private let fixations: OutputPort<Fixation>
    private let heatmapOutput: OutputPort<CameraFrame>
    private let screen: ScreenPlane
    private var filter: FixationFilter
    private var heatmap: GazeHeatmap
    private var last: Timestamp?
    private var warnings = RepeatedWarnings()

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        guard options.anchor == nil || options.poses == nil else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "poses", reason: "give anchor or poses, not both")
        }
        if let x = options.screenX, !(x.isFinite && abs(x) <= 10) {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "screen_x", reason: "must be within ±10 m, got \(x)")
        }
        self.options = options
        let input = options.poses ?? options.anchor ?? "face0/anchor"
        anchors = options.poses == nil ? [.each(input)] : []
        poseInputs = options.poses.map { [.each($0)] } ?? []
        let face = input.split(separator: "/").first.map(String.init) ?? input
        samples = OutputPort("\(face)/gaze")
        fixations = OutputPort("\(face)/fixations")
        heatmapOutput = OutputPort("\(face)/heatmap")
        screen = ScreenPlane(corner: Vector3(options.screenX ?? -options.screenWidth / 2, options.screenY, 0), width: options.screenWidth, height: options.screenHeight)
        filter = FixationFilter(speedThreshold: options.velocity, minimumDuration: options.minFixation)
        heatmap = GazeHeatmap(screen: screen, width: options.heatmapWidth, sigma: options.heatmapSigma)
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        var anchor: FaceAnchor?
        if let port = anchors.first, let a = input.payload(port) { anchor = a }
        if let port = poseInputs.first, let poses = input.payload(port) {
            guard let face = poses.faces.first(where: \.eyesMeasured) else {
                warnings.note("no eyes", "'\(port.key.name)' at \(input.timestamp.nanoseconds) ns: no face with measured eyes (iris landmarks); no gaze sample", context: &context)
                return
            }
            anchor = face.anchor
        }
        guard let anchor else { return }
        let head = anchor.cameraFromHead
        // Each eye: origin T_CH·t_HE, direction R_CH·R_HE·ẑ.
        let leftOrigin = head * anchor.leftEye.translation, rightOrigin = head * anchor.rightEye.translation
        let leftDirection = (head.rotation * (anchor.leftEye.rotation * Vector3(0, 0, 1))).normalized
        let rightDirection = (head.rotation * (anchor.rightEye.rotation * Vector3(0, 0, 1))).normalized
        let origin = (leftOrigin + rightOrigin) / 2, direction = (leftDirection + rightDirection).normalized
        let point = screen.intersect(origin: origin, direction: direction)
        let step = filter.add(FixationFilter.Sample(time: input.timestamp.seconds, direction: direction, screenPoint: point))
        if let ended = step.ended { emit(ended, at: input.timestamp, context: &context) }
        context.emit(GazeSample(leftOrigin: leftOrigin, leftDirection: leftDirection, rightOrigin: rightOrigin, rightDirection: rightDirection,
                                screenPoint: point, onScreen: point.map(screen.contains) ?? false, angularSpeed: step.speed, fixating: step.fixating),
                     on: samples, at: input.timestamp)
        last = input.timestamp
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        warnings.flush(unit: "frames", context: &context)
        guard let last else { return }
        if let ended = filter.finish() { emit(ended, at: last, context: &context) }
        context.emit(CameraFrame(cameraID: heatmapOutput.key.name, image: heatmap.render()), on: heatmapOutput, at: last)
    }

    /// Emits a fixation at `time` (when it is known to have ended: the sample that ended it, or
    /// the last one) and adds it to the heatmap.
    private mutating func emit(_ found: FixationFilter.Found, at time: Timestamp, context: inout AnalyzerContext) {
        let start = Timestamp(nanoseconds: Int64((found.start * 1e9).rounded())), end = Timestamp(nanoseconds: Int64((found.end * 1e9).rounded()))
        let fixation = Fixation(start: start, end: end, duration: Double(end.nanoseconds - start.nanoseconds) / 1e9,
                                screenPoint: found.screenPoint, direction: found.direction, dispersion: found.dispersion, samples: found.samples)
        if let p = found.screenPoint { heatmap.add(p, weight: fixation.duration) }
        context.emit(fixation, on: fixations, at: time)
    }
}
