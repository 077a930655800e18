import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

/// A multi-state constraint Kalman filter (the MSCKF of Mourikis & Roumeliotis, as OpenVINS
/// builds it): the IMU state, a sliding window of cloned IMU poses at the camera times, and their
/// joint covariance. Features are not in the state: each is triangulated from the clones that
/// saw it, its Jacobian's left null space removes the point from the residual, and the stacked
/// residuals of all features update the state at once (QR-compressed, Cholesky-solved,
/// χ²-gated). Features tracked longer than the window can join the state as landmarks
/// (OpenVINS's SLAM features) and update it every frame they are seen.
///
/// Error state: the 15 inertial errors (``InertialState``), the calibration
/// (``Calibration``: `δφ` of `R_IC` (right perturbation), `δp_IC` (m), `δt_d` (s), the IMU's
/// scale errors `δs_a`, `δs_g` (``IMUIntrinsics``)), then
/// `(δθ, δp)` per clone, then `δp_W` per landmark. Only the calibration that is estimated is in the state (none by
/// default), so a filter that estimates none carries and multiplies no extra columns.
struct MSCKF {
    /// The camera–IMU calibration the filter carries (``VIOCalibration``).
    typealias Calibration = VIOCalibration

    /// One cloned IMU pose at a camera time.
    struct Clone {
        /// The frame's stamp (ns, camera clock): the key its features' observations carry.
        var time: Int64
        var rotation: SO3
        var position: Vector3
        /// The pose as first estimated (propagated, before any update): the linearization point
        /// of its measurement Jacobians when first estimates are used.
        var firstRotation: SO3
        var firstPosition: Vector3
    }

    /// A feature kept in the state (a "SLAM feature"): tracked longer than the window, it keeps
    /// constraining the poses for as long as it is seen, instead of once.
    struct Landmark {
        var id: UInt64
        /// `p_W` (m).
        var position: Vector3
    }

    var state: InertialState
    var clones: [Clone] = []
    /// The features in the state, after the clones in the error state (3 columns each).
    var landmarks: [Landmark] = []
    var covariance: Matrix
    /// The time of `state` (s since the filter's epoch).
    var time: Double
    let propagation: IMUPropagation
    /// Camera–IMU extrinsics and time offset (estimated when their variance is not zero).
    var calibration: Calibration
    /// `T_IC`: camera to IMU.
    var imuFromCamera: SE3 { calibration.imuFromCamera }
    /// Image noise σ in normalized coordinates (pixel σ / focal length).
    let normalizedNoise: Double
    /// Whether Jacobians are evaluated at first estimates (FEJ), keeping the unobservable
    /// directions unobservable (see ``IMUPropagation/Interval/firstEstimate(start:end:gravity:)``).
    var usesFirstEstimates = false
    /// Variance (s²) of each frame's stamp about the camera's clock (``StampJitter``): a stamp off
    /// by δt puts the frame's clone `(ω, v) δt` away from where the frame was seen.
    var stampJitterVariance = 0.0
    /// The IMU state as propagated to `time`, before the updates there: the start of the next
    /// interval's first-estimate transition.
    var propagatedState: InertialState

