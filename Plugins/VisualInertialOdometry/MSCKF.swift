import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath
import ParallaxVision

/// A multi-state constraint Kalman filter (the MSCKF of Mourikis & Roumeliotis, as OpenVINS
/// builds it): the IMU state, a sliding window of cloned IMU poses at the camera times, and their
/// joint covariance. Features are not in the state: each is triangulated from the clones that
/// saw it, its Jacobian's left null space removes the point from the residual, and the stacked
/// residuals of all features update the state at once (QR-compressed, Cholesky-solved,
/// χ²-gated). Features tracked longer than the window can join the state as landmarks
/// (OpenVINS's SLAM features) and update it every frame they are seen.
///
/// Error state: the 15 inertial errors (``InertialState``), the camera–IMU calibration
/// (``Calibration``: `δφ` of `R_IC` (right perturbation), `δp_IC` (m), `δt_d` (s)), then
/// `(δθ, δp)` per clone, then `δp_W` per landmark. Only the calibration that is estimated is in the state (none by
/// default), so a filter that estimates none carries and multiplies no extra columns.
struct MSCKF {
    /// The camera–IMU calibration the filter carries: `T_IC` and the time offset
    /// `t_d = t_IMU − t_camera` (s) of the camera's stamps.
    struct Calibration: Equatable {
        var imuFromCamera: SE3
        var timeOffset: Double
    }

    /// One cloned IMU pose at a camera time.
    struct Clone {
        var time: Timestamp
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
    /// The IMU state as propagated to `time`, before the updates there: the start of the next
    /// interval's first-estimate transition.
    var propagatedState: InertialState

