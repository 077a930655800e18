import Foundation
import ParallaxMath

/// The pictures people look at for a trajectory, as evo_traj and OpenVINS draw them: the aligned
/// estimate over the ground truth seen from above (start and end marked), and each axis of the
/// position and of the attitude (roll, pitch, yaw) against time.
extension SVGPlot {
    /// Colours of x, y, z (and roll, pitch, yaw): the estimate solid, the reference lighter.
    static let axisColors = [("#d62728", "#f4a5a5"), ("#2ca02c", "#9fd89f"), ("#1f77b4", "#9ecae9")]

    /// Top view (x–y, m, equal scale) of the aligned estimate over the reference, the start a
    /// green dot, the end a red one.
    public static func path(reference: [Vector3], estimate: [Vector3], title: String) -> String {
        var series = [Series(label: "ground truth", color: "#999999", points: reference.map { ($0.x, $0.y) }),
                      Series(label: "estimate (aligned)", color: "#1f77b4", points: estimate.map { ($0.x, $0.y) })]
        if let first = estimate.first, let last = estimate.last {
            series.append(Series(label: "start", color: "#2ca02c", points: [(first.x, first.y)], markers: true))
            series.append(Series(label: "end", color: "#d62728", points: [(last.x, last.y)], markers: true))
        }
        return plot(series, title: title, xLabel: "x (m)", yLabel: "y (m)", equalAspect: true)
    }

    /// x, y and z (m) of the aligned estimate and the reference against time (s).
    public static func positionAxes(times: [Double], reference: [Vector3], estimate: [Vector3], title: String) -> String {
        let axes: [(String, (Vector3) -> Double)] = [("x", { $0.x }), ("y", { $0.y }), ("z", { $0.z })]
        return plot(axisSeries(times: times, names: axes.map(\.0), reference: reference.map { p in axes.map { $0.1(p) } },
                               estimate: estimate.map { p in axes.map { $0.1(p) } }),
                    title: title, xLabel: "time (s)", yLabel: "position (m)")
    }

    /// Roll, pitch and yaw (deg, Z-Y-X: yaw about the world's z, then pitch, then roll) of the
    /// aligned estimate and the reference against time (s), unwrapped: an angle crossing ±180°
    /// goes on past it instead of jumping across the plot, and the estimate's angle is drawn on
    /// the turn nearest the reference's.
    public static func attitudeAxes(times: [Double], reference: [SO3], estimate: [SO3], title: String) -> String {
        let (truth, estimated) = unwrappedDegrees(reference: reference.map(rollPitchYawDegrees), estimate: estimate.map(rollPitchYawDegrees))
        return plot(axisSeries(times: times, names: ["roll", "pitch", "yaw"], reference: truth, estimate: estimated),
                    title: title, xLabel: "time (s)", yLabel: "attitude (deg)")
    }

    /// Each angle (deg) of `reference` made continuous over time (a step of more than 180° is
    /// taken the short way round), and each of `estimate` moved by whole turns next to the
    /// reference's at the same index.
    static func unwrappedDegrees(reference: [[Double]], estimate: [[Double]]) -> ([[Double]], [[Double]]) {
        var truth = reference
        for i in truth.indices.dropFirst() {
            for k in truth[i].indices {
                let previous = truth[i - 1][k]
                truth[i][k] += 360 * ((previous - truth[i][k]) / 360).rounded()
            }
        }
        let estimated = estimate.indices.map { i in
            estimate[i].indices.map { k in
                let near = i < truth.count ? truth[i][k] : estimate[i][k]
                return estimate[i][k] + 360 * ((near - estimate[i][k]) / 360).rounded()
            }
        }
        return (truth, estimated)
    }

    /// `R = Rz(yaw)·Ry(pitch)·Rx(roll)`, in degrees.
    static func rollPitchYawDegrees(_ rotation: SO3) -> [Double] {
        let m = rotation.matrix, d = 180 / Double.pi
        let pitch = asin(max(-1, min(1, -m[2, 0])))
        return [atan2(m[2, 1], m[2, 2]) * d, pitch * d, atan2(m[1, 0], m[0, 0]) * d]
    }

    private static func axisSeries(times: [Double], names: [String], reference: [[Double]], estimate: [[Double]]) -> [Series] {
        names.indices.flatMap { k in
            [Series(label: "\(names[k]) truth", color: axisColors[k].1, points: zip(times, reference).map { ($0, $1[k]) }),
             Series(label: "\(names[k]) estimate", color: axisColors[k].0, points: zip(times, estimate).map { ($0, $1[k]) })]
        }
    }
}
