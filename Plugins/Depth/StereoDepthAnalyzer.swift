import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxVision
import ParallaxFiles

/// Dense depth from a stereo pair (AVDepthData from two cameras): each frame of the left camera
/// and its partner's frame at the same time are rectified from the calibration (undistorted
/// and turned onto one image plane, the tables computed once), matched by semi-global matching
/// (``SemiGlobalMatching``: census cost, 8 or 4 paths, left-right check, sub-pixel, speckle
/// filter), and emitted as a disparity map (`<left>/disparity`, px) and a depth map
/// (`<left>/depth`, m), both in the rectified left camera, NaN where no match passed the checks.
///
/// A pair already rectified (no distortion, equal intrinsics, parallel axes, baseline along x:
/// Middlebury, KITTI) is matched as it is (`rectify=auto`).
///
/// The disparities searched follow the data unless `disparities=` is given: the range the
/// dataset states (Middlebury's `ndisp`, KITTI's), else what the rig's baseline needs to see
/// down to `near` metres (`f·B / near`, rounded up to a multiple of 16); the run says which.
///
/// Example chain: `stereo-depth left=cam0 right=cam1` (`chains/stereo-depth.yaml`).
public struct StereoDepthAnalyzer: Analyzer {
    public static let name = "stereo-depth"
    public static let summary = "Dense disparity and depth from a calibrated stereo pair (rectification + semi-global matching)"
    public static let optionsFromData = [
        "disparities": "the dataset's range (Middlebury calib.txt ndisp, KITTI: 256), else f·B / near rounded up to 16 (f, B: the rectified pair's focal length and baseline)",
    ]

    /// When the pair is resampled.
    public enum Rectify: String, CaseIterable, OptionValue {
        /// When the calibration says the pair is not rectified already.
        case auto
        /// Always (through the calibration).
        case always
        /// Never: the images are taken as rectified (rows aligned, baseline along x).
        case never
    }

    public struct Options: AnalyzerOptions {
        @Parameter("left camera stream (disparities are of its pixels)") public var left = "cam0"
        @Parameter("right camera stream (the partner, frames at the same times)") public var right = "cam1"
        /// The matching's own options (disparities, paths, p1, p2, …: ``SemiGlobalMatching/Options``).
        public var matching = SemiGlobalMatching.Options()
        @Parameter("rectify the pair from the calibration: auto (when not rectified already), always, never") public var rectify = Rectify.auto
        @Parameter("largest time difference between the left frame and its partner (ms)", range: 0...1000) public var pairToleranceMs = 1.0
        @Parameter("nearest depth the search reaches when disparities come from the baseline (m)", range: 0.01...1000) public var near = 0.5
        public init() {}
    }

    private let leftPort: InputPort<CameraFrame>
    private let rightPort: InputPort<CameraFrame>
    private let disparityPort: OutputPort<DepthMap>
    private let depthPort: OutputPort<DepthMap>
    private var options: Options
    private var matcher: SemiGlobalMatching
    /// The rectification tables of both cameras (`nil` when the pair is matched as it is).
    private var tables: (left: RemapTable, right: RemapTable)?
    /// Rectified left pixels (row-major indices) the left camera did not see: no disparity there.
    private var unseen: [Int] = []
    /// Disparity (px) to depth (m).
    private var geometry = DepthMap.StereoGeometry(focalLength: 1, baseline: 1)
    /// The image size the pair has (from the calibration).
    private var size: (width: Int, height: Int)?
    private var missingPartners = 0

