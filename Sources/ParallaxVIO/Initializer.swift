import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

/// How the filter starts (OpenVINS's inertial initializer): from a still window (the IMU still
/// and the features moving at most ``staticMaxDisparityPx`` over it; gravity levels the
/// attitude, the mean gyro is its bias) or, for a platform already moving, by the closed-form
/// visual-inertial alignment of the last ``VIOSettings/dynamicWindow`` seconds
/// (``DynamicInitializer``). A moving start the window leaves too vague is tried again a
/// quarter window later over a longer window (at most ``longestDynamicSpan`` windows); after a
/// reset only the frames after it count.
struct Initializer {
    /// What a start gives the filter: its IMU state, how it was found, and for a moving start
    /// the window frames kept as the first clones (their poses, and the frames with the
    /// features seen there); the covariance is the state's (15 × 15), then the clones' (6 each).
    struct Start {
        var state: InertialState
        var covariance: Matrix
        var how: VIOEvent.Start
        var clones: [(pose: DynamicInitializer.WindowPose, frame: DynamicInitializer.Frame)] = []
    }

    /// The longest span a moving start waits for, in `dynamic_window`s.
    static let longestDynamicSpan = 3.0
    /// IMU data still for this long starts the filter (s).
    let staticWindow: Double
    /// Largest median feature motion over the still window (px): a slow turn passes the IMU's
    /// test, and its rate taken as gyro bias would start the filter wrong and overconfident.
    let staticMaxDisparityPx: Double
    /// Whether a moving platform is started; over frames of this span (s).
    let dynamicInit: Bool
    let dynamicWindow: Double
    /// The moving start, as the settings configure it.
    let dynamic: DynamicInitializer
    /// Frames after this time (s, IMU clock) may start a moving platform: the frame that reset
    /// the filter and those before it belong to the lost track.
    private var movingStartFrom = -Double.infinity
    /// Span of frames the next moving start uses (s): `dynamicWindow`, longer after a start
    /// refused as too uncertain; and the earliest time of that attempt.
    private var dynamicSpan: Double
    /// The span (s) the last moving start's window took.
    private var startedSpan: Double?
    private var nextDynamicAttempt = -Double.infinity
    /// Moving starts in a row that failed for another reason than vagueness, and how many make
    /// the next attempts a quarter window apart.
    private(set) var failedAttempts = 0
    /// Moving starts refused since the last start because the window's frames and the IMU did
    /// not fit one motion, by reason (``DynamicInitializer/Refusal/misfit``).
    private(set) var misfits: [String: Int] = [:]
    /// ``misfits`` as they stood at the last start.
    private(set) var lastMisfits: [String: Int] = [:]
    static let failuresBeforeBackingOff = 20

    /// The longest stretch without an IMU reading a moving start may span (s): the filter resets
    /// on a longer one, and a window aligned over it stands on readings that say nothing of the
    /// motion in it. A still start needs at least a window's worth of readings at this spacing.
    private let maxImuGap: Double

    init(_ settings: VIOSettings, camera: CameraCalibration) {
        maxImuGap = settings.maxImuGapMs / 1000
        staticWindow = settings.staticWindow
        staticMaxDisparityPx = settings.staticMaxDisparityPx
        dynamicInit = settings.dynamicInit
        dynamicWindow = settings.dynamicWindow
        dynamicSpan = settings.dynamicWindow
        var initializer = DynamicInitializer(gravityTolerance: settings.dynamicGravityTolerance,
                                             maxRefinedErrorNormalized: settings.dynamicMaxErrorPx / camera.model.intrinsics.fx)
        initializer.normalizedNoise = settings.pixelNoise / camera.model.intrinsics.fx
        initializer.maxVelocitySigma = settings.dynamicMaxVelocitySigma
        initializer.maxTiltSigmaDegrees = settings.dynamicMaxTiltSigmaDeg
        initializer.minExcitation = settings.dynamicMinExcitation
        initializer.clones = settings.dynamicWindowClones ? settings.window - 1 : 0
        dynamic = initializer
    }

    /// How far back the frames a start may need reach (s).
    var longestWindow: Double { max(staticWindow, Self.longestDynamicSpan * dynamicWindow) }