    /// A filter at `time` with the inertial covariance `covariance` (15 × 15). The extrinsics are
    /// estimated when `extrinsicVariance` is given (`δφ` rad², `δp_IC` m²), the time offset when
    /// `timeOffsetVariance` is (s²); otherwise they stay as `calibration` says.
    init(state: InertialState, time: Double, covariance: Matrix, calibration: Calibration,
         extrinsicVariance: (rotation: Double, translation: Double)? = nil, timeOffsetVariance: Double? = nil,
         propagation: IMUPropagation, normalizedNoise: Double) {
        self.state = state
        self.time = time
        let n = Self.imuDimension
        extrinsicsOffset = extrinsicVariance == nil ? nil : n
        timeOffsetIndex = timeOffsetVariance == nil ? nil : n + (extrinsicVariance == nil ? 0 : 6)
        cloneBase = n + (extrinsicVariance == nil ? 0 : 6) + (timeOffsetVariance == nil ? 0 : 1)
        var p = Matrix(rows: cloneBase, columns: cloneBase)
        p.setBlock(row: 0, column: 0, covariance)
        if let v = extrinsicVariance {
            for i in 0..<3 { p[n + i, n + i] = v.rotation; p[n + 3 + i, n + 3 + i] = v.translation }
        }
        if let v = timeOffsetVariance, let k = timeOffsetIndex { p[k, k] = v }
        self.covariance = p
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
    /// Column of the first clone's block: after the IMU and the estimated calibration.
    let cloneBase: Int
    /// Column of clone `k`'s error block.
    func cloneOffset(_ k: Int) -> Int { cloneBase + 6 * k }
    /// Clone time → clone index.
    var cloneIndex: [Timestamp: Int] { Dictionary(uniqueKeysWithValues: clones.enumerated().map { ($1.time, $0) }) }
    /// Column of landmark `j`'s error block (`δp_W`): after the clones.
    func landmarkOffset(_ j: Int) -> Int { cloneBase + 6 * clones.count + 3 * j }

    // MARK: Propagation

    /// Propagates state and covariance to `to` with `measurements` (see ``IMUPropagation``).
    mutating func propagate(_ measurements: [IMUMeasurement], to: Double) throws {
        guard to > time else { return }
        let (next, interval) = try propagation.propagate(state, measurements, from: time, to: to)
        let n = Self.imuDimension, m = dimension - n
        let phi = usesFirstEstimates
            ? interval.firstEstimate(start: propagatedState, end: next, gravity: propagation.gravity).transition
            : interval.transition
        let pII = covariance.block(row: 0, column: 0, rows: n, columns: n)
        var newII = try (try phi * pII).multiplied(by: phi, transposeOther: true) + interval.noise
        newII.symmetrize()
        covariance.setBlock(row: 0, column: 0, newII)
        if m > 0 {
            let pIX = covariance.block(row: 0, column: n, rows: n, columns: m)
            let newIX = try phi * pIX
            covariance.setBlock(row: 0, column: n, newIX)
            covariance.setBlock(row: n, column: 0, newIX.transposed)
        }
        state = next
        propagatedState = next
        time = to
    }

    // MARK: Clones

    /// Clones the current IMU pose for a camera frame at `stamp` (stochastic cloning). The
    /// filter stands at the frame's time on the IMU clock, `stamp + t_d`; an error of `t_d` moves
    /// the clone along the motion, so its error is `(δθ + ω δt_d, δp + v δt_d)` with `ω` the
    /// bias-corrected angular rate (rad/s, IMU frame) at that time.
    mutating func clone(at stamp: Timestamp, angularRate omega: Vector3) {
        let n = dimension
        var grown = Matrix(rows: n + 6, columns: n + 6)
        grown.setBlock(row: 0, column: 0, covariance)
        // Rows of J·P, J = [I₆ on the IMU's (δθ, δp) | (ω, v) on δt_d].
        var rows = covariance.block(row: 0, column: 0, rows: 6, columns: n)
        let rate = [omega.x, omega.y, omega.z, state.velocity.x, state.velocity.y, state.velocity.z]
        if let td = timeOffsetIndex {
            for i in 0..<6 { for j in 0..<n { rows[i, j] += rate[i] * covariance[td, j] } }
        }
        grown.setBlock(row: n, column: 0, rows)
        grown.setBlock(row: 0, column: n, rows.transposed)
        // J P Jᵀ: the rows' IMU columns, plus their time-offset column times (ω, v).
        var corner = rows.block(row: 0, column: 0, rows: 6, columns: 6)
        if let td = timeOffsetIndex {
            for i in 0..<6 { for j in 0..<6 { corner[i, j] += rows[i, td] * rate[j] } }
        }
        corner.symmetrize()
        grown.setBlock(row: n, column: n, corner)
        // The new clone goes after the others, before the landmarks.
        let landmarksStart = landmarkOffset(0)
        if landmarksStart < n {
            grown = grown.permuted(Array(0..<landmarksStart) + Array(n..<(n + 6)) + Array(landmarksStart..<n))
        }
        covariance = grown
        clones.append(Clone(time: stamp, rotation: state.rotation, position: state.position,
                            firstRotation: propagatedState.rotation, firstPosition: propagatedState.position))
    }

    /// Removes clone `k` from the state (its information is gone from the filter).
    mutating func marginalize(clone k: Int) {
        let o = cloneOffset(k)
        covariance = covariance.removing(o..<(o + 6))
        clones.remove(at: k)
    }

    /// Removes landmark `j` from the state.
    mutating func marginalize(landmark j: Int) {
        let o = landmarkOffset(j)
        covariance = covariance.removing(o..<(o + 3))
        landmarks.remove(at: j)
    }

    /// Adds a landmark at `point` from its observations in the window, separated by
    /// ``FeatureUpdate/split(_:)`` (delayed initialization, as OpenVINS does it): the top rows
    /// `r₁ = H₁ δx + R₁ δp_f + n₁` determine the feature (`δp_f = R₁⁻¹ (r₁ − H₁ δx − n₁)`, which
    /// gives its covariance and its correlation with the state), and the rest, free of it (the
    /// caller has gated them), update the state afterwards. False (nothing changed) when `R₁` is
    /// singular.
    mutating func addLandmark(id: UInt64, at point: Vector3, _ split: FeatureUpdate.Split) throws -> Bool {
        guard let r1Inverse = split.r1.inverse else { return false }
        let variance = normalizedNoise * normalizedNoise
        let n = dimension
        // P_xf = −P H₁ᵀ R₁⁻ᵀ, P_ff = R₁⁻¹ (H₁ P H₁ᵀ + σ² I) R₁⁻ᵀ.
        var inv = Matrix(rows: 3, columns: 3)
        inv.setBlock(row: 0, column: 0, r1Inverse)
        let ph1 = try covariance.multiplied(by: split.h1, transposeOther: true)      // n × 3
        let pxf = -1 * (try ph1.multiplied(by: inv, transposeOther: true))          // n × 3
        var inner = try split.h1 * ph1
        for i in 0..<3 { inner[i, i] += variance }
        var pff = try (try inv * inner).multiplied(by: inv, transposeOther: true)
        pff.symmetrize()
        var grown = Matrix(rows: n + 3, columns: n + 3)
        grown.setBlock(row: 0, column: 0, covariance)
        grown.setBlock(row: 0, column: n, pxf)
        grown.setBlock(row: n, column: 0, pxf.transposed)
        grown.setBlock(row: n, column: n, pff)
        covariance = grown
        landmarks.append(Landmark(id: id, position: point + r1Inverse * split.top))
        if !split.rest.r.isEmpty {
            var h = Matrix(rows: split.rest.r.count, columns: n + 3)
            h.setBlock(row: 0, column: 0, split.rest.h)
            try update(h: h, r: split.rest.r, variance: variance)
        }
        return true
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

    // MARK: Update

    /// Applies the error-state correction `dx` to the IMU state and every clone.
    mutating func correct(_ dx: [Double]) {
        state = state.corrected(by: dx[0..<Self.imuDimension])
        if let c = extrinsicsOffset {
            calibration.imuFromCamera = SE3(rotation: calibration.imuFromCamera.rotation * SO3.exp(Vector3(dx[c], dx[c + 1], dx[c + 2])),
                                            translation: calibration.imuFromCamera.translation + Vector3(dx[c + 3], dx[c + 4], dx[c + 5]))
        }
        if let k = timeOffsetIndex { calibration.timeOffset += dx[k] }
        for k in clones.indices {
            let o = cloneOffset(k)
            clones[k].rotation = clones[k].rotation * SO3.exp(Vector3(dx[o], dx[o + 1], dx[o + 2]))
            clones[k].position += Vector3(dx[o + 3], dx[o + 4], dx[o + 5])
        }
        for j in landmarks.indices {
            let o = landmarkOffset(j)
            landmarks[j].position += Vector3(dx[o], dx[o + 1], dx[o + 2])
        }
    }

    /// The EKF update with stacked residuals `r` (already free of feature errors), Jacobian `h`
    /// (rows × dimension) and isotropic noise `sigma²`: QR-compresses tall systems, solves the
    /// innovation through Cholesky, keeps the covariance symmetric.
    mutating func update(h hIn: Matrix, r rIn: [Double], variance: Double) throws {
        var h = hIn, r = rIn
        if h.rows > h.columns {
            // Measurement compression: H = Q·R, so Qᵀr and R carry the same information in n rows.
            let qr = try QR(h)
            let rr = qr.r()
            let qtr = try qr.applyQTransposed(to: try Matrix(rows: r.count, columns: 1, columnMajor: r))
            h = rr
            r = Array(qtr.elements.prefix(rr.rows))
        }
        let pht = try covariance.multiplied(by: h, transposeOther: true)          // n × m
        var s = try h * pht                                                        // m × m
        for i in 0..<s.rows { s[i, i] += variance }
        s.symmetrize()
        let chol = try Cholesky(s, symmetryTolerance: nil)
        let hp = pht.transposed                                                    // H P (P symmetric): m × n
        let kt = try chol.solve(hp)                                                // Kᵀ: m × n
        let dx = try kt.multiplied(by: try Matrix(rows: r.count, columns: 1, columnMajor: r), transposeSelf: true)
        // P ← P − K (H P)
        let kphT = try kt.multiplied(by: hp, transposeSelf: true)
        covariance = try covariance - kphT
        covariance.symmetrize()
        correct(dx.elements)
    }
}
