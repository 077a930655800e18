import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxCodecs

/// Ground-truth disparities of a stereo benchmark's left images (Middlebury, KITTI): what the
/// `stereo` evaluation compares a matcher's disparities with.
public struct DisparityTruth: Sendable {
    /// Left-image disparity (px, `x_right = x_left − d`), NaN where unknown.
    public var disparity: ImageBuffer<Float>
    /// Pixels the right camera also sees (`true`), when the benchmark says; `nil`: not known.
    public var nonOccluded: [Bool]?
    /// Where it was read, for messages and report names.
    public var file: String

    public init(disparity: ImageBuffer<Float>, nonOccluded: [Bool]?, file: String) {
        self.disparity = disparity
        self.nonOccluded = nonOccluded
        self.file = file
    }
}

/// A dataset that knows the true disparities of its left camera's frames.
public protocol DisparityTruthProviding {
    /// The camera whose disparities the truth is of (`cam0`).
    var disparityTruthCamera: String { get }
    /// The truth for the left frame at `timestamp`, `nil` when that frame has none. Throws
    /// when its file is unreadable or of another size than the frame.
    func disparityTruth(at timestamp: Timestamp) throws -> DisparityTruth?
}

/// One rectified pair of a stereo benchmark and where its truth is.
public struct StereoPairFiles: Sendable {
    /// When the pair is played (the benchmarks have no times: one pair per 0.1 s).
    public var time: Timestamp
    public var left: String
    public var right: String
    /// Reads the left image's truth (both files, when there are two), or `nil` when it has none.
    public var truth: (@Sendable () throws -> DisparityTruth)?

    public init(time: Timestamp, left: String, right: String, truth: (@Sendable () throws -> DisparityTruth)?) {
        self.time = time
        self.left = left
        self.right = right
        self.truth = truth
    }
}

/// Rectified stereo pairs as two camera streams, `cam0` (left) and `cam1` (right), with one
/// calibration for all pairs (pinhole, no distortion, `cam1` at `+baseline` along x) and the
/// disparity truth of each left image. The readers of Middlebury and KITTI folders
/// (``MiddleburyFormat``, ``KITTIStereoFormat``) build it; images are decoded when asked for.
public final class StereoPairSource: DatasetSource, DeferredPacketSource, DisparityTruthProviding {
    public let formatName: String
    public private(set) var listing = StreamListing()
    public let streams: [StreamDescription]
    public let groundTruth: Trajectory? = nil
    public let missingImages: [String: Int]
    public let disparityTruthCamera = "cam0"
    /// The pairs, in time order.
    public let pairs: [StereoPairFiles]
    private var rows = IndexedRows()

    /// Pairs of `left`-camera and `right`-camera images; `listedIn` names the file or folder
    /// that lists them (for messages). Every image must have the calibrated size.
    /// `disparitySearch`: the disparities the benchmark says its pairs need (on `cam0`'s partner).
    public init(formatName: String, pairs: [StereoPairFiles], left: CameraCalibration, right: CameraCalibration, disparitySearch: DisparitySearch? = nil,
                listedIn: String, strict: Bool) throws {
        self.formatName = formatName
        self.pairs = pairs
        var partners = StereoPartner.pairs(["cam0": left, "cam1": right])
        partners["cam0"]?.disparitySearch = disparitySearch
        streams = [StreamDescription(StreamKey<CameraFrame>("cam0"), metadata: StreamMetadata(camera: left, stereo: partners["cam0"])),
                   StreamDescription(StreamKey<CameraFrame>("cam1"), metadata: StreamMetadata(camera: right, stereo: partners["cam1"]))]
        var rows = IndexedRows()
        var listing = StreamListing()
        for (i, pair) in pairs.enumerated() {
            for (rank, stream, path, calibration) in [(0, "cam0", pair.left, left), (1, "cam1", pair.right, right)] {
                listing.record(stream: stream, timestamp: pair.time, file: listedIn, line: i + 1)
                rows.addImage(at: pair.time, rank: rank, stream: stream, path: path, listedAs: (path as NSString).lastPathComponent, in: listedIn, line: i + 1) { path in
                    let image = try ImageDecoder.decode8Bit(path: path)
                    try ImageDecodingError.checkSize(path: path, width: image.width, height: image.height, calibration: calibration)
                    return AnyPacket(stream: stream, timestamp: pair.time, payload: CameraFrame(cameraID: stream, image: image))
                }
            }
        }
        try listing.validate()
        self.listing = listing
        missingImages = try rows.dropMissingImages(strict: strict)
        self.rows = rows
    }

    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }

    public func disparityTruth(at timestamp: Timestamp) throws -> DisparityTruth? {
        guard let pair = pairs.first(where: { $0.time == timestamp }), let truth = pair.truth else { return nil }
        return try truth()
    }

    /// The calibration of a rectified pair: both cameras pinhole with focal length `f` (px),
    /// principal points `(cx0, cy)` and `(cx1, cy)` (they may differ along x: the disparity
    /// offset `doffs = cx1 − cx0` of Middlebury's `Z = f·B / (d + doffs)`), the right camera
    /// `baseline` (m) to the right of the left one.
    public static func rectifiedCalibration(width: Int, height: Int, focalLength f: Double, cx0: Double, cx1: Double, cy: Double,
                                            baseline: Double) -> (left: CameraCalibration, right: CameraCalibration) {
        let left = CameraModel(width: width, height: height, intrinsics: PinholeIntrinsics(fx: f, fy: f, cx: cx0, cy: cy))
        let right = CameraModel(width: width, height: height, intrinsics: PinholeIntrinsics(fx: f, fy: f, cx: cx1, cy: cy))
        return (CameraCalibration(model: left), CameraCalibration(model: right, bodyFromSensor: SE3(rotation: .identity, translation: Vector3(baseline, 0, 0))))
    }
}