    /// A filter at `time` with the inertial covariance `covariance` (15 × 15). The extrinsics are
    /// estimated when `extrinsicVariance` is given (`δφ` rad², `δp_IC` m²), the time offset when
    /// `timeOffsetVariance` is (s²), the IMU's scale errors when `intrinsicsVariance` is
    /// (accelerometer, gyroscope; unitless²); otherwise they stay as `calibration` says.
    init(state: InertialState, time: Double, covariance: Matrix, calibration: Calibration,
         extrinsicVariance: (rotation: Double, translation: Double)? = nil, timeOffsetVariance: Double? = nil,
         intrinsicsVariance: (accelerometer: Double, gyroscope: Double)? = nil,
         propagation: IMUPropagation, normalizedNoise: Double) {
        self.state = state
        self.time = time
        let n = Self.imuDimension
        var next = n
        extrinsicsOffset = extrinsicVariance == nil ? nil : next
        next += extrinsicVariance == nil ? 0 : 6
        timeOffsetIndex = timeOffsetVariance == nil ? nil : next
        next += timeOffsetVariance == nil ? 0 : 1
        intrinsicsOffset = intrinsicsVariance == nil ? nil : next
        next += intrinsicsVariance == nil ? 0 : IMUIntrinsics.errorDimension
        cloneBase = next
        var p = Matrix(rows: cloneBase, columns: cloneBase)
        p.setBlock(row: 0, column: 0, covariance)
        if let v = extrinsicVariance {
            for i in 0..<3 { p[n + i, n + i] = v.rotation; p[n + 3 + i, n + 3 + i] = v.translation }
        }
        if let v = timeOffsetVariance, let k = timeOffsetIndex { p[k, k] = v }
        if let v = intrinsicsVariance, let k = intrinsicsOffset {
            for i in 0..<3 {
                p[k + IMUIntrinsics.Block.accelerometerScale + i, k + IMUIntrinsics.Block.accelerometerScale + i] = v.accelerometer
                p[k + IMUIntrinsics.Block.gyroscopeScale + i, k + IMUIntrinsics.Block.gyroscopeScale + i] = v.gyroscope
            }
        }
        self.covariance = p
        calibrationPrior = (n..<(intrinsicsOffset ?? cloneBase)).map { p[$0, $0] }
        self.propagation = propagation
        self.calibration = calibration
        self.normalizedNoise = normalizedNoise
        propagatedState = state
    }

    var dimension: Int { covariance.rows }
    static let imuDimension = InertialState.errorDimension

    /// Column of the extrinsics' error block (`δφ`, `δp_IC`), when they are estimated.
    let extrinsicsOffset: Int?
    /// Column of the time offset's error, when it is estimated.
    let timeOffsetIndex: Int?
    /// Column of the IMU scale errors' block (``IMUIntrinsics``), when they are estimated.
    let intrinsicsOffset: Int?
    /// Column of the first clone's block: after the IMU and the estimated calibration.
    let cloneBase: Int
    /// The variances the estimated extrinsics and time offset started with (their columns from
    /// `imuDimension` on, in order).
    let calibrationPrior: [Double]
    /// Whether the data narrowed any of the extrinsics' or the time offset's σ by a tenth or more
    /// from where it started: else the filter saw nothing that tells them (a platform standing
    /// still the whole time) and their values are the prior's, not estimates.
    var calibrationObserved: Bool {
        calibrationPrior.enumerated().contains { i, prior in covariance[Self.imuDimension + i, Self.imuDimension + i] < 0.81 * prior }
    }
    /// Column of clone `k`'s error block.
    func cloneOffset(_ k: Int) -> Int { cloneBase + 6 * k }
    /// Clone time → clone index.
    var cloneIndex: [Int64: Int] { Dictionary(uniqueKeysWithValues: clones.enumerated().map { ($1.time, $0) }) }
    /// Column of landmark `j`'s error block (`δp_W`): after the clones.
    func landmarkOffset(_ j: Int) -> Int { cloneBase + 6 * clones.count + 3 * j }

    /// σ of the velocity (m/s), its largest axis.
    var velocitySigma: Double {
        let v = InertialState.Block.velocity
        return (v..<(v + 3)).map { max(0, covariance[$0, $0]).squareRoot() }.max() ?? 0
    }

    /// The linearization point of clone `k`'s Jacobians: its first estimate with FEJ, else its
    /// current one.
    func linearizationPoint(_ k: Int) -> (rotation: SO3, position: Vector3) {
        usesFirstEstimates ? (clones[k].firstRotation, clones[k].firstPosition) : (clones[k].rotation, clones[k].position)
    }

    /// `T_C1C0`: the stereo partner from the tracked camera (fixed; the pair's own calibration).
    var stereoFromCamera: SE3?

    /// `T_WC` of clone `k` for camera 0 (the tracked one) or 1 (its stereo partner).
    func worldFromCamera(_ k: Int, camera: Int = 0) -> SE3 {
        let c0 = SE3(rotation: clones[k].rotation, translation: clones[k].position) * imuFromCamera
        guard camera != 0, let partner = stereoFromCamera else { return c0 }
        return c0 * partner.inverse
    }
}
