import Foundation
import ParallaxMath

/// A head's rotation as pitch, yaw and roll (degrees), in the convention of the AFLW2000-3D and
/// 300W-LP head-pose benchmarks (3DDFA's `Pose_Para`), so figures compare with published ones.
///
/// With the head frame `H` of ``cameraFromHead`` (+x toward the face's left, +y up, +z out of
/// the face: ARKit's) and the camera's (x right, y down, z forward), the rotation in view
/// coordinates `V = diag(1, −1, −1)` (x right, y up, z toward the viewer) is
/// `V·R_CH = Rx(−pitch)·Ry(−yaw)·Rz(−roll)`. All zero: the face looks straight into the camera,
/// upright. Pitch > 0: the face looks up; yaw > 0: it turns toward the image's left (the
/// person's right); roll > 0: the top of the head tilts toward the image's right.
public struct HeadAngles: Sendable, Codable, Equatable {
    /// Degrees.
    public var pitch: Double
    public var yaw: Double
    public var roll: Double

    public init(pitch: Double, yaw: Double, roll: Double) {
        self.pitch = pitch
        self.yaw = yaw
        self.roll = roll
    }

    /// The angles of `R_CH`. At yaw ±90° pitch and roll share one axis (gimbal lock); the split
    /// is then roll = 0.
    public init(cameraFromHead rotation: SO3) {
        let m = Self.view * rotation.matrix
        let degrees = 180 / Double.pi
        let sinYaw = -max(-1, min(1, m[0, 2]))
        yaw = asin(sinYaw) * degrees
        if abs(sinYaw) < 1 - 1e-12 {
            pitch = -atan2(-m[1, 2], m[2, 2]) * degrees
            roll = -atan2(-m[0, 1], m[0, 0]) * degrees
        } else {
            // cos(yaw) = 0: Rx(a)·Ry(±90°) leaves only a ± c; all of it goes to pitch.
            pitch = -atan2(m[2, 1], m[1, 1]) * degrees
            roll = 0
        }
    }

    /// `R_CH` for these angles.
    public var cameraFromHead: SO3 {
        let r = Double.pi / 180
        let v = SO3.exp(Vector3(-pitch * r, 0, 0)) * SO3.exp(Vector3(0, -yaw * r, 0)) * SO3.exp(Vector3(0, 0, -roll * r))
        return SO3(Self.view * v.matrix)
    }

    /// Camera (x right, y down, z forward) to view coordinates (x right, y up, z toward the viewer).
    static let view = Matrix3.diagonal(Vector3(1, -1, -1))

    /// `a − b` wrapped into (−180°, 180°] (degrees).
    public static func difference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
        return d
    }
}
