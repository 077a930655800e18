import Foundation
import ParallaxMath
import ParallaxGeometry

/// The pose of a known 3D model from its points' pixels (PnP): `T_CM` (model to camera) for a
/// calibrated camera, lens distortion included.
///
/// A global start that needs no guess — the direct linear transform on the undistorted
/// normalized points (≥ 6, not all on one plane; the null vector of its 12 × 12 normal matrix by
/// inverse iteration, ``SymmetricEigen/smallest(_:n:)``, or LAPACK's eigensolver when the second
/// eigenvalue is not clearly apart), its rotation the nearest proper rotation — and
/// Levenberg–Marquardt on the reprojection error in undistorted pixels with Huber weights
/// (iteratively reweighted) so a few bad points do not pull the pose, on 6 × 6 normal equations
/// built in one pass over the points (C, four points per vector: ``Packed``) and solved on the
/// stack. Near-planar models seen from afar have a second, mirrored minimum (the model's depth
/// flipped toward the camera: OpenCV's ITERATIVE returns it for one of the AFLW2000 faces); both
/// starts are refined and the lower cost wins, so the mirrored pose is returned only when it
/// explains the pixels better. The second start is let go once it comes within 0.6° of the
/// first's minimum at a higher cost (it is sliding into the same minimum: the common case).
/// Models of more than ``startPoints`` points let the two starts compete on an evenly spread
/// subset and refine only the winner on all points (and the loser too when the race was close).
public enum PerspectivePoints {
    /// Why no pose.
    public enum SolveError: Error, Equatable, Sendable, CustomStringConvertible {
        case tooFewPoints(Int)
        case countMismatch(model: Int, pixels: Int)
        case notFinite(index: Int)
        case degenerate(String)

        public var description: String {
            switch self {
            case let .tooFewPoints(n): return "PnP needs at least 6 points, got \(n)"
            case let .countMismatch(m, p): return "PnP: \(m) model points but \(p) pixels"
            case let .notFinite(i): return "PnP: point \(i) is not finite"
            case let .degenerate(why): return "PnP: \(why)"
            }
        }
    }

    /// Points the two starts compete on (an evenly spread subset of larger models: every k-th
    /// point, k = count / 50, so 52 of a 468-point mesh). A race closer than 10 % in cost is
    /// decided again on all points.
    static let startPoints = 50

    /// A solved pose.
    public struct Solution: Sendable {
        /// `T_CM`.
        public var cameraFromModel: SE3
        /// Root-mean-square reprojection error (px) over all points.
        public var rmsPixels: Double
        /// Whether the mirrored start won (reported, not hidden).
        public var fromMirroredStart: Bool

        public init(cameraFromModel: SE3, rmsPixels: Double, fromMirroredStart: Bool) {
            self.cameraFromModel = cameraFromModel
            self.rmsPixels = rmsPixels
            self.fromMirroredStart = fromMirroredStart
        }
    }