    /// The start at `t` (s) from the IMU `measurements` and the recent `views`, or `nil`: not yet.
    mutating func start(at t: Double, imu measurements: [IMUMeasurement], views: RecentViews, noise: IMUNoiseModel, imuFromCamera: SE3) -> Start? {
        var initializer = StaticInitializer()
        initializer.window = staticWindow
        let upTo = measurements.filter { $0.time <= t }
        // No start in a gap: the readings must reach the start's time (a still start at 1.75 s on
        // readings that stopped at 1.6 s was reset at the next frame, again and again through
        // the gap, once the readings before a start were kept longer).
        guard let latest = upTo.last?.time, t - latest <= maxImuGap else { return nil }
        // A moving start's frames must lie within the IMU's data: those before the first
        // reading have no motion to align with (an IMU starting 0.5 s after the camera gave a
        // start over them, and 14.5 m of error on EuRoC MH_01).
        let from = max(movingStartFrom, measurements.first.map { $0.time - 1e-9 } ?? .infinity)
        let start: Start
        // The images must agree that the platform is still; where they cannot say (fewer than 10
        // features seen over the window: a blank or dark view), the IMU's word stands.
        // A still start may span a short gap (standing still, nothing moved in it) but needs the
        // readings of a rate the filter can bridge: two readings 20 s apart gave a still start
        // and `normal` poses.
        if Double(upTo.count { $0.time >= t - staticWindow }) >= staticWindow / maxImuGap,
           case let .success(still) = initializer.initialize(upTo), (views.motion(over: staticWindow, at: t) ?? 0) <= staticMaxDisparityPx {
            start = Start(state: still, covariance: StaticInitializer.covariance(of: still), how: .still)
        } else if dynamicInit, let first = views.frames.first(where: { $0.time > from && $0.time >= t - Self.longestDynamicSpan * dynamicWindow - 1e-6 }),
                  t - first.time >= dynamicWindow * 0.95, t >= nextDynamicAttempt {
            let frames = views.frames.filter { $0.time > from && $0.time >= t - dynamicSpan - 1e-6 }
            guard let firstFrame = frames.first, (Propagator.largestGap(in: measurements, from: firstFrame.time, to: t) ?? .infinity) <= maxImuGap else { return nil }
            switch dynamic.initialize(frames, imu: measurements, noise: noise, imuFromCamera: imuFromCamera) {
            case let .success(moving):
                start = Start(state: moving.state, covariance: moving.covariance, how: .moving(span: frames.last.map { $0.time - frames[0].time } ?? 0),
                              clones: moving.clones.map { ($0, frames[$0.frame]) })
            case .failure(.uncertain), .failure(.lowExcitation):
                // The motion so far leaves the start too vague (or too smooth to fix the scale): try
                // again a quarter window later, over a window that much longer (at most
                // longestDynamicSpan windows).
                dynamicSpan = min(Self.longestDynamicSpan * dynamicWindow, dynamicSpan + 0.25 * dynamicWindow)
                nextDynamicAttempt = t + 0.25 * dynamicWindow - 1e-6
                return nil
            case let .failure(reason):
                if let misfit = reason.misfit { misfits[misfit, default: 0] += 1 }
                // The window does not fit (features behind the cameras, a residual above the
                // limit, gravity's length wrong): again on the next frame, and after a window's
                // worth of frames failing in a row every quarter window (a camera 110 ms early
                // beyond the offset search failed 320 times over 17 s, each a refinement: 28 s for
                // a 22 s clip). Backing off sooner delayed ordinary starts that fail a few times
                // (MH_01 from 3 s in: 2.2 → 2.4 s, 5.8 → 7.3 mm).
                failedAttempts += 1
                if failedAttempts >= Self.failuresBeforeBackingOff { nextDynamicAttempt = t + 0.25 * dynamicWindow - 1e-6 }
                return nil
            }
        } else {
            return nil
        }
        if case let .moving(span) = start.how { startedSpan = span }
        lastMisfits = misfits
        misfits = [:]
        dynamicSpan = dynamicWindow
        nextDynamicAttempt = -.infinity
        failedAttempts = 0
        return start
    }

    /// The filter was reset at `t` (s): the next start uses only the frames after it.
    mutating func reset(at t: Double) {
        movingStartFrom = t
        dynamicSpan = dynamicWindow
        nextDynamicAttempt = -.infinity
        failedAttempts = 0
    }

    /// The frames were moved to another clock offset before any start: the next moving start
    /// takes them over the longest span, back to where the motion began (a window of the
    /// usual span from the frame after the move starts past an orbit's first acceleration and
    /// waits seconds for excitation: still 1 s, camera 500 ms early, first pose 5.40 → 2.40 s).
    mutating func framesMoved() {
        dynamicSpan = Self.longestDynamicSpan * dynamicWindow
        nextDynamicAttempt = -.infinity
        failedAttempts = 0
    }

    /// The filter was reset, its frames good (only their clock offset was wrong): the next start
    /// may use them, over the span the last moving start needed (a smooth orbit's 2.45 s took
    /// eight attempts to reach again, 2 s).
    mutating func resetKeepingFrames() {
        movingStartFrom = -.infinity
        dynamicSpan = min(Self.longestDynamicSpan * dynamicWindow, max(dynamicWindow, startedSpan ?? dynamicWindow))
        nextDynamicAttempt = -.infinity
        failedAttempts = 0
    }
}
