import ParallaxInertial
import ParallaxMath

/// Finds the camera–IMU clock offset before the filter starts, from rotation alone (as Kalibr's
/// first guess correlates angular rates): a camera stamping 20 ms late is 4 σ outside the
/// filter's time-offset prior, and an EKF started that far off diverges instead of converging
/// (EuRoC MH_01 with cam0 stamped +20 ms: 10.7 m APE before this search).
///
/// Over the recent frames, pairs of frames `a`, `b` about ``pairSpan`` apart are held to the
/// epipolar constraint with the rotation the gyro gives over `[a+δ, b+δ]` (rotated into the
/// camera) and the translation left free: for a given rotation the best translation direction
/// is the null direction of `Σ n nᵀ`, `n = (R d_b) × d_a` (Kneip's eigenvalue formulation), so
/// each pair's cost is the smallest eigenvalue — in closed form, with no local minimum in the
/// translation (Huber-weighted, in units of the bearing's variance). The gyro bias (one vector
/// for the window) is fitted by Gauss–Newton at the start and again at the best shift. The
/// cost's minimum over ``range`` in ``step``s, refined by a parabola, is the offset; σ is the
/// larger of the cost's curvature (scaled by the cost per degree of freedom when that exceeds
/// 1) and the spread of the offsets found leaving one pair out at a time (errors a pair's
/// features share). Where the angular rate barely changes (a still or steadily turning
/// platform) a shift changes nothing and the search says so; where it changes slowly (a smooth
/// orbit) the offset comes roughly (σ up to ``roughSigma``), and a cost leaning toward an end of
/// the range asks for a wider search.
struct ClockOffsetSearch {
    /// Shifts tried: `−range…+range` (s), in `step`s (s).
    var range = 0.1
    var step = 0.001
    /// Time between the two frames of a pair (s): the rotation error a shift `δ` makes is about
    /// `δ · (ω(b) − ω(a))`, larger for pairs further apart, but so is the translation that can
    /// mimic a rotation.
    var pairSpan = 0.1
    /// σ of a bearing (normalized image units).
    var normalizedNoise = 1.0 / 460
    /// σ (s) added to what the data say: on EuRoC MH_01 with cam0 moved by known amounts the
    /// offsets found were 0.2–2.4 ms off where curvature and jackknife said 0.6–1.1 ms (the
    /// translation a short pair sees can mimic a turn the same way in every pair).
    var systematicSigma = 0.001
    /// Largest σ (s) of an offset that counts as found, unless the stamps' own jitter allows
    /// more.
    var maxSigma = 0.002
    /// Largest σ (s) of an offset given as ``Outcome/rough(_:)``: a smooth motion whose rates
    /// change slowly determines the offset only to 8–12 ms (a rendered orbit, started moving,
    /// camera 300 ms off: −304 ± 10 ms), which still says where to start far better than a prior
    /// 300 ms away (started from 0, the filter's online estimate ended at 45 ms and the
    /// trajectory 0.3 m off).
    var roughSigma = 0.025
    /// σ (s) of each frame stamp's own error (``StampJitter``): every pair's rotation is
    /// compared at stamps that far off, so no offset comes surer than about that, and one found
    /// to within twice it counts as found (EuRoC MH_01 stamped ±3 ms at random, σ 1.7 ms, camera
    /// 50 ms early: 48.8 ± 2.3 ms was refused at 2 ms, the filter started from 0 and was lost).
    var stampJitter = 0.0
    /// Cost per degree of freedom above which no shift is said to fit (the camera's rotation
    /// under its calibration does not match the gyro's): matched frames give ≈ 1 (simulated,
    /// 0.5 px noise) and 0.2 (EuRoC MH_01 at the 0.7 px vio assumes); its images turned 180°, 7–9.
    var mismatchLimit = 4.0
    /// Fewest pairs and features per pair.
    var minPairs = 4
    var minFeatures = 12

    /// What the search found: the shift (s) to add to the frames' times, its σ (s), and the pairs
    /// it used.
    struct Result: Equatable {
        var offset: Double
        var sigma: Double
        var pairs: Int
    }