    public init(options: Options) throws {
        try options.checkRanges(analyzer: Self.name)
        guard options.matching.p2 > options.matching.p1 else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "p2", reason: "must exceed p1 (\(options.matching.p1)), got \(options.matching.p2)")
        }
        guard options.left != options.right else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "right", reason: "must name another camera than left ('\(options.left)')")
        }
        self.options = options
        leftPort = .each(options.left)
        rightPort = .latest(options.right, tolerance: Int64(options.pairToleranceMs * 1_000_000))
        disparityPort = OutputPort("\(options.left)/disparity")
        depthPort = OutputPort("\(options.left)/depth")
        matcher = SemiGlobalMatching(options: options.matching)
    }

    public mutating func open(context: inout AnalyzerContext) throws {
        let left = try context.cameraCalibration(of: leftPort), right = try context.cameraCalibration(of: rightPort)
        // T_C1C0 from the two cameras' places on the body.
        let rightFromLeft = right.bodyFromSensor.inverse * left.bodyFromSensor
        let rectification: StereoRectification
        do {
            rectification = try StereoRectification(left: left.model, right: right.model, rightFromLeft: rightFromLeft)
        } catch {
            throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "left/right", reason: "\(error)")
        }
        // The right camera sits to the right of the left one (T_C1C0 moves points towards −x):
        // swapped, every match would be searched the wrong way and nearly none found.
        if rightFromLeft.translation.x > 0, abs(rightFromLeft.translation.x) > abs(rightFromLeft.translation.y) {
            throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "left/right",
                                              reason: "'\(options.right)' is " + String(format: "%.1f", rightFromLeft.translation.x * 1000)
                                                + " mm to the left of '\(options.left)', not to its right: swap left= and right=")
        }
        let rectifiedAlready = StereoRectification.isRectified(left: left.model, right: right.model, rightFromLeft: rightFromLeft, tolerance: 1e-4)
        let resample = options.rectify == .always || (options.rectify == .auto && !rectifiedAlready)
        guard left.model.width >= 2 else {
            throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "left/right",
                                              reason: "the pair is \(left.model.width) px wide: a disparity search needs at least 2 px")
        }
        if !context.isGiven("disparities") {
            // A pair matched as it is keeps its principal points' offset (Middlebury's doffs);
            // a rectified one has none.
            let search = searchFromData(stated: context.metadata(of: leftPort).stereo?.disparitySearch, rectification: rectification,
                                        doffs: resample ? 0 : right.model.intrinsics.cx - left.model.intrinsics.cx,
                                        width: left.model.width, height: left.model.height)
            options.matching.disparities = search.levels
            matcher = SemiGlobalMatching(options: options.matching)
            context.useFromData("disparities", value: "\(search.levels)", from: search.origin)
        }
        let most = SemiGlobalMatching.mostDisparities(width: left.model.width, height: left.model.height)
        guard options.matching.disparities <= most else {
            throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "disparities",
                                              reason: "\(options.matching.disparities) are too many for \(left.model.width)×\(left.model.height) px pairs (at most \(most): \(SemiGlobalMatching.maxVolume) cost entries)")
        }
        guard options.matching.disparities < left.model.width else {
            throw AnalyzerError.invalidOption(analyzer: context.instanceName, option: "disparities",
                                              reason: "\(options.matching.disparities) is not below the image width (\(left.model.width) px)")
        }
        size = (left.model.width, left.model.height)
        let rectifiedLeft: CameraCalibration
        if resample {
            let l = rectification.sourceTable(camera: .left), r = rectification.sourceTable(camera: .right)
            let w = rectification.rectified.width, h = rectification.rectified.height
            tables = (try RemapTable(width: w, height: h, x: l.x, y: l.y, sourceWidth: left.model.width, sourceHeight: left.model.height),
                      try RemapTable(width: w, height: h, x: r.x, y: r.y, sourceWidth: right.model.width, sourceHeight: right.model.height))
            if let leftTable = tables?.left { unseen = (0..<(w * h)).filter { !leftTable.covers(x: $0 % w, y: $0 / w) } }
            geometry = DepthMap.StereoGeometry(focalLength: rectification.focalLength, baseline: rectification.baseline)
            // The rectified left camera: the ideal model, turned by the rectification.
            rectifiedLeft = CameraCalibration(model: rectification.rectified,
                                              bodyFromSensor: left.bodyFromSensor * SE3(rotation: rectification.leftRotation.inverse, translation: .zero))
        } else {
            // Taken as rectified: Middlebury's convention, Z = f·B / (d + doffs), doffs the
            // difference of the principal points' columns.
            geometry = DepthMap.StereoGeometry(focalLength: left.model.intrinsics.fx, baseline: rectification.baseline,
                                               doffs: right.model.intrinsics.cx - left.model.intrinsics.cx)
            rectifiedLeft = left
        }
        // The depths the search can give: from the largest disparity to 1 px (beyond, a quarter
        // pixel of error is a quarter of the distance).
        let fB = geometry.focalLength * geometry.baseline
        let near = fB / (Double(options.matching.disparities - 1) + geometry.doffs), far = fB / (1 + geometry.doffs)
        let measured = near.isFinite && far.isFinite && near > 0 && near < far ? near...far : nil
        context.describe(disparityPort, as: StreamMetadata(depth: DepthSensor(kind: .pixelDisparity, camera: rectifiedLeft, range: measured)))
        context.describe(depthPort, as: StreamMetadata(depth: DepthSensor(kind: .depth, camera: rectifiedLeft, range: measured)))
    }

    /// The disparities to search when none were given: the dataset's stated range, else what
    /// reaches `near` metres with the pair's focal length and baseline (`f·B / near − doffs`,
    /// rounded up to a multiple of 16, at least 16); below the image `width`, at most 1024 (the
    /// option's bound) and what the matcher can hold for `width × height` pairs.
    private func searchFromData(stated: DisparitySearch?, rectification: StereoRectification, doffs: Double, width: Int, height: Int) -> DisparitySearch {
        // At least 2 where the width allows (a 2 px pair: 1, the only disparity below its width).
        let widest = max(1, min(width - 1, 1024, SemiGlobalMatching.mostDisparities(width: width, height: height)))
        func cut(_ levels: Int, _ origin: String) -> DisparitySearch {
            guard levels > widest else { return DisparitySearch(levels: levels, origin: origin) }
            return DisparitySearch(levels: widest, origin: "\(origin), \(levels) cut to \(widest) (below the image width, \(width) px, at most 1024 "
                                   + "and what the matcher holds for \(width)×\(height) px; give disparities= to choose)")
        }
        if let stated { return cut(max(2, stated.levels), stated.levels < 2 ? "\(stated.origin), \(stated.levels) raised to 2" : stated.origin) }
        let f = rectification.focalLength, baseline = rectification.baseline
        let needed = f * baseline / options.near - doffs
        let levels = needed.isFinite && needed < 1e6 ? max(16, Int((needed / 16).rounded(.up)) * 16) : 1_000_000
        return cut(levels, String(format: "the baseline (%.1f mm, f %.1f px) to reach near=%g m", baseline * 1000, f, options.near))
    }

    public mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let frame = input.payload(leftPort) else { return }
        guard let partner = input.latest(rightPort)?.payload else {
            if missingPartners == 0 {
                context.warn("no '\(options.right)' frame within \(options.pairToleranceMs) ms of '\(options.left)' at \(input.timestamp.nanoseconds) ns: no depth for that frame")
            }
            missingPartners += 1
            return
        }
        let at = input.timestamp.nanoseconds
        for (name, image) in [(options.left, frame.image), (options.right, partner.image)] {
            if let size, image.width != size.width || image.height != size.height {
                throw StereoDepthError.sizeMismatch(stream: name, timestamp: at, got: "\(image.width)×\(image.height)", calibrated: "\(size.width)×\(size.height)")
            }
        }
        var left = frame.image.luma, right = partner.image.luma
        if let tables {
            left = try tables.left.apply(to: left)
            right = try tables.right.apply(to: right)
        }
        var disparity = try matcher.disparity(left: left, right: right)
        if !unseen.isEmpty {
            var values = disparity.samples
            for i in unseen { values[i] = .nan }
            disparity = ImageBuffer(width: disparity.width, height: disparity.height, samples: values)
        }
        let fb = Float(geometry.focalLength * geometry.baseline), doffs = Float(geometry.doffs)
        let depth = disparity.samples.map { d -> Float in
            let s = d + doffs
            return d.isFinite && s > 0 ? fb / s : .nan
        }
        context.emit(DepthMap(sensorID: options.left, kind: .pixelDisparity, values: disparity, stereo: geometry), on: disparityPort, at: input.timestamp)
        context.emit(DepthMap(sensorID: options.left, kind: .depth, values: ImageBuffer(width: disparity.width, height: disparity.height, samples: depth), stereo: geometry),
                     on: depthPort, at: input.timestamp)
    }

    public mutating func close(context: inout AnalyzerContext) throws {
        if missingPartners > 1 { context.warn("\(missingPartners) '\(options.left)' frames had no '\(options.right)' partner: no depth for them") }
    }
}

/// A stereo pair that cannot be matched.
public enum StereoDepthError: Error, BadInput, Equatable, CustomStringConvertible {
    case sizeMismatch(stream: String, timestamp: Int64, got: String, calibrated: String)

    public var description: String {
        switch self {
        case let .sizeMismatch(stream, t, got, calibrated):
            return "stereo-depth: stream '\(stream)' at \(t) ns has a \(got) image, its calibration (and partner) \(calibrated)"
        }
    }
}