    /// Solves for `T_CM` from `model` (m, model frame) and their `pixels` in `camera`.
    /// `huber` is the Huber threshold (px). `weights` (one per point, ≥ 0; default all 1) say
    /// how much each point counts — how well the model is known there (a face's nose and eye
    /// corners more than its jaw line) — and multiply the robust weights; a point of weight 0
    /// takes no part. ``Solution/rmsPixels`` is over the points with weight.
    public static func solve(model: [Vector3], pixels: [Vector2], camera: CameraModel, huber: Double = 2, weights: [Double]? = nil) throws -> Solution {
        guard model.count == pixels.count else { throw SolveError.countMismatch(model: model.count, pixels: pixels.count) }
        if let weights, weights.count != model.count { throw SolveError.countMismatch(model: model.count, pixels: weights.count) }
        // Only the points with weight from here on (checked in one pass: a weight that is not
        // finite or negative is reported first, wherever it is; copied only when some weigh
        // nothing).
        var used = 0
        var notFinite: Int?
        try model.withUnsafeBufferPointer { m in
            try pixels.withUnsafeBufferPointer { p in
                if let weights {
                    try weights.withUnsafeBufferPointer { weights in
                        for i in m.indices {
                            let w = weights[i]
                            guard w.isFinite, w >= 0 else { throw SolveError.notFinite(index: i) }
                            guard w > 0 else { continue }
                            used += 1
                            if notFinite == nil, !Self.finite(m[i], p[i]) { notFinite = i }
                        }
                    }
                } else {
                    used = m.count
                    notFinite = m.indices.first { !Self.finite(m[$0], p[$0]) }
                }
            }
        }
        guard used >= 6 else { throw SolveError.tooFewPoints(used) }
        if let notFinite { throw SolveError.notFinite(index: notFinite) }
        let model = used == model.count ? model : model.indices.filter { (weights?[$0] ?? 1) > 0 }.map { model[$0] }
        let pixels = used == pixels.count ? pixels : pixels.indices.filter { (weights?[$0] ?? 1) > 0 }.map { pixels[$0] }
        let prior = weights.map { w in used == w.count ? w : w.filter { $0 > 0 } } ?? [Double](repeating: 1, count: used)
        let normalized = try normalizedPoints(pixels, camera: camera)
        let focal = Vector2(camera.intrinsics.fx, camera.intrinsics.fy)
        let all = Packed(model: model, normalized: normalized, weights: prior, focal: focal)
        // Many points (a 468-point mesh): the two starts compete on an evenly spread subset of
        // about `startPoints`, and only the winner is refined on all of them (from near its
        // minimum, a few iterations): the same minimum at a fraction of the cost.
        let stride = max(1, model.count / startPoints)
        let subset = Swift.stride(from: 0, to: model.count, by: stride).map { $0 }
        let (subModel, subNormalized, subPrior) = stride == 1 ? (model, normalized, prior)
            : (subset.map { model[$0] }, subset.map { normalized[$0] }, subset.map { prior[$0] })
        let competition = stride == 1 ? all : Packed(model: subModel, normalized: subNormalized, weights: subPrior, focal: focal)
        let start = try linearStart(model: subModel, normalized: subNormalized, weights: subPrior)
        // The mirrored start: the model's depth flipped about its centroid's plane.
        let d = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1))
        let centroid = subModel.reduce(Vector3.zero, +) / Double(subModel.count)
        let c = start * centroid
        let flippedRotation = SO3(d * start.rotation.matrix * d)
        let flipped = SE3(rotation: flippedRotation, translation: c - flippedRotation * centroid)
        var best: (pose: SE3, cost: Double, squares: Double, mirrored: Bool)?
        // A distinct minimum that lost on the subset (not one that joined the winner's).
        var runnerUp: (pose: SE3, cost: Double, squares: Double, mirrored: Bool)?
        for (candidate, mirrored) in [(start, false), (flipped, true)] {
            // The second start is dropped once it has come within `joined` of the first's
            // minimum at a higher cost: it is sliding into that minimum, not another one (the
            // mirrored start usually does; refining it to the end only confirms the same pose).
            let leader = best
            var joinedLeader = false
            guard let refined = try? refine(candidate, points: competition, huber: huber, costTolerance: stride == 1 ? finalCostTolerance : raceCostTolerance, abandon: { pose, cost in
                guard let leader, cost > leader.cost, Self.joined(pose, leader.pose) else { return false }
                joinedLeader = true
                return true
            }) else { continue }
            if refined.cost < (best?.cost ?? .infinity) {
                if let previous = best, !Self.joined(previous.pose, refined.pose) { runnerUp = previous }
                best = (refined.pose, refined.cost, refined.squares, mirrored)
            } else if !joinedLeader, let leader, !Self.joined(refined.pose, leader.pose) {
                runnerUp = (refined.pose, refined.cost, refined.squares, mirrored)
            }
        }
        if stride > 1, let winner = best {
            let refined = try refine(winner.pose, points: all, huber: huber)
            best = (refined.pose, refined.cost, refined.squares, winner.mirrored)
            // A close race on the subset (the loser's cost within 10 %) is decided on all points:
            // the subset's choice of minimum is then the full problem's.
            if let other = runnerUp, other.cost < 1.1 * winner.cost,
               let second = try? refine(other.pose, points: all, huber: huber), second.cost < refined.cost {
                best = (second.pose, second.cost, second.squares, other.mirrored)
            }
        }
        guard let best else { throw SolveError.degenerate("no start converged to a pose in front of the camera") }
        // Without distortion the undistorted pixels are the pixels: the RMS comes with the fit.
        let rms = camera.distortion == .none ? (best.squares / Double(model.count)).squareRoot()
            : rmsPixels(best.pose, model: model, pixels: pixels, camera: camera)
        return Solution(cameraFromModel: best.pose, rmsPixels: rms, fromMirroredStart: best.mirrored)
    }

    /// Whether a model point and its pixel are finite: 0·x is 0 for every finite x and NaN for
    /// an infinity or NaN (one multiply-add chain per point, no branch per coordinate).
    @inline(__always) static func finite(_ m: Vector3, _ p: Vector2) -> Bool {
        (m * 0).sum() + (p * 0).sum() == 0
    }

    /// The undistorted normalized points of `pixels` (``CameraModel/normalized(_:)``; without
    /// distortion, `((u − c_x)/f_x, (v − c_y)/f_y)` directly).
    static func normalizedPoints(_ pixels: [Vector2], camera: CameraModel) throws -> [Vector2] {
        guard camera.distortion == .none else { return try pixels.map { try camera.normalized($0) } }
        let k = camera.intrinsics
        let c = Vector2(k.cx, k.cy), f = Vector2(k.fx, k.fy)
        return [Vector2](unsafeUninitializedCapacity: pixels.count) { out, initialized in
            pixels.withUnsafeBufferPointer { p in
                for i in p.indices { out.initializeElement(at: i, to: (p[i] - c) / f) }
            }
            initialized = pixels.count
        }
    }

    /// Root-mean-square reprojection error (px) of `model` at `pose` against `pixels` (points
    /// that do not project count as 0, as before).
    public static func rmsPixels(_ pose: SE3, model: [Vector3], pixels: [Vector2], camera: CameraModel) -> Double {
        var sum = 0.0
        for i in model.indices {
            guard let p = camera.project(pose * model[i]) else { continue }
            let e = p - pixels[i]
            sum += e.x * e.x + e.y * e.y
        }
        return (sum / Double(max(1, model.count))).squareRoot()
    }

    /// The DLT pose: `[R|t]` from the 2n × 12 system on normalized points (the model centred
    /// and scaled first; each point's two rows scaled by √weight) as the null vector of its
    /// normal matrix, the rotation the nearest proper one, the scale from the fit.
    static func linearStart(model: [Vector3], normalized: [Vector2], weights: [Double]? = nil) throws -> SE3 {
        let n = model.count
        let centroid = model.reduce(Vector3.zero, +) / Double(n)
        let spread = (model.reduce(0.0) { $0 + ($1 - centroid).squaredNorm } / Double(n)).squareRoot()
        guard spread > 0 else { throw SolveError.degenerate("the model points coincide") }
        let q = model.map { ($0 - centroid) / spread }
        // The 12 × 12 normal matrix AᵀA of the 2n × 12 system. Point i's rows are
        // (v, 0, −x·v) and (0, v, −y·v) with v = √wᵢ·(q, 1): AᵀA = [S 0 −X; 0 S −Y; −X −Y Q]
        // with S = Σ v vᵀ, X = Σ x v vᵀ, Y = Σ y v vᵀ, Q = Σ (x² + y²) v vᵀ (each 4 × 4,
        // symmetric: four rows of four lanes each). Its eigenvector of the smallest eigenvalue is [R|t].
        var s0 = SIMD4<Double>.zero, s1 = s0, s2 = s0, s3 = s0, x0 = s0, x1 = s0, x2 = s0, x3 = s0
        var y0 = s0, y1 = s0, y2 = s0, y3 = s0, q0 = s0, q1 = s0, q2 = s0, q3 = s0
        for i in 0..<n {
            let (x, y, p) = (normalized[i].x, normalized[i].y, q[i])
            let s = (weights?[i] ?? 1).squareRoot()
            let v = SIMD4<Double>(s * p.x, s * p.y, s * p.z, s)
            let r2 = x * x + y * y
            let v0 = v * v[0], v1 = v * v[1], v2 = v * v[2], v3 = v * v[3]
            s0 += v0; s1 += v1; s2 += v2; s3 += v3
            x0 += x * v0; x1 += x * v1; x2 += x * v2; x3 += x * v3
            y0 += y * v0; y1 += y * v1; y2 += y * v2; y3 += y * v3
            q0 += r2 * v0; q1 += r2 * v1; q2 += r2 * v2; q3 += r2 * v3
        }
        let (sRows, xRows, yRows, qRows) = ([s0, s1, s2, s3], [x0, x1, x2, x3], [y0, y1, y2, y3], [q0, q1, q2, q3])
        var ata = [Double](repeating: 0, count: 144)
        for k in 0..<4 {
            for l in 0..<4 {
                ata[k * 12 + l] = sRows[k][l]
                ata[(4 + k) * 12 + 4 + l] = sRows[k][l]
                ata[(8 + k) * 12 + 8 + l] = qRows[k][l]
                ata[(8 + k) * 12 + l] = -xRows[k][l]
                ata[k * 12 + 8 + l] = -xRows[k][l]
                ata[(8 + k) * 12 + 4 + l] = -yRows[k][l]
                ata[(4 + k) * 12 + 8 + l] = -yRows[k][l]
            }
        }
        var m = try nullVector(ata)
        // Points in front of the camera: the third row's depth at the centroid (m[11]) positive.
        if m[11] < 0 { for k in 0..<12 { m[k] = -m[k] } }
        let block = Matrix3(rows: Vector3(m[0], m[1], m[2]), Vector3(m[4], m[5], m[6]), Vector3(m[8], m[9], m[10]))
        guard let rotation = try? SO3(orthonormalizing: block).matrix else { throw SolveError.degenerate("the linear start has no rotation") }
        // The scale: the mean singular value of the block, trace(Rᵀ·block)/3.
        let scale = (rotation.transposed * block).trace / 3
        guard scale > 0 else { throw SolveError.degenerate("the linear start has no rotation") }
        // Back to unscaled model coordinates: p_C = R (x − c)/s·s' … with t = m[3,7,11]/scale.
        let t = Vector3(m[3], m[7], m[11]) / scale * spread
        return SE3(rotation: SO3(rotation), translation: t - rotation * centroid)
    }

    /// The unit null vector of the DLT's 12 × 12 normal matrix (row-major, symmetric): by
    /// inverse iteration (``SymmetricEigen/smallest(_:n:)``, no LAPACK) when the second
    /// smallest eigenvalue stands clear of zero, else by LAPACK's eigensolver, which also decides
    /// whether a second (near-)null direction leaves the pose undetermined.
    static func nullVector(_ ata: [Double]) throws -> [Double] {
        var trace = 0.0
        for k in 0..<12 { trace += ata[k * 12 + k] }
        // The inverse iteration's λ₂ is an estimate from above; 10⁶ times the LAPACK test's
        // threshold of 10⁻¹⁶·λ₁₂ (≤ 10⁻¹⁶·trace) leaves a wide margin.
        // The direction to 10⁻⁴: the start's own error (algebraic, not reprojection, error
        // minimized) is larger, and Levenberg–Marquardt refines it.
        if let pair = SymmetricEigen.smallest(ata, n: 12, tolerance: 1e-4), pair.second > 1e-10 * max(1, trace) { return pair.vector }
        let eigen = try SymmetricEigen(Matrix(rows: 12, columns: 12, columnMajor: ata), symmetryTolerance: 1e-8)
        // A second (near-)null direction: the points do not pin the pose down.
        guard eigen.values.count == 12, eigen.values[1] > 1e-16 * max(1, eigen.values[11]) else {
            throw SolveError.degenerate("the points do not determine a pose (all on one plane or line?)")
        }
        return (0..<12).map { eigen.vectors[$0, 0] }
    }

    /// Levenberg–Marquardt (``LevenbergMarquardt``, on poses) from `start` on the robust cost
    /// Σ prior·ρ(|e|) (ρ Huber's, e the error in undistorted pixels: the normalized coordinates'
    /// error times the focal lengths, as OpenCV's solvePnP also undistorts first), by
    /// iteratively reweighted Gauss–Newton steps: every point weighs its prior times ρ′(e)/e at
    /// the current pose, and one pass over the points (four at a time) gives a pose's cost and
    /// its 6 × 6 normal equations (``NormalEquations6``: no 2n × 6 Jacobian, no heap allocation
    /// per iteration, the damped system solved on the stack). Steps are left increments of the
    /// whole pose, `exp(δθ)·R`, `exp(δθ)·t + δt`. Returns the pose and its robust cost; a start
    /// with a point behind the camera is an error.
    public static func refine(_ start: SE3, model: [Vector3], normalized: [Vector2], focal: Vector2, huber: Double, prior: [Double]) throws -> (pose: SE3, cost: Double) {
        guard model.count == normalized.count, model.count == prior.count else {
            throw SolveError.countMismatch(model: model.count, pixels: normalized.count)
        }
        let refined = try refine(start, points: Packed(model: model, normalized: normalized, weights: prior, focal: focal), huber: huber)
        return (refined.pose, refined.cost)
    }

    /// Whether two poses are so close that a refinement from one converges to the other's
    /// minimum: rotations within 0.01 rad (0.6°) and translations within 1 % of the distance.
    /// Distinct minima of a PnP problem (a pose and its mirror) lie tens of degrees apart.
    static func joined(_ a: SE3, _ b: SE3) -> Bool {
        // |w| of the relative quaternion > cos(0.005): an angle below 0.01 rad (either sign of q).
        abs((a.rotation.inverse * b.rotation).quaternion.w) > 0.999_987_500_026 && (a.translation - b.translation).norm < 0.01 * b.translation.norm
    }

    /// The relative cost decrease at which a refinement that gives the pose stops.
    static let finalCostTolerance = 1e-9

    /// The same for the starts' race on a subset of a larger model: its poses only pick the
    /// winner (a race closer than 10 % is decided again on all points) and start the refinement
    /// on all points, which converges to ``finalCostTolerance`` from wherever the race left it.
    /// 10⁻⁶ stops the 52-point race of a 468-point mesh two to three passes earlier; the pose
    /// from all points is the same to that refinement's tolerance.
    static let raceCostTolerance = 1e-6

    /// ``refine(_:model:normalized:focal:huber:prior:)`` on packed points; `abandon` as in
    /// ``LevenbergMarquardt/minimize6(initial:evaluate:retract:abandon:)``.
    /// `squares` is the sum of the squared reprojection errors (px²) at the returned pose, of
    /// the points with weight: the minimizer's cost falls with every accepted step, so the
    /// evaluation of lowest cost is the returned pose's.
    static func refine(_ start: SE3, points: Packed, huber: Double, costTolerance: Double = finalCostTolerance,
                       abandon: (SE3, Double) -> Bool = { _, _ in false }) throws -> (pose: SE3, cost: Double, squares: Double) {
        var solver = LevenbergMarquardt()
        solver.stepTolerance = 1e-7  // rad and m: 6e-6°, 0.1 µm
        solver.costTolerance = costTolerance
        solver.gradientTolerance = 0
        do {
            var lowest = (cost: Double.infinity, squares: Double.infinity)
            let fit = try solver.minimize6(initial: start, evaluate: { pose in
                let (equations, squares) = points.evaluate(at: pose, huber: huber)
                if equations.cost < lowest.cost { lowest = (equations.cost, squares) }
                return equations
            }, retract: Packed.retract, abandon: abandon)
            return (fit.state, fit.finalCost, lowest.squares)
        } catch {
            throw SolveError.degenerate("a point falls behind the camera")
        }
    }
}
