import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxVision

/// Finds and follows known pictures in a camera stream (ARKit's image tracking,
/// `ARImageTrackingConfiguration`): per reference picture, every frame, its pose `T_CI` in
/// metres, its corners in the frame, whether it is tracked and how sure
/// (``PlanarTargetTracker``: ORB matching and a robust homography to find it, Lucas–Kanade on
/// its points to follow it, a planar pose from the homography refined on the reprojection
/// error). Several pictures at once; each is lost when it leaves the view and found again
/// when it returns.
///
/// `reference` lists picture files (PNG, JPEG, PNM), `width` their physical widths (m), one
/// each (or one for all). A picture with too little texture, or a width ≤ 0, is refused at the
/// start with the reason. Emits `<camera>/images` (``ImageAnchors``: one anchor per picture
/// found at least once; while lost, its last pose with `isTracked` false); `parallax run` also
/// writes a CSV per picture.
///
/// Example: `image-track camera=cam0 reference=[poster.jpg,card.png] width=[0.42,0.085]`
public struct ImageTrackAnalyzer: Analyzer {
    public static let name = "image-track"
    public static let summary = "Finds and follows known pictures (files with a physical width): pose T_CI (m), corners, tracked or lost, confidence"

    public struct Options: AnalyzerOptions {
        @Parameter("camera stream") public var camera = "cam0"
        @Parameter("reference picture files (PNG, JPEG, PNM)") public var reference: [String] = []
        @Parameter("physical widths of the pictures (m): one each, or one for all") public var width: [Double] = []
        @Parameter("agreeing points needed to find or keep a picture", range: 6...10_000) public var minInliers = 15
        @Parameter("transfer error below which a point agrees (px)", range: 0.5...50) public var threshold = 3.0
        @Parameter("pictures not in view looked for per frame, in turn (each search matches ORB features and runs RANSAC; a picture returning is found within that many frames); 0: all, every frame", range: 0...1000)
        public var searchPerFrame = 1
        public init() {}
    }

    private let frames: InputPort<CameraFrame>
    private let output: OutputPort<ImageAnchors>
    private let options: Options
    private var pictures: ReferencePictureSet
    private var camera: CameraModel?
    private var assumed = false

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        pictures = try ReferencePictureSet(analyzer: Self.name, reference: options.reference, width: options.width, minInliers: options.minInliers,
                                           threshold: options.threshold, searchPerFrame: options.searchPerFrame)
        self.options = options
        frames = .each(options.camera)
        output = OutputPort("\(options.camera)/images")
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        try pictures.requirePictures(instance: context.instanceName)
        camera = context.metadata(of: frames).camera?.model
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(frames) else { return }
        let gray = GrayImage(frame.image.luma)
        if camera == nil {
            camera = .assumed(width: gray.width, height: gray.height)
            if !assumed {
                assumed = true
                context.warn("'\(options.camera)' carries no camera calibration: assuming a pinhole camera, " + CameraModel.assumption + " (\(gray.width)×\(gray.height) px); poses are in metres only as far as that holds")
            }
        }
        guard let camera else { return }
        var anchors: [ImageAnchor] = []
        for (o, tracker) in zip(pictures.update(gray, camera: camera), pictures.trackers) {
            // A picture found at least once has a (last known) pose.
            guard let pose = o.pose else { continue }
            let r = tracker.reference
            anchors.append(ImageAnchor(name: r.name, pose: pose, physicalWidth: r.physicalWidth, physicalHeight: r.physicalHeight,
                                       isTracked: o.isTracked, confidence: o.confidence, corners: o.corners))
        }
        context.emit(ImageAnchors(anchors: anchors), on: output, at: input.timestamp)
    }
}