    /// What a search gives.
    enum Outcome: Equatable {
        case found(Result)
        /// Determined only to more than ``maxSigma`` (up to ``roughSigma``), and possibly far
        /// off where the translation mimics a turn: the estimator takes it only where something
        /// else agrees — before the start the window's visual–inertial alignment fitting it
        /// clearly better, once moving the filter heading for it (``RoughClockOffset``) or not
        /// fitting its images.
        case rough(Result)
        /// The cost falls toward this end of the range (s) by more than the noise explains but
        /// not clearly enough to say the offset lies beyond it: a wider search is to tell.
        case leaning(Double)
        /// The cost falls clearly toward this end of the range (s): the offset lies beyond it.
        case beyondRange(Double)
        /// At no shift do the frames' rotations agree with the gyro's: the best cost per degree of
        /// freedom (1 where the bearings' noise alone explains it) is above ``mismatchLimit``.
        case mismatch(Double)
        /// Too few frames or features, or the offset not determined to ``maxSigma``.
        case undetermined
    }

    /// Two frames' times (s) and the unit bearings (`d_a`, `d_b`) of the features both saw.
    struct Pair {
        var from: Double
        var to: Double
        var bearings: [(Vector3, Vector3)]
    }

    /// The offset for `frames` (times on the IMU clock, s, as they stand) and the IMU readings
    /// `imu` (used where they reach ``range`` past a pair's frames); `imuFromCamera` rotates the
    /// camera into the IMU.
    func search(_ frames: [DynamicInitializer.Frame], imu: [IMUMeasurement], imuFromCamera: SO3) -> Outcome {
        guard let firstIMU = imu.first?.time, let lastIMU = imu.last?.time, range > 0, step > 0 else { return .undetermined }
        let usable = frames.filter { $0.time - range >= firstIMU && $0.time + range <= lastIMU }
        let pairs = Self.pairs(usable, span: pairSpan).compactMap { a, b -> Pair? in
            var bearings: [(Vector3, Vector3)] = []
            for (id, n) in a.features.sorted(by: { $0.key < $1.key }) {
                guard let m = b.features[id] else { continue }
                bearings.append((Vector3(n.x, n.y, 1).normalized, Vector3(m.x, m.y, 1).normalized))
            }
            return bearings.count >= minFeatures ? Pair(from: a.time, to: b.time, bearings: bearings) : nil
        }
        guard pairs.count >= minPairs else { return .undetermined }
        let count = Int((range / step).rounded(.down))
        let shifts = (-count...count).map { Double($0) * step }
        // The gyro's rotation of every pair at every shift (camera frame, no bias).
        let cameraFromIMU = imuFromCamera.inverse
        let rotations = shifts.map { delta in
            pairs.map { cameraFromIMU * Self.gyroRotation(imu, from: $0.from + delta, to: $0.to + delta) * imuFromCamera }
        }
        let table = profileCosts(pairs, rotations: rotations, centre: count, imuFromCamera: imuFromCamera)
        let all = Array(pairs.indices)
        let total = table.map { $0.reduce(0, +) }
        guard let found = minimum(table, pairs: all, of: pairs, shifts: shifts) else {
            guard let best = total.indices.min(by: { total[$0] < total[$1] }) else { return .undetermined }
            let perDegree = total[best] / degreesOfFreedom(pairs, all)
            // Falling toward an end of the range, by a fifth of its level and far beyond the noise:
            // the offset lies past it. (A camera turned against its calibration fits no shift:
            // its cost is high and nearly flat.)
            let drop = total[count] - total[best]
            if best == 0 || best == total.count - 1, drop > 100 * max(1, perDegree), drop > 0.2 * total[best] { return .beyondRange(shifts[best]) }
            // Falling toward the end by more than 9 (3 σ in χ²) per unit of the noise, on a
            // cost that fits (the moving orbit 300 ms off: 5–21 over 400, steadily, in its
            // first 2.4 s).
            if best == 0 || best == total.count - 1, perDegree <= mismatchLimit, drop > 9 * max(1, perDegree) { return .leaning(shifts[best]) }
            // No shift makes the frames' rotations agree with the gyro's: the camera is not
            // where (or not turned as) its calibration says.
            return perDegree > mismatchLimit ? .mismatch(perDegree) : .undetermined
        }
        // Leaving one pair out at a time (jackknife) measures errors shared by a pair's
        // features, which the cost's curvature does not count.
        var left: [Double] = []
        for k in all {
            guard let without = minimum(table, pairs: all.filter { $0 != k }, of: pairs, shifts: shifts) else { return .undetermined }
            left.append(without.offset)
        }
        let n = Double(left.count)
        let mean = left.reduce(0, +) / n
        let jackknife = ((n - 1) / n * left.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }).squareRoot()
        let spread = max(found.sigma, jackknife)
        let sigma = (spread * spread + systematicSigma * systematicSigma).squareRoot()
        let result = Result(offset: found.offset, sigma: sigma, pairs: pairs.count)
        if sigma <= max(maxSigma, 2 * stampJitter) { return .found(result) }
        // A rough answer needs a valley: the cost rising on both sides of it, within the range,
        // by more than the noise explains (25 per unit of it). A profile flat to within 1 over
        // ±100 ms (the orbit's first second, creeping) has a curvature that says ±19 ms, and a
        // minimum 58 ms off where the translation mimics the turn.
        let least = total.min() ?? 0, rise = 25 * max(1, least / degreesOfFreedom(pairs, all))
        let nearest = Int((found.offset / step).rounded()) + count
        let below = (total[..<max(0, min(nearest, total.count))].max() ?? 0) - least > rise
        let above = (total[min(total.count, max(0, nearest + 1))...].max() ?? 0) - least > rise
        guard sigma <= roughSigma else { return .undetermined }
        if below && above { return .rough(result) }
        // Rising on one side only, the valley cut by the range's end (the orbit, camera 100 ms
        // early: 68 ± 14 ms at ±100 ms, then 96 ± 10): a wider search is to see its other side.
        if below != above { return .leaning(below ? shifts[shifts.count - 1] : shifts[0]) }
        return .undetermined
    }

    /// Degrees of freedom of the cost over `pairs`: a residual per feature, less each pair's
    /// translation direction (2), the bias (3) and the offset (1).
    func degreesOfFreedom(_ all: [Pair], _ pairs: [Int]) -> Double {
        max(1, Double(pairs.reduce(0) { $0 + all[$1].bearings.count - 2 } - 4))
    }

    /// The shift (s) whose cost over `pairs` (a column of `table` each) is least, with σ from
    /// the cost's curvature (scaled by the cost per degree of freedom when above 1); `nil` at the
    /// range's edge, with no curvature, or with another valley nearly as deep behind a ridge (a
    /// periodic motion fits two shifts).
    func minimum(_ table: [[Double]], pairs: [Int], of all: [Pair], shifts: [Double]) -> (offset: Double, sigma: Double)? {
        let costs: [Double] = table.map { row in pairs.reduce(0) { $0 + row[$1] } }
        guard costs.allSatisfy({ $0.isFinite }), let best = costs.indices.min(by: { costs[$0] < costs[$1] }), best > 0, best < costs.count - 1
        else { return nil }
        let scale = max(1, costs[best] / degreesOfFreedom(all, pairs))
        // Another valley nearly as deep, behind a ridge (a wiggle of the same valley is none).
        for i in 1..<(costs.count - 1) where abs(i - best) > 3 && costs[i] <= costs[i - 1] && costs[i] <= costs[i + 1] {
            let ridge = costs[min(i, best)...max(i, best)].max() ?? costs[i]
            if costs[i] - costs[best] < 25 * scale, ridge - costs[i] > 25 * scale { return nil }
        }
        let curvature = (costs[best - 1] - 2 * costs[best] + costs[best + 1]) / (step * step)
        guard curvature > 0 else { return nil }
        let refinement = ParabolaPeak.offset(-costs[best - 1], -costs[best], -costs[best + 1])
        return (shifts[best] + refinement * step, (2 * scale / curvature).squareRoot())
    }

    /// Pairs of frames about `span` apart, starting every half span.
    static func pairs(_ frames: [DynamicInitializer.Frame], span: Double) -> [(DynamicInitializer.Frame, DynamicInitializer.Frame)] {
        var out: [(DynamicInitializer.Frame, DynamicInitializer.Frame)] = []
        var i = 0
        while i < frames.count {
            let a = frames[i]
            guard let j = frames.indices.first(where: { $0 > i && frames[$0].time >= a.time + span * 0.9 - 1e-9 }) else { break }
            out.append((a, frames[j]))
            let next = frames.indices.first(where: { $0 > i && frames[$0].time >= a.time + span * 0.5 - 1e-9 }) ?? j
            i = max(i + 1, next)
        }
        return out
    }

    /// The gyro's rotation `R_{I(from) I(to)}` (readings interpolated linearly, `bias` taken out).
    static func gyroRotation(_ imu: [IMUMeasurement], from: Double, to: Double, bias: Vector3 = .zero) -> SO3 {
        var r = SO3.identity
        guard to > from, var k = imu.lastIndex(where: { $0.time <= from }) else { return r }
        var t = from
        while t < to, k + 1 < imu.count {
            let end = min(to, imu[k + 1].time)
            if end > t {
                let mid = IMUMeasurement.interpolated(imu[k], imu[k + 1], at: 0.5 * (t + end))
                r = r * SO3.exp((mid.gyroscope - bias) * (end - t))
            }
            t = end
            k += 1
        }
        return r
    }

    /// A pair's rotation with the gyro bias `bias` (IMU frame, rad/s) taken out: over a short
    /// span, `R · exp(−R_CI b dt)`.
    static func unbiased(_ rotation: SO3, bias: Vector3, span: Double, imuFromCamera: SO3) -> SO3 {
        rotation * SO3.exp(imuFromCamera.inverse * bias * (-span))
    }

    /// Each pair's cost at each shift, with the gyro bias fitted afresh at every shift (a
    /// profile over the bias): over a short stretch whose rotation rate changes steadily, a
    /// shift and a bias turn the pairs alike, so a bias fitted at one shift and kept for the
    /// others pulls the minimum toward that shift and narrows it (an IMU starting 1 s after the
    /// camera, camera 130 ms late: −118.5 ± 1.4 ms found). Fitted from the `centre` shift
    /// outward, each from its neighbour's bias.
    func profileCosts(_ pairs: [Pair], rotations: [[SO3]], centre: Int, imuFromCamera: SO3) -> [[Double]] {
        var table = [[Double]](repeating: [], count: rotations.count)
        let centreBias = fittedBias(pairs, rotations: rotations[centre], imuFromCamera: imuFromCamera)
        func row(_ i: Int, bias: Vector3) -> [Double] {
            pairs.indices.map { k in
                pairCost(pairs[k], rotation: Self.unbiased(rotations[i][k], bias: bias, span: pairs[k].to - pairs[k].from, imuFromCamera: imuFromCamera)).cost
            }
        }
        table[centre] = row(centre, bias: centreBias)
        for direction in [-1, 1] {
            var bias = centreBias
            var i = centre + direction
            while i >= 0 && i < rotations.count {
                bias = fittedBias(pairs, rotations: rotations[i], imuFromCamera: imuFromCamera, from: bias, iterations: 2)
                table[i] = row(i, bias: bias)
                i += direction
            }
        }
        return table
    }

    /// The epipolar cost of `pair` under `rotation` (`R_{Ca Cb}`) with the best translation
    /// direction (in units of the bearing's variance, Huber beyond 3 σ), that direction, and
    /// the features' weights.
    func pairCost(_ pair: Pair, rotation: SO3) -> (cost: Double, translation: Vector3, weights: [Double]) {
        let normals = pair.bearings.map { (rotation * $0.1).cross($0.0) }
        var m = Matrix3.diagonal(.zero)
        for n in normals { m = m + Matrix3.outer(n, n) }
        guard var t = Self.smallestEigenvector(m) else { return (.infinity, .zero, []) }
        // One reweighting: features far off the constraint (a mistracked corner) count as Huber's.
        let huber = 3 * normalizedNoise
        var weights = normals.map { n -> Double in
            let r = abs(n.dot(t))
            return r <= huber ? 1 : huber / r
        }
        m = Matrix3.diagonal(.zero)
        for (n, w) in zip(normals, weights) { m = m + w * Matrix3.outer(n, n) }
        t = Self.smallestEigenvector(m) ?? t
        var cost = 0.0
        for (i, n) in normals.enumerated() {
            let r = abs(n.dot(t))
            weights[i] = r <= huber ? 1 : huber / r
            cost += r <= huber ? r * r : huber * (2 * r - huber)
        }
        return (cost / (normalizedNoise * normalizedNoise), t, weights)
    }

    /// The gyro bias (IMU frame, rad/s) that fits the pairs best under `rotations` (one per
    /// pair, no bias): Gauss–Newton on the features' residuals `(R exp(−R_CI b dt) d_b)·(d_a × t)`
    /// with each pair's translation direction `t` a parameter too (2 on the sphere), eliminated
    /// pair by pair (Schur complement), and solved afresh every step. (Held fixed in the step, a
    /// bias the translations can take up looked stiff, and the steps crept: 20 of them fell
    /// short of the shift's neighbours.) Starts at `start`.
    func fittedBias(_ pairs: [Pair], rotations: [SO3], imuFromCamera: SO3, from start: Vector3 = .zero, iterations: Int = 5) -> Vector3 {
        var bias = start
        for _ in 0..<iterations {
            var h = Matrix3.diagonal(.zero), g = Vector3.zero
            for (k, pair) in pairs.enumerated() {
                let dt = pair.to - pair.from
                let rotation = Self.unbiased(rotations[k], bias: bias, span: dt, imuFromCamera: imuFromCamera)
                let (_, t, weights) = pairCost(pair, rotation: rotation)
                guard weights.count == pair.bearings.count else { continue }
                // Two directions across t (its tangent plane).
                let helper = abs(t.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
                let e1 = t.cross(helper).normalized, e2 = t.cross(e1)
                var hbb = Matrix3.diagonal(.zero), gb = Vector3.zero
                var hb1 = Vector3.zero, hb2 = Vector3.zero
                var h11 = 0.0, h12 = 0.0, h22 = 0.0, g1 = 0.0, g2 = 0.0
                for ((da, db), w) in zip(pair.bearings, weights) {
                    let rb = rotation * db
                    let v = da.cross(t)
                    let r = rb.dot(v)
                    // ∂r/∂φ for R·exp(φ), and φ = −R_CI b dt; ∂r/∂t = (R d_b) × d_a.
                    let j = imuFromCamera * db.cross(rotation.inverse * v) * (-dt)
                    let u = rb.cross(da)
                    let j1 = u.dot(e1), j2 = u.dot(e2)
                    hbb = hbb + w * Matrix3.outer(j, j)
                    gb = gb + j * (w * r)
                    hb1 = hb1 + j * (w * j1)
                    hb2 = hb2 + j * (w * j2)
                    h11 += w * j1 * j1; h12 += w * j1 * j2; h22 += w * j2 * j2
                    g1 += w * j1 * r; g2 += w * j2 * r
                }
                // The pair's direction eliminated: H_bb − H_bt H_tt⁻¹ H_tb, g_b − H_bt H_tt⁻¹ g_t.
                let det = h11 * h22 - h12 * h12
                if det > 1e-12 * max(1, h11 * h22) {
                    let i11 = h22 / det, i12 = -h12 / det, i22 = h11 / det
                    let a1 = hb1 * i11 + hb2 * i12, a2 = hb1 * i12 + hb2 * i22   // H_bt H_tt⁻¹ (two columns)
                    hbb = hbb - Matrix3.outer(a1, hb1) - Matrix3.outer(a2, hb2)
                    gb = gb - a1 * g1 - a2 * g2
                }
                h = h + hbb
                g = g + gb
            }
            guard let inverse = (h + Matrix3.diagonal(Vector3(1, 1, 1) * (1e-9 * h.trace + 1e-18))).inverse else { break }
            let step = -(inverse * g)
            bias = bias + step
            if step.norm < 1e-7 { break }
        }
        return bias
    }

    /// The unit eigenvector of a symmetric 3 × 3 matrix's smallest eigenvalue.
    static func smallestEigenvector(_ m: Matrix3) -> Vector3? {
        let a = [m.c0.x, m.c1.x, m.c2.x, m.c0.y, m.c1.y, m.c2.y, m.c0.z, m.c1.z, m.c2.z]
        if let pair = SymmetricEigen.smallest(a, n: 3), pair.vector.count == 3 {
            return Vector3(pair.vector[0], pair.vector[1], pair.vector[2])
        }
        guard let e = try? SymmetricEigen(m.matrix), let k = e.values.indices.min(by: { e.values[$0] < e.values[$1] }) else { return nil }
        return Vector3(e.vectors[0, k], e.vectors[1, k], e.vectors[2, k])
    }
}
