import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// Faces and their iBUG 68 landmarks from pixels (Vision's face-landmarks request for dataset
/// folders): dlib's HOG frontal face detector and its 68-point shape predictor (Debian's
/// `libdlib-dev`, the model from `libdlib-data`), several faces per frame, each with a detection
/// score and an id that stays with the face while it is in view (a face is the one of the
/// previous frame whose box it overlaps most, IoU ≥ `match_iou`; otherwise it gets a new id).
///
/// Emits `<camera>/faces` (``DetectedFaces``, every frame, possibly none), described with the
/// camera's calibration when it has one (`face-pose` then works under the real intrinsics; without
/// one it assumes a focal length of the image width and says so).
///
/// `upsample` doubles the image before detecting (once or twice): the detector's window is
/// 80 px, so faces down to about 80 / 2^upsample px are found, at about 4× the time per step.
/// Landmarks are whole pixels of the (upsampled) image: dlib rounds them.
///
/// Example chain: `face-landmarks camera=cam0 upsample=1 ! face-pose faces=cam0/faces`
public struct FaceLandmarksAnalyzer: Analyzer {
    public static let name = "face-landmarks"
    public static let summary = "Faces and their 68 landmarks from pixels (dlib HOG detector + shape predictor), stable ids, scores"

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream") public var camera = "cam0"
        @Parameter("times the image is doubled before detecting (finds faces down to 80 / 2^upsample px)", range: 0...2) public var upsample = 0
        @Parameter("detector score threshold (dlib's HOG margin; lower finds more, and more false faces)", range: -2...5) public var threshold = 0.0
        @Parameter("faces per frame at most (best scores kept)", range: 1...64) public var maxFaces = 8
        @Parameter("overlap (IoU) with a face of the previous frame that keeps its id", range: 0.01...1) public var matchIou = 0.3
        @Parameter("dlib's 68-point shape predictor (libdlib-data installs it here)") public var model = DlibFaceDetector.defaultModel
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let output: OutputPort<DetectedFaces>
    private let options: Options
    private var detector: DlibFaceDetector?
    private var previous: [(id: UInt64, box: BoundingBox)] = []
    private var nextID: UInt64 = 1

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        frames = .each(options.camera)
        output = OutputPort("\(options.camera)/faces")
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        do {
            detector = try DlibFaceDetector(model: options.model)
        } catch {
            throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "model",
                                              reason: "cannot load dlib's shape predictor '\(options.model)': \(error.message) (Debian: apt-get install libdlib-data)")
        }
        context.describe(output, as: StreamMetadata(camera: context.metadata(of: frames).camera))
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames), let detector else { return }
        let gray = frame.image.luma
        let found: [DlibFaceDetector.Face]
        do {
            found = try detector.detect(gray, upsample: options.upsample, threshold: options.threshold, maxFaces: options.maxFaces)
        } catch {
            throw FaceLandmarksError.detectorFailed(stream: options.camera, timestamp: input.timestamp.nanoseconds, message: error.message)
        }
        let ids = Self.associate(found.map(\.box), with: previous, minimumIoU: options.matchIou, nextID: &nextID)
        let faces = zip(found, ids).map { face, id in
            DetectedFace(id: id, box: face.box, score: face.score, landmarks: FaceLandmarks(points: face.points, scheme: .ibug68))
        }
        previous = faces.map { ($0.id, $0.box) }
        context.emit(DetectedFaces(imageWidth: gray.width, imageHeight: gray.height, faces: faces), on: output, at: input.timestamp)
    }

    /// Ids for `boxes`: greedily, the pair of a box and a previous face with the largest overlap
    /// first, each previous face used once, IoU ≥ `minimumIoU`; the rest get new ids.
    static func associate(_ boxes: [BoundingBox], with previous: [(id: UInt64, box: BoundingBox)], minimumIoU: Double, nextID: inout UInt64) -> [UInt64] {
        var pairs: [(iou: Double, box: Int, face: Int)] = []
        for (b, box) in boxes.enumerated() {
            for (f, face) in previous.enumerated() {
                let iou = box.iou(face.box)
                if iou >= minimumIoU { pairs.append((iou, b, f)) }
            }
        }
        pairs.sort { ($0.iou, -$0.box, -$0.face) > ($1.iou, -$1.box, -$1.face) }
        var ids = [UInt64?](repeating: nil, count: boxes.count)
        var used = Set<Int>()
        for p in pairs where ids[p.box] == nil && !used.contains(p.face) {
            ids[p.box] = previous[p.face].id
            used.insert(p.face)
        }
        return ids.map { id in
            if let id { return id }
            defer { nextID += 1 }
            return nextID
        }
    }
}

/// Why a frame could not be searched for faces.
public enum FaceLandmarksError: Error, Equatable, CustomStringConvertible {
    case detectorFailed(stream: String, timestamp: Int64, message: String)

    public var description: String {
        switch self {
        case let .detectorFailed(stream, timestamp, message): return "face-landmarks: stream '\(stream)' at \(timestamp) ns: dlib failed: \(message)"
        }
    }
}
