import Foundation
import ParallaxGeometry
import ParallaxInertial
import ParallaxMath

/// Initializes a moving platform in closed form (the linear visual-inertial alignment of
/// Martinelli and Dong-Si & Mourikis, as OpenVINS's dynamic initializer starts from): over a
/// window of frames, the gyro gives the IMU's rotations `R_{I0 Ik}` and the accelerometer, with
/// gravity left out, the displacements `α_k`; every feature bearing `d_k` seen from camera `k`
/// must then point at the feature: `[d_k]× (p_f − v0·t_k − ½g·t_k² − α_k − R_k·p_IC) = 0`,
/// linear in the initial velocity `v0`, gravity `g` (both in `I0`) and the feature positions.
/// Least squares gives them; `|g|` is checked against 9.81 and the system solved again with
/// gravity's length fixed. The biases start at zero (the filter estimates them).
struct DynamicInitializer {
    /// One frame of the window: its time (s) and feature bearings (undistorted normalized points).
    struct Frame {
        var time: Double
        var features: [UInt64: Vector2]
    }

    /// Fewest frames a feature must be seen in.
    var minObservations = 5
    /// Most features in the system.
    var maxFeatures = 60
    /// Smallest angle (deg) between a feature's first and last rays (in `I0`).
    var minParallaxDegrees = 1.0
    /// Tolerated relative difference of the solved gravity's length from `gravity`.
    var gravityTolerance = 0.15
    var gravity = 9.81

    enum Refusal: Error, Equatable { case tooFewFeatures, gravity(Double), depth, numerical }

    /// The state at the last frame's time, or why not.
    func initialize(_ frames: [Frame], imu: [IMUMeasurement], noise: IMUNoiseModel, imuFromCamera: SE3) -> Result<InertialState, Refusal> {
        guard let first = frames.first, frames.count >= minObservations else { return .failure(.tooFewFeatures) }
        // Gravity-free preintegration from I0: rotation, displacement α and velocity change β.
        let integrator = IMUPropagation(noise: noise, gravity: 0)
        var x = InertialState()
        var poses: [(r: SO3, alpha: Vector3, beta: Vector3, dt: Double)] = [(.identity, .zero, .zero, 0)]
        var t = first.time
        for f in frames.dropFirst() {
            guard let (next, _) = try? integrator.propagate(x, imu, from: t, to: f.time) else { return .failure(.numerical) }
            x = next
            t = f.time
            poses.append((x.rotation, x.position, x.velocity, f.time - first.time))
        }
        // Features: enough frames and enough parallax.
        var tracks: [UInt64: [(k: Int, d: Vector3)]] = [:]
        for (k, f) in frames.enumerated() {
            for (id, n) in f.features {
                tracks[id, default: []].append((k, poses[k].r * (imuFromCamera.rotation * Vector3(n.x, n.y, 1))))
            }
        }
        let chosen = tracks.keys.sorted().filter { id in
            guard let obs = tracks[id], obs.count >= minObservations, let a = obs.first?.d.normalized, let b = obs.last?.d.normalized else { return false }
            return acos(max(-1, min(1, a.dot(b)))) * 180 / .pi >= minParallaxDegrees
        }.prefix(maxFeatures)
        guard chosen.count >= 10 else { return .failure(.tooFewFeatures) }
        let ids = Array(chosen)

        func solve(fixedGravity: Vector3?) -> [Double]? {
            let unknowns = (fixedGravity == nil ? 6 : 3) + 3 * ids.count
            let rows = 3 * ids.reduce(0) { $0 + tracks[$1]!.count }
            var a = Matrix(rows: rows, columns: unknowns)
            var b = Matrix(rows: rows, columns: 1)
            var row = 0
            for (j, id) in ids.enumerated() {
                let fc = (fixedGravity == nil ? 6 : 3) + 3 * j
                for (k, d) in tracks[id]! {
                    let s = Matrix3.skew(d)
                    let dt = poses[k].dt
                    let camera = poses[k].alpha + poses[k].r * imuFromCamera.translation
                    var rhs = s * camera
                    if let g = fixedGravity { rhs = rhs + s * (g * (0.5 * dt * dt)) }
                    for i in 0..<3 {
                        for c in 0..<3 {
                            a[row + i, fc + c] = s[i, c]               // p_f
                            a[row + i, c] = -s[i, c] * dt              // v0
                            if fixedGravity == nil { a[row + i, 3 + c] = -s[i, c] * 0.5 * dt * dt }   // g
                        }
                        b[row + i, 0] = rhs[i]
                    }
                    row += 3
                }
            }
            return (try? a.leastSquares(b))?.elements
        }
        guard let free = solve(fixedGravity: nil) else { return .failure(.numerical) }
        let g0 = Vector3(free[3], free[4], free[5])
        guard g0.norm.isFinite, abs(g0.norm - gravity) <= gravityTolerance * gravity else { return .failure(.gravity(g0.norm)) }
        let g = g0.normalized * gravity
        guard let fixed = solve(fixedGravity: g) else { return .failure(.numerical) }
        let v0 = Vector3(fixed[0], fixed[1], fixed[2])
        // Features in front of the cameras that saw them.
        var front = 0, total = 0
        for (j, id) in ids.enumerated() {
            let pf = Vector3(fixed[3 + 3 * j], fixed[4 + 3 * j], fixed[5 + 3 * j])
            for obs in tracks[id]! {
                let pose = poses[obs.k]
                let cameraPosition: Vector3 = v0 * pose.dt + g * (0.5 * pose.dt * pose.dt) + pose.alpha + pose.r * imuFromCamera.translation
                let ray: Vector3 = pf - cameraPosition
                total += 1
                if ray.dot(obs.d) > 0 { front += 1 }
            }
        }
        guard Double(front) >= 0.9 * Double(total) else { return .failure(.depth) }
        // World: gravity along −z; the state at the last frame.
        let worldFromI0 = StaticInitializer.levelRotation(up: -g)
        let last = poses[poses.count - 1]
        let position = v0 * last.dt + g * (0.5 * last.dt * last.dt) + last.alpha
        let velocity = v0 + g * last.dt + last.beta
        return .success(InertialState(rotation: worldFromI0 * last.r, position: worldFromI0 * position, velocity: worldFromI0 * velocity))
    }
}
