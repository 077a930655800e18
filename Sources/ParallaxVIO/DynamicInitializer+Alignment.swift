import Foundation
import ParallaxMath

extension DynamicInitializer {
    /// The features of the window the linear system uses: seen in at least ``minObservations``
    /// frames, with at least ``minParallaxDegrees`` between their first and last rays (in `I0`),
    /// at most ``maxFeatures``, ids ascending (so the system is the same every run); each with its
    /// observations (frame index, bearing in `I0`).
    func chosenFeatures(_ frames: [Frame], poses: [Preintegrated], imuFromCamera: SE3) -> (ids: [UInt64], observed: [[(k: Int, d: Vector3)]]) {
        var tracks: [UInt64: [(k: Int, d: Vector3)]] = [:]
        for (k, f) in frames.enumerated() {
            for (id, n) in f.features {
                tracks[id, default: []].append((k, poses[k].r * (imuFromCamera.rotation * Vector3(n.x, n.y, 1))))
            }
        }
        // (id, its observations), ids sorted so the system is the same every run.
        let chosen = tracks.sorted { $0.key < $1.key }.filter { _, obs in
            guard obs.count >= minObservations, let a = obs.first?.d.normalized, let b = obs.last?.d.normalized else { return false }
            return acos(max(-1, min(1, a.dot(b)))) * 180 / .pi >= minParallaxDegrees
        }.prefix(maxFeatures)
        return (chosen.map(\.key), chosen.map(\.value))
    }

    /// The linear visual-inertial alignment: least squares of
    /// `[d_k]× (p_f − v0·t_k − ½g·t_k² − α_k − R_k·p_IC) = 0` over every observation of the
    /// `observed` features, for `v0`, `g` (unless `fixedGravity` gives it) and the features'
    /// positions, in that order (all in `I0`; m/s, m/s², m).
    static func alignment(_ observed: [[(k: Int, d: Vector3)]], poses: [Preintegrated], imuFromCamera: SE3, fixedGravity: Vector3?) -> [Double]? {
        let unknowns = (fixedGravity == nil ? 6 : 3) + 3 * observed.count
        let rows = 3 * observed.reduce(0) { $0 + $1.count }
        var a = Matrix(rows: rows, columns: unknowns)
        var b = Matrix(rows: rows, columns: 1)
        var row = 0
        for (j, obs) in observed.enumerated() {
            let fc = (fixedGravity == nil ? 6 : 3) + 3 * j
            for (k, d) in obs {
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

    /// Whether at least 90 % of the observations see their feature (positions in `solution`,
    /// after `v0` (m/s)) in front of the camera, the platform starting at `v0` under gravity `g`.
    static func mostlyInFront(_ observed: [[(k: Int, d: Vector3)]], solution fixed: [Double], v0: Vector3, g: Vector3, poses: [Preintegrated],
                              imuFromCamera: SE3) -> Bool {
        var front = 0, total = 0
        for (j, track) in observed.enumerated() {
            let pf = Vector3(fixed[3 + 3 * j], fixed[4 + 3 * j], fixed[5 + 3 * j])
            for obs in track {
                let pose = poses[obs.k]
                let cameraPosition: Vector3 = v0 * pose.dt + g * (0.5 * pose.dt * pose.dt) + pose.alpha + pose.r * imuFromCamera.translation
                let ray: Vector3 = pf - cameraPosition
                total += 1
                if ray.dot(obs.d) > 0 { front += 1 }
            }
        }
        return Double(front) >= 0.9 * Double(total)
    }
}
