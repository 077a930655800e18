import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxFace
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles

/// A face moving in front of a camera: 2D landmarks with noise and exact pose and gaze ground
/// truth, deterministic by seed.
///
/// The face is MediaPipe's canonical mesh (`face_model_with_iris.obj`, centimetres, +x toward
/// the face's left, +y up, +z out of the face), converted to metres. Eyeball centres sit 12 mm
/// behind the iris centres (vertices 468 and 473); both eyes look at a point that moves on the
/// camera's plane (a screen around the camera).
public struct FaceSimulator: Sendable {
    /// Mesh vertices in the head frame (m).
    public let model: [Vector3]
    public var camera: CameraCalibration
    /// Landmark rate (Hz); default 30.
    public var rateHz = 30.0
    /// Gaussian landmark noise (px, σ); default 1.
    public var pixelNoise = 1.0
    /// Gaussian noise of the 3D landmarks (m, σ per axis); default 2 mm.
    public var pointNoise = 0.002

    public init(model: [Vector3], camera: CameraCalibration) {
        self.model = model
        self.camera = camera
    }

    /// Reads the vertices of a Wavefront OBJ (`v x y z` lines), scaled by `scale` (0.01: cm → m).
    public static func loadOBJ(path: String, scale: Double = 0.01) throws -> [Vector3] {
        guard let text = FileContents.string(atPath: path) else {
            throw CalibrationError.unreadable(path: path, reason: "cannot read the face model")
        }
        var vertices: [Vector3] = []
        for (i, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() where line.hasPrefix("v ") {
            // x y z, then optional w or colour values; a coordinate that is not a number is an
            // error (|v| < 1e6 also refuses NaN and infinity).
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().prefix(3)
            guard case let xyz = fields.compactMap({ Double($0) }), xyz.count == 3, xyz.allSatisfy({ abs($0) < 1e6 }) else {
                throw CalibrationError.invalidValue(path: path, key: "v", line: i + 1, reason: "expected 3 finite coordinates (cm), got '\(line)'")
            }
            vertices.append(Vector3(xyz[0], xyz[1], xyz[2]) * scale)
        }
        // The gaze ground truth needs the irises: MediaPipe's 478-point canonical face.
        let needed = max(CanonicalFace.rightIrisCenter, CanonicalFace.leftIrisCenter) + 1
        guard vertices.count >= needed else {
            throw CalibrationError.invalidValue(path: path, key: "v", line: nil,
                                                reason: "a face model needs MediaPipe's \(needed) vertices with the irises (canonical face with iris); it has \(vertices.count)")
        }
        return vertices
    }

    /// The head pose `T_CH` at time `t` (s): about 0.5 m in front of the camera, facing it,
    /// turning (yaw ±35°), nodding (pitch ±15°), tilting (roll ±10°) and drifting sideways.
    public static func headPose(at t: Double) -> SE3 {
        let facing = SO3(Matrix3.diagonal(Vector3(1, -1, -1)))  // head +z toward the camera
        let motion = SO3.exp(Vector3(0, 0.6 * sin(0.7 * t), 0)) * SO3.exp(Vector3(0.26 * sin(0.45 * t + 1), 0, 0))
            * SO3.exp(Vector3(0, 0, 0.17 * sin(0.3 * t)))
        return SE3(rotation: facing * motion, translation: Vector3(0.08 * sin(0.25 * t), 0.04 * sin(0.35 * t), 0.5 + 0.08 * sin(0.2 * t)))
    }

    /// The gaze target at time `t`: a point sweeping the camera plane (camera frame, m).
    public static func lookAt(at t: Double) -> Vector3 { Vector3(0.15 * sin(0.9 * t), 0.08 * cos(0.6 * t), 0) }

    /// Ground truth at `t`.
    public func anchor(at t: Double) -> FaceAnchor {
        let cameraFromHead = Self.headPose(at: t)
        let target = cameraFromHead.inverse * Self.lookAt(at: t)
        func eye(_ iris: Int) -> SE3 {
            let center = model[iris] - Vector3(0, 0, CanonicalFace.eyeballRadius)
            let z = (target - center).normalized
            let x = Vector3(0, 1, 0).cross(z).normalized
            return SE3(rotation: SO3(Matrix3(columns: x, z.cross(x), z)), translation: center)
        }
        return FaceAnchor(cameraFromHead: cameraFromHead, leftEye: eye(CanonicalFace.leftIrisCenter), rightEye: eye(CanonicalFace.rightIrisCenter), lookAtPoint: target)
    }

    /// The model in the head frame with each iris turned with its eye: the canonical irises
    /// look along +z (eye rotation identity), so an iris point `p` moves to `c + R_HE (p − c)`
    /// about its eyeball centre `c`.
    public func posedModel(_ anchor: FaceAnchor) -> [Vector3] {
        var points = model
        for (first, eye) in [(CanonicalFace.rightIrisCenter, anchor.rightEye), (CanonicalFace.leftIrisCenter, anchor.leftEye)] where first + 5 <= points.count {
            let c = eye.translation
            for i in first..<(first + 5) { points[i] = c + eye.rotation * (model[i] - c) }
        }
        return points
    }

    /// The streams ``packets(duration:seed:)`` produces, with the camera as the landmarks' metadata.
    public var streams: [StreamDescription] {
        [StreamDescription(StreamKey<FaceLandmarks>("face0/landmarks"), metadata: StreamMetadata(camera: camera)),
         StreamDescription(StreamKey<FaceAnchor>("face0/anchor"), metadata: StreamMetadata(camera: camera))]
    }

    /// Landmarks and ground truth for `duration` s (streams `face0/landmarks`, `face0/anchor`).
    /// Points behind the camera are impossible here (the face is 0.4–0.6 m in front).
    public func packets(duration: Double, seed: UInt64) -> [AnyPacket] {
        var rng = SeededGenerator(seed: seed)
        var out: [AnyPacket] = []
        let n = Int((duration * rateHz).rounded(.down)) + 1
        for k in 0..<n {
            let t = Double(k) / rateHz
            let stamp = Timestamp(seconds: t)
            let a = anchor(at: t)
            let inCamera = posedModel(a).map { a.cameraFromHead * $0 }
            let points = inCamera.map { c -> Vector2 in
                let p = camera.model.project(c) ?? Vector2(.nan, .nan)
                return p + Vector2(rng.nextGaussian(), rng.nextGaussian()) * pixelNoise
            }
            let points3D = inCamera.map { $0 + Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) * pointNoise }
            out.append(AnyPacket(stream: "face0/landmarks", timestamp: stamp,
                                 payload: FaceLandmarks(points: points, points3D: points3D)))
            out.append(AnyPacket(stream: "face0/anchor", timestamp: stamp, payload: a))
        }
        return out
    }
}
