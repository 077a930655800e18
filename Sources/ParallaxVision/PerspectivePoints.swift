import Foundation
import ParallaxMath
import ParallaxGeometry

/// The pose of a known 3D model from its points' pixels (PnP): `T_CM` (model to camera) for a
/// calibrated camera, lens distortion included.
///
/// A global start that needs no guess — the direct linear transform on the undistorted
/// normalized points (≥ 6, not all on one plane; the null vector of its normal matrix by
/// LAPACK's symmetric eigensolver), its rotation the nearest proper rotation — and
/// Levenberg–Marquardt on the reprojection error in undistorted pixels with Huber weights
/// (iteratively reweighted) so a few bad points do not pull the pose, on 6 × 6 normal equations
/// built in one pass over the points. Near-planar models seen
/// from afar have a second, mirrored minimum (the model's depth flipped toward the camera:
/// OpenCV's ITERATIVE returns it for one of the AFLW2000 faces); both are refined and the lower
/// cost wins, so the mirrored pose is returned only when it explains the pixels better. Models
/// of more than ``startPoints`` points let the two starts compete on an evenly spread subset and
/// refine only the winner on all points.
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

    /// Points the two starts compete on (an evenly spread subset of larger models).
    static let startPoints = 100

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
        if let weights {
            guard weights.count == model.count else { throw SolveError.countMismatch(model: model.count, pixels: weights.count) }
            if let bad = weights.firstIndex(where: { !($0.isFinite && $0 >= 0) }) { throw SolveError.notFinite(index: bad) }
        }
        let given = weights ?? [Double](repeating: 1, count: model.count)
        let used = given.filter { $0 > 0 }.count
        guard used >= 6 else { throw SolveError.tooFewPoints(used) }
        for i in model.indices where given[i] > 0 && !(model[i].x.isFinite && model[i].y.isFinite && model[i].z.isFinite && pixels[i].x.isFinite && pixels[i].y.isFinite) {
            throw SolveError.notFinite(index: i)
        }
        // Only the points with weight from here on.
        let kept = model.indices.filter { given[$0] > 0 }
        let model = kept.map { model[$0] }, pixels = kept.map { pixels[$0] }, prior = kept.map { given[$0] }
        let normalized = try pixels.map { try camera.normalized($0) }
        let focal = Vector2(camera.intrinsics.fx, camera.intrinsics.fy)
        // Many points (a 468-point mesh): the two starts compete on an evenly spread subset of
        // about `startPoints`, and only the winner is refined on all of them (from near its
        // minimum, a few iterations): the same minimum at a fraction of the cost.
        let stride = max(1, model.count / startPoints)
        let subset = Swift.stride(from: 0, to: model.count, by: stride).map { $0 }
        let (subModel, subNormalized, subPrior) = stride == 1 ? (model, normalized, prior)
            : (subset.map { model[$0] }, subset.map { normalized[$0] }, subset.map { prior[$0] })
        let start = try linearStart(model: subModel, normalized: subNormalized, weights: subPrior)
        // The mirrored start: the model's depth flipped about its centroid's plane.
        let d = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1))
        let centroid = subModel.reduce(Vector3.zero, +) / Double(subModel.count)
        let c = start * centroid
        let flippedRotation = SO3(d * start.rotation.matrix * d)
        let flipped = SE3(rotation: flippedRotation, translation: c - flippedRotation * centroid)
        var best: (pose: SE3, cost: Double, mirrored: Bool)?
        for (candidate, mirrored) in [(start, false), (flipped, true)] {
            guard let refined = try? refine(candidate, model: subModel, normalized: subNormalized, focal: focal, huber: huber, prior: subPrior) else { continue }
            if refined.cost < (best?.cost ?? .infinity) { best = (refined.pose, refined.cost, mirrored) }
        }
        if stride > 1, let winner = best {
            let all = try refine(winner.pose, model: model, normalized: normalized, focal: focal, huber: huber, prior: prior)
            best = (all.pose, all.cost, winner.mirrored)
        }
        guard let best else { throw SolveError.degenerate("no start converged to a pose in front of the camera") }
        return Solution(cameraFromModel: best.pose, rmsPixels: rmsPixels(best.pose, model: model, pixels: pixels, camera: camera), fromMirroredStart: best.mirrored)
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
        // The 12 × 12 normal matrix AᵀA of the 2n × 12 system, accumulated row by row (each
        // row has 8 non-zero entries); its eigenvector of the smallest eigenvalue is [R|t].
        var ata = [Double](repeating: 0, count: 144)
        for i in 0..<n {
            let (x, y, p) = (normalized[i].x, normalized[i].y, q[i])
            let s = (weights?[i] ?? 1).squareRoot()
            let v = SIMD4<Double>(s * p.x, s * p.y, s * p.z, s)
            // Rows (v, 0, −x·v) and (0, v, −y·v): blocks v vᵀ, x² v vᵀ, −x v vᵀ and alike.
            for k in 0..<4 {
                for l in 0...k {
                    let vv = v[k] * v[l]
                    ata[k * 12 + l] += vv
                    ata[(4 + k) * 12 + 4 + l] += vv
                    ata[(8 + k) * 12 + 8 + l] += (x * x + y * y) * vv
                }
                for l in 0..<4 {
                    let vv = v[k] * v[l]
                    ata[(8 + k) * 12 + l] -= x * vv
                    ata[(8 + k) * 12 + 4 + l] -= y * vv
                }
            }
        }
        for a in 0..<12 { for b in 0..<a { ata[b * 12 + a] = ata[a * 12 + b] } }
        let eigen = try SymmetricEigen(Matrix(rows: 12, columns: 12, columnMajor: ata), symmetryTolerance: 1e-8)
        // A second (near-)null direction: the points do not pin the pose down.
        guard eigen.values.count == 12, eigen.values[1] > 1e-16 * max(1, eigen.values[11]) else {
            throw SolveError.degenerate("the points do not determine a pose (all on one plane or line?)")
        }
        var m = (0..<12).map { eigen.vectors[$0, 0] }
        // Points in front of the camera: the third row's depth at the centroid (m[11]) positive.
        if m[11] < 0 { m = m.map { -$0 } }
        let block = Matrix3(rows: Vector3(m[0], m[1], m[2]), Vector3(m[4], m[5], m[6]), Vector3(m[8], m[9], m[10]))
        guard let rotation = try? SO3(orthonormalizing: block).matrix else { throw SolveError.degenerate("the linear start has no rotation") }
        // The scale: the mean singular value of the block, trace(Rᵀ·block)/3.
        let scale = (rotation.transposed * block).trace / 3
        guard scale > 0 else { throw SolveError.degenerate("the linear start has no rotation") }
        // Back to unscaled model coordinates: p_C = R (x − c)/s·s' … with t = m[3,7,11]/scale.
        let t = Vector3(m[3], m[7], m[11]) / scale * spread
        return SE3(rotation: SO3(rotation), translation: t - rotation * centroid)
    }

    /// Levenberg–Marquardt (``LevenbergMarquardt``, on poses) from `start` on the robust cost
    /// Σ prior·ρ(|e|) (ρ Huber's, e the error in undistorted pixels: the normalized coordinates'
    /// error times the focal lengths, as OpenCV's solvePnP also undistorts first), by
    /// iteratively reweighted Gauss–Newton steps: every point weighs its prior times ρ′(e)/e at
    /// the current pose, and one pass over the points gives a pose's cost and its 6 × 6 normal
    /// equations (``NormalEquations6``: no 2n × 6 Jacobian). Steps are left increments,
    /// `exp(δθ)·R`, `t + δt`. Returns the pose and its robust cost; a start with a point behind
    /// the camera is an error.
    public static func refine(_ start: SE3, model: [Vector3], normalized: [Vector2], focal: Vector2, huber: Double, prior: [Double]) throws -> (pose: SE3, cost: Double) {
        let n = model.count
        func evaluate(_ pose: SE3) -> LevenbergMarquardt.NormalEquations {
            var cost = 0.0
            var normal = NormalEquations6()
            let rotation = pose.rotation.matrix
            for i in 0..<n {
                let rp = rotation * model[i]
                let pc = rp + pose.translation
                guard pc.z > 0 else { return LevenbergMarquardt.NormalEquations(cost: .infinity, hessian: [], gradient: []) }
                let iz = 1 / pc.z
                let e = (Vector2(pc.x * iz, pc.y * iz) - normalized[i]) * focal
                let norm = e.norm
                cost += prior[i] * (norm <= huber ? 0.5 * norm * norm : huber * (norm - 0.5 * huber))
                // Rows of ∂pixel/∂p_C, then ∂p_C/∂δθ = −[R p]×, ∂p_C/∂δt = I: a row r gives
                // (rp × r) for δθ and r for δt.
                let r0 = focal.x * Vector3(iz, 0, -pc.x * iz * iz), r1 = focal.y * Vector3(0, iz, -pc.y * iz * iz)
                let d0 = rp.cross(r0), d1 = rp.cross(r1)
                normal.add(SIMD8(d0.x, d0.y, d0.z, r0.x, r0.y, r0.z, 0, 0), e.x, SIMD8(d1.x, d1.y, d1.z, r1.x, r1.y, r1.z, 0, 0), e.y,
                           weight: prior[i] * (norm <= huber ? 1 : huber / norm))
            }
            return normal.equations(cost: cost)
        }
        var solver = LevenbergMarquardt()
        solver.stepTolerance = 1e-7  // rad and m: 6e-6°, 0.1 µm
        solver.costTolerance = 1e-9
        solver.gradientTolerance = 0
        do {
            let fit = try solver.minimize(initial: start, dimension: 6, evaluate: evaluate) { pose, x in
                SE3(rotation: SO3.exp(Vector3(x[0], x[1], x[2])) * pose.rotation, translation: pose.translation + Vector3(x[3], x[4], x[5]))
            }
            return (fit.state, fit.finalCost)
        } catch {
            throw SolveError.degenerate("a point falls behind the camera")
        }
    }
}
