import ParallaxCore
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath
import ParallaxVision

/// A multi-state constraint Kalman filter (the MSCKF of Mourikis & Roumeliotis, as OpenVINS
/// builds it): the IMU state, a sliding window of cloned IMU poses at the camera times, and their
/// joint covariance. Features are not in the state: each is triangulated from the clones that
/// saw it, its Jacobian's left null space removes the point from the residual, and the stacked
/// residuals of all features update the state at once (QR-compressed, Cholesky-solved,
/// χ²-gated).
///
/// Error state: the 15 inertial errors (``InertialState``), then `(δθ, δp)` per clone.
struct MSCKF {
    /// One cloned IMU pose at a camera time.
    struct Clone {
        var time: Timestamp
        var rotation: SO3
        var position: Vector3
    }

    var state: InertialState
    var clones: [Clone] = []
    var covariance: Matrix
    /// The time of `state` (s since the filter's epoch).
    var time: Double
    let propagation: IMUPropagation
    /// `T_IC`: camera to IMU.
    let imuFromCamera: SE3
    /// Image noise σ in normalized coordinates (pixel σ / focal length).
    let normalizedNoise: Double

    init(state: InertialState, time: Double, covariance: Matrix, propagation: IMUPropagation, imuFromCamera: SE3, normalizedNoise: Double) {
        self.state = state
        self.time = time
        self.covariance = covariance
        self.propagation = propagation
        self.imuFromCamera = imuFromCamera
        self.normalizedNoise = normalizedNoise
    }

    var dimension: Int { covariance.rows }
    static let imuDimension = InertialState.errorDimension

    /// Column of clone `k`'s error block.
    static func cloneOffset(_ k: Int) -> Int { imuDimension + 6 * k }

    // MARK: Propagation

    /// Propagates state and covariance to `to` with `measurements` (see ``IMUPropagation``).
    mutating func propagate(_ measurements: [IMUMeasurement], to: Double) throws {
        guard to > time else { return }
        let (next, interval) = try propagation.propagate(state, measurements, from: time, to: to)
        let n = Self.imuDimension, m = dimension - n
        let phi = interval.transition
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
        time = to
    }

    // MARK: Clones

    /// Clones the current IMU pose for a camera frame at `stamp` (stochastic cloning).
    mutating func clone(at stamp: Timestamp) {
        let n = dimension
        var grown = Matrix(rows: n + 6, columns: n + 6)
        grown.setBlock(row: 0, column: 0, covariance)
        // The clone's error is the IMU's (δθ, δp): rows/columns 0..<6.
        let rows = covariance.block(row: 0, column: 0, rows: 6, columns: n)
        grown.setBlock(row: n, column: 0, rows)
        grown.setBlock(row: 0, column: n, rows.transposed)
        grown.setBlock(row: n, column: n, covariance.block(row: 0, column: 0, rows: 6, columns: 6))
        covariance = grown
        clones.append(Clone(time: stamp, rotation: state.rotation, position: state.position))
    }

    /// Removes clone `k` from the state (its information is gone from the filter).
    mutating func marginalize(clone k: Int) {
        let o = Self.cloneOffset(k)
        covariance = covariance.removing(o..<(o + 6))
        clones.remove(at: k)
    }

    /// `T_WC` of clone `k`.
    func worldFromCamera(_ k: Int) -> SE3 {
        SE3(rotation: clones[k].rotation, translation: clones[k].position) * imuFromCamera
    }

    // MARK: Update

    /// Applies the error-state correction `dx` to the IMU state and every clone.
    mutating func correct(_ dx: [Double]) {
        state = state.corrected(by: dx[0..<Self.imuDimension])
        for k in clones.indices {
            let o = Self.cloneOffset(k)
            clones[k].rotation = clones[k].rotation * SO3.exp(Vector3(dx[o], dx[o + 1], dx[o + 2]))
            clones[k].position += Vector3(dx[o + 3], dx[o + 4], dx[o + 5])
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
