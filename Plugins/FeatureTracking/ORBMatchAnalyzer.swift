import ParallaxBus
import ParallaxPayloads
import ParallaxVision
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// Wide-baseline matching: ORB features of each frame matched by descriptor to a reference
/// frame (the previous one, or the first), filtered by the ratio test and a mutual check,
/// then checked by RANSAC against a homography or a fundamental matrix. Where KLT needs small
/// motion between consecutive frames, this survives zoom, rotation and large viewpoint
/// changes (relocalization, loop-closure candidates, image registration).
///
/// The first frame has no reference and produces no output.
///
/// Example chain: `orb-match camera=cam0 reference=first model=homography`
public struct ORBMatchAnalyzer: Analyzer {
    public static let name = "orb-match"
    public static let summary = "ORB features matched to the previous or first frame, with a RANSAC homography or fundamental matrix"

    /// The frame each frame is matched against.
    public enum Reference: String, CaseIterable, OptionValue { case previous, first }
    /// The two-view geometry RANSAC checks.
    public enum Model: String, CaseIterable, OptionValue { case homography, fundamental, none }

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream to match (output: <camera>/matches)") public var camera = "cam0"
        @Parameter("ORB features per frame", range: 1...100_000) public var maxFeatures = 1000
        @Parameter("scale pyramid levels", range: 1...16) public var levels = 8
        @Parameter("size ratio between pyramid levels", rule: "in (1, 2]", validate: { $0 > 1 && $0 <= 2 ? nil : "must be in (1, 2]" })
        public var scaleFactor = 1.2
        @Parameter("FAST intensity threshold (gray levels)", range: 1...255) public var fastThreshold = 20.0
        @Parameter("frame to match against") public var reference = Reference.previous
        @Parameter("largest descriptor distance accepted (bits of 256)", range: 0...255) public var maxDistance = 64
        @Parameter("Lowe's ratio test: best distance below ratio × second best (1 disables)", rule: "in (0, 1]", validate: { $0 > 0 && $0 <= 1 ? nil : "must be in (0, 1]" })
        public var ratio = 0.8
        @Parameter("keep only mutual nearest neighbours") public var crossCheck = true
        @Parameter("geometry checked by RANSAC") public var model = Model.homography
        @Parameter("RANSAC inlier threshold (px; transfer error for a homography, Sampson error for F)", range: 1e-6...1000)
        public var ransacThreshold = 3.0
        public init() {}
    }

    private struct ReferenceFrame {
        var timestamp: Timestamp
        var features: [ORBFeature]
        /// `features`' descriptors, gathered once (a `first` reference is matched every frame).
        var descriptors: [BinaryDescriptor]
    }

    private let frames: InputPort<CameraFrame>
    private let output: OutputPort<FeatureMatches>
    private let options: Options
    private var extractor = ORBExtractor()
    private var matcher = DescriptorMatcher()
    private var reference: ReferenceFrame?
    /// The camera, from the frames stream's metadata (read in `open`).
    private var calibration: CameraCalibration?

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        self.options = options
        frames = .each(options.camera)
        output = OutputPort("\(options.camera)/matches")
        extractor.maxFeatures = options.maxFeatures
        extractor.levels = options.levels
        extractor.scaleFactor = Float(options.scaleFactor)
        extractor.fastThreshold = Float(options.fastThreshold)
        matcher.maxDistance = options.maxDistance
        matcher.ratio = options.ratio
        matcher.crossCheck = options.crossCheck
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        // Matches are measured in this camera's pixels: forward its description.
        let camera = context.metadata(of: frames)
        calibration = camera.camera
        context.describe(output, as: StreamMetadata(camera: camera.camera))
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames) else { return }
        let features = extractor.extract(GrayImage(frame.image))
        let descriptors = features.map(\.descriptor)
        let earlier = reference
        if earlier == nil || options.reference == .previous { reference = ReferenceFrame(timestamp: input.timestamp, features: features, descriptors: descriptors) }
        guard let reference = earlier else { return }
        let found = matcher.match(reference.descriptors, descriptors)
        // The models hold for undistorted pixels: undistort when the camera is calibrated (the
        // threshold keeps its unit, px); the matches are reported at the pixels found.
        let camera = calibration?.model
        let a = found.map { camera?.undistortedPixel(reference.features[$0.queryIndex].pixel) ?? reference.features[$0.queryIndex].pixel }
        let b = found.map { camera?.undistortedPixel(features[$0.trainIndex].pixel) ?? features[$0.trainIndex].pixel }
        var inliers = Set(found.indices)
        var model: TwoViewModel?
        switch options.model {
        case .homography:
            if let estimate = Homography.estimate(a, b, threshold: options.ransacThreshold) {
                model = TwoViewModel(kind: .homography, matrix: estimate.homography)
                inliers = Set(estimate.inliers)
            }
        case .fundamental where found.count >= 8:
            let ransac = RANSAC<Matrix3>(minimalSampleSize: 8, threshold: options.ransacThreshold, confidence: 0.999, maxIterations: 1000, seed: 0)
            if let result = try? ransac.run(dataCount: a.count,
                                            fit: { idx in FundamentalMatrix.eightPoint(idx.map { a[$0] }, idx.map { b[$0] }) },
                                            residual: { f, i in FundamentalMatrix.sampsonError(f, a[i], b[i]) },
                                            refit: { idx in FundamentalMatrix.eightPoint(idx.map { a[$0] }, idx.map { b[$0] }) }) {
                model = TwoViewModel(kind: .fundamental, matrix: result.model)
                inliers = Set(result.inliers)
            }
        default:
            break
        }
        if options.model != .none, model == nil { inliers = [] }
        let matches = found.indices.map { i in
            FeatureMatch(referencePixel: reference.features[found[i].queryIndex].pixel, pixel: features[found[i].trainIndex].pixel,
                         distance: found[i].distance, inlier: inliers.contains(i))
        }
        context.emit(FeatureMatches(camera: options.camera, referenceTimestamp: reference.timestamp, featureCount: features.count,
                                    referenceFeatureCount: reference.features.count, matches: matches, model: model),
                     on: output, at: input.timestamp)
    }
}
