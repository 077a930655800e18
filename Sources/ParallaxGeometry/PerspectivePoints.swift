import Foundation
import ParallaxMath

/// The pose of a known 3D model from its points' pixels (PnP): `T_CM` (model to camera) for a
/// calibrated camera, lens distortion included.
///
/// A global start that needs no guess — the direct linear transform on the undistorted
/// normalized points (≥ 6, not all on one plane), its rotation the nearest proper rotation — and
/// Levenberg–Marquardt on the reprojection error in pixels through LAPACK, with Huber weights
/// (iteratively reweighted) so a few bad points do not pull the pose. Near-planar models seen
/// from afar have a second, mirrored minimum (the model's depth flipped toward the camera:
/// OpenCV's ITERATIVE returns it for one of the AFLW2000 faces); both are refined and the lower
/// cost wins, so the mirrored pose is returned only when it explains the pixels better.
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

    /// A solved pose.
    public struct Solution: Sendable {
        /// `T_CM`.
        public var cameraFromModel: SE3
        /// Root-mean-square reprojection error (px) over all points.
        public var rmsPixels: Double
        /// Whether the mirrored start won (reported, not hidden).
        public var fromMirroredStart: Bool
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
        let start = try linearStart(model: model, normalized: normalized, weights: prior)
        // The mirrored start: the model's depth flipped about its centroid's plane.
        let d = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, -1))
        let centroid = model.reduce(Vector3.zero, +) / Double(model.count)
        let c = start * centroid
        let flippedRotation = SO3(d * start.rotation.matrix * d)
        let flipped = SE3(rotation: flippedRotation, translation: c - flippedRotation * centroid)
        var best: (pose: SE3, cost: Double, mirrored: Bool)?
        for (candidate, mirrored) in [(start, false), (flipped, true)] {
            guard let refined = try? refine(candidate, model: model, pixels: pixels, camera: camera, huber: huber, prior: prior) else { continue }
            if refined.cost < (best?.cost ?? .infinity) { best = (refined.pose, refined.cost, mirrored) }
        }
        guard let best else { throw SolveError.degenerate("no start converged to a pose in front of the camera") }
        var sum = 0.0
        for i in model.indices {
            guard let p = camera.project(best.pose * model[i]) else { continue }
            let e = p - pixels[i]
            sum += e.x * e.x + e.y * e.y
        }
        return Solution(cameraFromModel: best.pose, rmsPixels: (sum / Double(model.count)).squareRoot(), fromMirroredStart: best.mirrored)
    }

    /// The DLT pose: `[R|t]` from the 2n × 12 system on normalized points (the model centred
    /// and scaled first; each point's two rows scaled by √weight), the rotation the nearest
    /// proper one, the scale from its singular values.
    static func linearStart(model: [Vector3], normalized: [Vector2], weights: [Double]? = nil) throws -> SE3 {
        let n = model.count
        let centroid = model.reduce(Vector3.zero, +) / Double(n)
        let spread = (model.reduce(0.0) { $0 + ($1 - centroid).squaredNorm } / Double(n)).squareRoot()
        guard spread > 0 else { throw SolveError.degenerate("the model points coincide") }
        let q = model.map { ($0 - centroid) / spread }
        var a = Matrix(rows: 2 * n, columns: 12)
        for i in 0..<n {
            let (x, y, p) = (normalized[i].x, normalized[i].y, q[i])
            let s = (weights?[i] ?? 1).squareRoot()
            for (k, v) in [s * p.x, s * p.y, s * p.z, s].enumerated() {
                a[2 * i, k] = v
                a[2 * i, 8 + k] = -x * v
                a[2 * i + 1, 4 + k] = v
                a[2 * i + 1, 8 + k] = -y * v
            }
        }
        let svd = try SVD(a)
        guard svd.singularValues.count == 12, svd.singularValues[10] > 1e-9 * max(1, svd.singularValues[0]) else {
            throw SolveError.degenerate("the points do not determine a pose (all on one plane or line?)")
        }
        var m = (0..<12).map { svd.vt[11, $0] }
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

    /// Levenberg–Marquardt from `start` on the Huber-weighted pixel residuals (three
    /// reweighting rounds), each point's weight its `prior` times its Huber weight; the pose
    /// and its robust cost.
    static func refine(_ start: SE3, model: [Vector3], pixels: [Vector2], camera: CameraModel, huber: Double, prior: [Double]) throws -> (pose: SE3, cost: Double) {
        var pose = start
        var weights = prior
        var solver = LevenbergMarquardt()
        solver.maxIterations = 50
        for _ in 0..<3 {
            let base = pose
            // Parameters: δθ (left rotation increment) and δt.
            func posed(_ x: [Double]) -> SE3 {
                SE3(rotation: SO3.exp(Vector3(x[0], x[1], x[2])) * base.rotation, translation: base.translation + Vector3(x[3], x[4], x[5]))
            }
            let w = weights.map { $0.squareRoot() }
            let fit = try solver.minimize(initial: [Double](repeating: 0, count: 6), residuals: { x in
                let t = posed(x)
                var r = [Double](repeating: 0, count: 2 * model.count)
                for i in model.indices {
                    guard let p = camera.project(t * model[i]) else { r[2 * i] = 1e3; r[2 * i + 1] = 1e3; continue }
                    r[2 * i] = w[i] * (p.x - pixels[i].x)
                    r[2 * i + 1] = w[i] * (p.y - pixels[i].y)
                }
                return r
            }, jacobian: { x in
                let t = posed(x)
                var j = Matrix(rows: 2 * model.count, columns: 6)
                for i in model.indices {
                    let pc = t * model[i]
                    guard let (_, jp) = camera.projectWithJacobian(pc) else { continue }
                    // ∂p_C/∂δθ = −[R p]×, ∂p_C/∂δt = I.
                    let rp = pc - t.translation
                    for (row, g) in [(0, jp.row0), (1, jp.row1)] {
                        let dTheta = rp.cross(g)  // gᵀ(−[rp]×) = (rp × g)ᵀ
                        for k in 0..<3 {
                            j[2 * i + row, k] = w[i] * dTheta[k]
                            j[2 * i + row, 3 + k] = w[i] * g[k]
                        }
                    }
                }
                return j
            })
            pose = posed(fit.parameters)
            // Huber weights from the new residuals.
            for i in model.indices {
                guard let p = camera.project(pose * model[i]) else { weights[i] = 0; continue }
                let e = (p - pixels[i]).norm
                weights[i] = prior[i] * (e <= huber ? 1 : huber / e)
            }
        }
        // The Huber cost, and every point in front of the camera.
        var cost = 0.0
        for i in model.indices {
            let pc = pose * model[i]
            guard pc.z > 0, let p = camera.project(pc) else { throw SolveError.degenerate("a point falls behind the camera") }
            let e = (p - pixels[i]).norm
            cost += prior[i] * (e <= huber ? 0.5 * e * e : huber * (e - 0.5 * huber))
        }
        return (pose, cost)
    }
}
