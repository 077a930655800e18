import Foundation
import ParallaxMath

/// Built-in smooth motions for when no recorded trajectory is given.
public enum SyntheticMotion {
    /// A hand-held-like orbit: a tilted ellipse (4 m × 2.4 m) with bobbing, the body turning
    /// with the path and nodding; spline knots every 0.1 s. With `still` > 0 the body first rests
    /// at the orbit's start for about that long (s), as a recording that starts on a table.
    public static func orbit(seconds: Double, still: Double = 0) -> SE3Spline {
        let interval = 0.1
        let stillKnots = Int((max(0, still) / interval).rounded())
        let poses = (0..<Int(seconds / interval) + 5).map { k -> SE3 in
            let t = Double(max(0, k - stillKnots)) * interval
            let p = Vector3(2 * cos(0.5 * t), 1.2 * sin(0.5 * t), 1.5 + 0.2 * sin(1.3 * t))
            // Body axes as an EuRoC MAV: x forward. Yaw follows the orbit, small roll and pitch.
            let r = SO3.exp(Vector3(0, 0, 0.5 * t + .pi / 2)) * SO3.exp(Vector3(0.15 * sin(0.9 * t), 0.1 * cos(0.7 * t), 0))
            return SE3(rotation: r, translation: p)
        }
        return SE3Spline(start: 0, interval: interval, controlPoses: poses)
    }
}
