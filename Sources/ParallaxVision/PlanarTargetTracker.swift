import Foundation
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// Finds and follows one ``ReferencePicture`` through camera frames: the homography from the
/// picture's pixels to the frame's and the picture's pose `T_CI` (``PlanarPose``).
///
/// Homographies are fitted in the frame's pixels as they are: with lens distortion the fit is
/// only approximate away from the image centre (the pose itself undistorts its points).
///
/// - **Finding** (while not tracked): the frame's ORB features are matched to the picture's
///   (ratio test, cross-check), a homography is fitted robustly (``Homography/estimate``), and
///   the picture counts as found with at least ``Settings/minimumInliers`` agreeing points whose
///   corners form a convex quadrilateral in front of the camera.
/// - **Following** (while tracked): the agreeing points are followed from frame to frame by
///   pyramidal Lucas–Kanade, each keeping its position in the picture, so the homography is
///   always fitted from the picture (no drift by chaining frame to frame). When fewer than
///   half the points found last remain, the picture is found again from ORB features (with the
///   followed points as extra matches); when fewer than the minimum agree, it is lost.
public struct PlanarTargetTracker: Sendable {
    public struct Settings: Sendable {
        /// Agreeing points needed to find or keep the picture.
        public var minimumInliers = 15
        /// Transfer error below which a point agrees with the homography (px).
        public var threshold = 3.0
        /// Points at which the confidence reaches its inlier share.
        public var confidentPoints = 30.0
        /// At most this many points are followed.
        public var maximumPoints = 300
        /// RANSAC iterations at most when finding the picture from ORB matches.
        public var findingIterations = 2000
        /// Most obliquely a picture is believed seen (degrees between its normal and the line of
        /// sight to its centre): a homography that puts it nearer edge-on is a false finding.
        public var maximumObliquity = 80.0
        public var matcher = DescriptorMatcher()
        public init() {}
    }

    /// What the tracker found in one frame.
    public struct Observation: Sendable {
        public var isTracked: Bool
        /// Picture pixels → frame pixels.
        public var homography: Matrix3?
        /// `T_CI` (the last known while not tracked).
        public var pose: SE3?
        public var confidence: Double
        /// Frame pixels of the picture's corners (empty when not tracked).
        public var corners: [Vector2]
        public var inliers: Int
        /// RMS reprojection error of the pose (px).
        public var rmsPixels: Double
    }

    public let reference: ReferencePicture
    public var settings: Settings
    /// Followed points: where each is in the picture, and in the last frame.
    private var picturePoints: [Vector2] = []
    private var framePoints: [Vector2] = []
    private var foundCount = 0
    private var lastPose: SE3?

    public init(reference: ReferencePicture, settings: Settings = Settings()) {
        self.reference = reference
        self.settings = settings
    }

    public var isTracked: Bool { !picturePoints.isEmpty }

    /// One frame: `previous` and `current` are the LK pyramids of the last and this frame (nil
    /// `previous` on the first), `features` gives this frame's ORB features (computed once per
    /// frame for all pictures, only when one needs them). `search` false: a picture not tracked
    /// is not looked for in this frame (the caller spreads searches over frames).
    public mutating func update(previous: PyramidalLucasKanade.Prepared?, current: PyramidalLucasKanade.Prepared, lk: PyramidalLucasKanade,
                                features: () -> [ORBFeature], camera: CameraModel, search: Bool = true) -> Observation {
        var candidatesPicture: [Vector2] = [], candidatesFrame: [Vector2] = []
        if isTracked, let previous {
            let results = lk.track(framePoints, from: previous, to: current)
            for (k, r) in results.enumerated() {
                if case let .success(p) = r { candidatesPicture.append(picturePoints[k]); candidatesFrame.append(p) }
            }
        }
        var fit = candidatesPicture.count >= settings.minimumInliers ? accept(candidatesPicture, candidatesFrame, camera: camera, iterations: 500) : nil
        if (search || isTracked) && (fit == nil || (fit?.inliers.count ?? 0) * 2 < foundCount) {
            // (Re)find from ORB features, the followed points joining the matches.
            let frameFeatures = features()
            let matches = settings.matcher.match(reference.features.map(\.descriptor), frameFeatures.map(\.descriptor))
            let a = matches.map { reference.features[$0.queryIndex].pixel } + candidatesPicture
            let b = matches.map { frameFeatures[$0.trainIndex].pixel } + candidatesFrame
            if let found = accept(a, b, camera: camera, iterations: settings.findingIterations), found.inliers.count >= (fit?.inliers.count ?? 0) {
                fit = found
                foundCount = found.inliers.count
            }
        }
        // Against the picture itself: each agreeing point aligned from the picture as the
        // homography shows it to this frame, so errors do not add up from frame to frame.
        if let found = fit { fit = refined(found, current: current, lk: lk, camera: camera) }
        guard let fit else {
            picturePoints = []
            framePoints = []
            foundCount = 0
            return Observation(isTracked: false, homography: nil, pose: lastPose, confidence: 0, corners: [], inliers: 0, rmsPixels: 0)
        }
        // Keep the agreeing points (evenly thinned to the maximum) for the next frame.
        let stride = max(1, (fit.inliers.count + settings.maximumPoints - 1) / settings.maximumPoints)
        let kept = Swift.stride(from: 0, to: fit.inliers.count, by: stride).map { fit.inliers[$0] }
        picturePoints = kept.map { fit.picture[$0] }
        framePoints = kept.map { fit.frame[$0] }
        lastPose = fit.pose
        let share = Double(fit.inliers.count) / Double(max(1, fit.picture.count))
        let confidence = min(1, share * min(1, Double(fit.inliers.count) / settings.confidentPoints))
        return Observation(isTracked: true, homography: fit.homography, pose: fit.pose, confidence: confidence,
                           corners: corners(of: fit, camera: camera), inliers: fit.inliers.count, rmsPixels: fit.rms)
    }

