import ParallaxCore
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

    public struct Options: AnalyzerOptions {
        public var camera = "cam0"
        public var maxFeatures = 1000
        public var levels = 8
        public var scaleFactor = 1.2
        public var fastThreshold = 20.0
        public var reference = "previous"
        public var maxDistance = 64
        public var ratio = 0.8
        public var crossCheck = true
        public var model = "homography"
        public var ransacThreshold = 3.0
        public init() {}
        public static let documentation = [
            "camera": "camera stream to match (output: <camera>/matches)",
            "maxFeatures": "ORB features per frame",
            "levels": "scale pyramid levels",
            "scaleFactor": "size ratio between pyramid levels (> 1)",
            "fastThreshold": "FAST intensity threshold (gray levels)",
            "reference": "frame to match against: previous or first",
            "maxDistance": "largest descriptor distance accepted (bits of 256)",
            "ratio": "Lowe's ratio test: best distance below ratio × second best (1 disables)",
            "crossCheck": "keep only mutual nearest neighbours",
            "model": "geometry checked by RANSAC: homography, fundamental or none",
            "ransacThreshold": "RANSAC inlier threshold (px; transfer error for a homography, Sampson error for F)",
        ]
    }

    private struct Reference {
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
    private var reference: Reference?
    /// The camera, from the frames stream's metadata (read in `open`).
    private var calibration: CameraCalibration?

    public init(options: Options) throws {
        func invalid(_ option: String, _ reason: String) -> AnalyzerError { .invalidOption(analyzer: Self.name, option: option, reason: reason) }
        guard options.maxFeatures > 0 else { throw invalid("max_features", "must be positive") }
        guard (1...16).contains(options.levels) else { throw invalid("levels", "must be 1…16") }
        guard options.scaleFactor > 1, options.scaleFactor <= 2 else { throw invalid("scale_factor", "must be in (1, 2]") }
        guard (0...255).contains(options.maxDistance) else { throw invalid("max_distance", "must be 0…255") }
        guard options.ratio > 0, options.ratio <= 1 else { throw invalid("ratio", "must be in (0, 1]") }
        guard ["previous", "first"].contains(options.reference) else { throw invalid("reference", "must be previous or first, got '\(options.reference)'") }
        guard ["homography", "fundamental", "none"].contains(options.model) else {
            throw invalid("model", "must be homography, fundamental or none, got '\(options.model)'")
        }
        guard options.ransacThreshold > 0 else { throw invalid("ransac_threshold", "must be positive") }
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

    public var inputs: [PortDescription] { [frames.erased] }
    public var outputs: [PortDescription] { [output.erased] }

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
        if earlier == nil || options.reference == "previous" { reference = Reference(timestamp: input.timestamp, features: features, descriptors: descriptors) }
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
        case "homography":
            if let estimate = Homography.estimate(a, b, threshold: options.ransacThreshold) {
                model = TwoViewModel(kind: .homography, matrix: estimate.homography)
                inliers = Set(estimate.inliers)
            }
        case "fundamental" where found.count >= 8:
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
        if options.model != "none", model == nil { inliers = [] }
        let matches = found.indices.map { i in
            FeatureMatch(referencePixel: reference.features[found[i].queryIndex].pixel, pixel: features[found[i].trainIndex].pixel,
                         distance: found[i].distance, inlier: inliers.contains(i))
        }
        context.emit(FeatureMatches(camera: options.camera, referenceTimestamp: reference.timestamp, featureCount: features.count,
                                    referenceFeatureCount: reference.features.count, matches: matches, model: model),
                     on: output, at: input.timestamp)
    }
}
