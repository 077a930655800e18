import Foundation
import ParallaxGeometry
import ParallaxMath

/// How the simulated object moves: the situations a tracker benchmark sorts its sequences by
/// (OTB's attributes fast motion, scale variation, occlusion, out of view). Each is periodic,
/// so any length repeats its event.
public enum ObjectMotion: String, CaseIterable, Sendable {
    /// Sweeping slowly across the view, 1.5–2.5 m away, turning about its vertical axis.
    case sweep
    /// Sweeping at up to 3.4 m/s lateral at 2.2 m (about 23 px per frame for EuRoC's camera at
    /// 30 Hz, OTB's "fast motion" is > 20 px): period 1.5 s.
    case fast
    /// Coming from 3 m to 1.5 m and back (the box grows ×2): period 4 s.
    case scale
    /// Drifting slowly at 2.5 m while a second, larger object at 1.2 m passes in front of it,
    /// covering it fully for 10 frames at 30 Hz: one pass per 5 s, centred at 2.5 s.
    case occlusion
    /// Leaving the view to the right at up to 1.7 m/s at 2 m, out of it for about 1.7 s, and
    /// coming back: period 6 s.
    case exit
    /// Turning about its vertical axis to ±60° and back at 1.6 m, rolling and pitching a
    /// little (a picture seen ever more obliquely): period 6 s.
    case turn
    /// Coming from 3 m to 1 m and back (the picture grows ×3), turning a little: period 6 s.
    case zoom

    /// Object pose in the camera frame at `t` (s). Object frame: x right, y down, z away from
    /// the camera.
    public func objectPose(at t: Double) -> SE3 {
        switch self {
        case .sweep:
            return SE3(rotation: .exp(Vector3(0.15 * sin(0.8 * t), 0.5 * sin(0.5 * t), 0.1 * sin(0.3 * t))),
                       translation: Vector3(0.6 * sin(0.4 * t), 0.2 * sin(0.7 * t), 2 + 0.5 * sin(0.25 * t)))
        case .fast:
            let w = 2 * Double.pi / 1.5
            return SE3(rotation: .exp(Vector3(0.1 * sin(1.3 * t), 0.3 * sin(0.9 * t), 0.1 * sin(0.7 * t))),
                       translation: Vector3(0.8 * sin(w * t), 0.25 * sin(1.7 * w * t), 2.2))
        case .scale:
            return SE3(rotation: .exp(Vector3(0.1 * sin(0.6 * t), 0.25 * sin(0.5 * t), 0.05 * sin(0.4 * t))),
                       translation: Vector3(0.15 * sin(0.7 * t), 0.08 * sin(0.9 * t), 2.25 + 0.75 * cos(2 * Double.pi * t / 4)))
        case .occlusion:
            return SE3(rotation: .exp(Vector3(0.05 * sin(0.6 * t), 0.2 * sin(0.4 * t), 0.05 * sin(0.3 * t))),
                       translation: Vector3(0.3 * sin(0.5 * t), 0.1 * sin(0.7 * t), 2.5))
        case .exit:
            return SE3(rotation: .exp(Vector3(0.05 * sin(0.6 * t), 0.2 * sin(0.4 * t), 0.05 * sin(0.3 * t))),
                       translation: Vector3(-0.2 + 3.2 * (1 - cos(2 * Double.pi * t / 6)) / 2, 0.1 * sin(0.7 * t), 2))
        case .turn:
            return SE3(rotation: .exp(Vector3(0.1 * sin(0.7 * t), 1.047 * sin(2 * Double.pi * t / 6), 0.15 * sin(0.5 * t))),
                       translation: Vector3(0.1 * sin(0.5 * t), 0.05 * sin(0.8 * t), 1.6))
        case .zoom:
            return SE3(rotation: .exp(Vector3(0.1 * sin(0.6 * t), 0.25 * sin(0.5 * t), 0.1 * sin(0.4 * t))),
                       translation: Vector3(0.1 * sin(0.7 * t), 0.05 * sin(0.9 * t), 2 + cos(2 * Double.pi * t / 6)))
        }
    }

    /// Size (m, width × height) of the occluder of ``occlusion``.
    public static let occluderSize = Vector2(0.36, 0.32)
    /// Distance (m) of the occluder from the camera.
    public static let occluderDepth = 1.2

    /// Where the occluder's centre is at `t` (camera frame), for ``occlusion`` only: on the
    /// object's line of sight at 2.5 s (mod 5 s), sliding across it at 0.5 m/s, which covers the
    /// object (0.19 m wide as seen at the occluder's depth) for (0.36 − 0.19) / 0.5 s ≈ 10 frames.
    public func occluderCenter(at t: Double) -> Vector3? {
        guard self == .occlusion else { return nil }
        let object = objectPose(at: t).translation
        let phase = t - 5 * (t / 5).rounded(.down)
        let sight = object * (Self.occluderDepth / object.z)
        return Vector3(sight.x + 0.5 * (phase - 2.5), sight.y, Self.occluderDepth)
    }
}