    /// The picture's corners in the frame (px). Without lens distortion the homography maps
    /// the picture exactly, whatever the intrinsics (which may be assumed); through a lens, the
    /// picture's 3D corners at the fitted pose through the camera model, so the distortion bends
    /// them as it bends the picture (a homography in distorted pixels cannot: 10 px off near
    /// the edges of EuRoC's lens). The homography's too when a corner does not project.
    private func corners(of fit: Fit, camera: CameraModel) -> [Vector2] {
        let byHomography = reference.cornerPixels.compactMap { fit.homography.transferring($0) }
        if case .none = camera.distortion { return byHomography }
        let projected = reference.cornerPixels.map(reference.metric).compactMap { camera.project(fit.pose * Vector3($0.x, $0.y, 0)) }
        return projected.count == 4 ? projected : byHomography
    }

    private struct Fit {
        var homography: Matrix3
        var pose: SE3
        var rms: Double
        var picture: [Vector2]
        var frame: [Vector2]
        var inliers: [Int]
    }

    /// A homography and pose from correspondences, when enough agree and the picture's corners
    /// make a convex quadrilateral.
    /// `iterations`: RANSAC's most (few for followed points, which mostly agree; many for
    /// ORB matches across a wide change of view, of which few may).
    private func accept(_ picture: [Vector2], _ frame: [Vector2], camera: CameraModel, iterations: Int) -> Fit? {
        guard picture.count >= settings.minimumInliers,
              let (h, inliers) = Homography.estimate(picture, frame, threshold: settings.threshold, maxIterations: iterations),
              inliers.count >= settings.minimumInliers else { return nil }
        let corners = reference.cornerPixels.compactMap { h.transferring($0) }
        guard Self.isConvex(corners) else { return nil }
        guard let solution = try? PlanarPose.solve(plane: inliers.map { reference.metric(picture[$0]) }, pixels: inliers.map { frame[$0] }, camera: camera),
              solution.cameraFromModel.translation.z > 0 else { return nil }
        // Seen from its front, and not nearly edge-on: the picture's z axis (into it) points
        // away from the camera along the line of sight.
        let pose = solution.cameraFromModel
        let facing = (pose.rotation * Vector3(0, 0, 1)).dot(pose.translation / pose.translation.norm)
        guard facing > cos(settings.maximumObliquity * .pi / 180) else { return nil }
        return Fit(homography: h, pose: solution.cameraFromModel, rms: solution.rmsPixels, picture: picture, frame: frame, inliers: inliers)
    }

    /// `fit` with its points moved to where Lucas–Kanade aligns them from the picture warped by
    /// `fit`'s homography into this frame, refitted; `fit` itself when that finds fewer points.
    private func refined(_ fit: Fit, current: PyramidalLucasKanade.Prepared, lk: PyramidalLucasKanade, camera: CameraModel) -> Fit {
        guard let template = HomographyWarp.warp(reference.image, by: fit.homography, width: current.size.width, height: current.size.height) else { return fit }
        let prepared = lk.prepare(template)
        var picture: [Vector2] = [], start: [Vector2] = [], guesses: [Vector2] = []
        for k in fit.inliers {
            guard let p = fit.homography.transferring(fit.picture[k]) else { continue }
            picture.append(fit.picture[k]); start.append(p); guesses.append(fit.frame[k])
        }
        let results = lk.track(start, from: prepared, to: current, guesses: guesses, coarsestLevel: 1)
        var a: [Vector2] = [], b: [Vector2] = []
        for (k, r) in results.enumerated() { if case let .success(p) = r { a.append(picture[k]); b.append(p) } }
        guard let better = accept(a, b, camera: camera, iterations: 200), better.inliers.count * 10 >= fit.inliers.count * 8 else { return fit }
        return better
    }

    /// Whether four points in order make a convex quadrilateral (all turns the same way) of
    /// some size.
    static func isConvex(_ q: [Vector2]) -> Bool {
        guard q.count == 4, q.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return false }
        var sign = 0.0, area = 0.0
        for i in 0..<4 {
            let a = q[i], b = q[(i + 1) % 4], c = q[(i + 2) % 4]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if cross == 0 || (sign != 0 && (cross > 0) != (sign > 0)) { return false }
            sign = cross
            area += a.x * b.y - b.x * a.y
        }
        return abs(area) / 2 >= 100
    }
}
