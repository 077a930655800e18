import ParallaxGeometry
import ParallaxMath

/// A 3D face to fit landmarks to: one head-frame point per landmark of a scheme, how rigid each
/// is, and where the eyes are.
public struct FaceModel: Sendable {
    /// Landmark positions in the head frame (m), in the scheme's index order.
    public var points: [Vector3]
    /// Per landmark, how well one fixed model point describes it on any face, in [0, 1]: the
    /// weight it gets in ``HeadPoseEstimator/Weighting/rigid`` fits.
    public var rigidity: [Double]
    /// Landmark indices of the iris centres, when the scheme has them (person's right, left).
    public var irisCenters: (right: Int, left: Int)?
    /// The eyeball centres in the head frame (m): behind the iris centres, or behind the middle
    /// of each eye's corners.
    public var eyeballCenters: (right: Vector3, left: Vector3)
    /// Outward unit normal of the face's surface at each landmark (head frame), when the model
    /// knows them (the canonical face's): which landmarks a turned head hides. Empty: none
    /// counts as hidden.
    public var normals: [Vector3] = []

    /// Per landmark, the cosine of the angle between its surface normal and the direction to
    /// the camera under `cameraFromHead` (`T_CH`): above 0 the camera sees the surface there,
    /// at or below 0 the head itself hides it (a landmark a detector still places on the
    /// visible outline). `nil` without ``normals``.
    public func visibility(cameraFromHead: SE3) -> [Double]? {
        guard normals.count == points.count else { return nil }
        let camera = cameraFromHead.inverse.translation
        return zip(points, normals).map { p, n in
            let toCamera = camera - p
            let length = toCamera.norm
            return length > 0 ? n.dot(toCamera / length) : 1
        }
    }

    /// The landmarks the head hides under `cameraFromHead`, ascending: those whose
    /// ``visibility(cameraFromHead:)`` is at or below 0, found from the sign of the normal's
    /// dot product with the direction to the camera alone (no square root or division per
    /// landmark). `nil` without ``normals``.
    public func hiddenLandmarks(cameraFromHead: SE3) -> [Int]? {
        guard normals.count == points.count else { return nil }
        let camera = cameraFromHead.inverse.translation
        var hidden: [Int] = []
        points.withUnsafeBufferPointer { points in
            normals.withUnsafeBufferPointer { normals in
                for i in points.indices {
                    let toCamera = camera - points[i]
                    // A landmark at the camera's centre counts as seen (visibility 1 there).
                    if normals[i].dot(toCamera) <= 0, toCamera.squaredNorm > 0 { hidden.append(i) }
                }
            }
        }
        return hidden
    }

    /// iBUG 68 on the canonical face. Rigidity: the nose and eye corners 1 (bone and cartilage,
    /// moved by no expression); the eyebrows and the outer lips ½ (expressions move them); the
    /// jaw line and the inner lips ¼ (the jaw line's shape differs most from face to face, a
    /// detector puts it on the visible outline, and the mouth opens). MediaPipe's own
    /// head-pose fit (its geometry pipeline's Procrustes basis) likewise leans on the eyes,
    /// nose and cheeks and leaves out the jaw and the mouth.
    public static let ibug68: FaceModel = {
        let points = CanonicalFace.ibug68.map { CanonicalFace.vertices[$0] }
        let rigidity = (0..<68).map { i -> Double in
            switch i {
            case 0...16, 60...67: return 0.25
            case 17...26, 48...59: return 0.5
            default: return 1
            }
        }
        func middle(_ a: Int, _ b: Int) -> Vector3 { (points[a] + points[b]) / 2 - Vector3(0, 0, CanonicalFace.eyeballRadius) }
        return FaceModel(points: points, rigidity: rigidity, irisCenters: nil, eyeballCenters: (right: middle(36, 39), left: middle(42, 45)),
                         normals: CanonicalFace.ibug68.map { CanonicalFace.normals[$0] })
    }()

    /// MediaPipe's 468-point mesh: all points rigidity 1 except the lips and the jaw below
    /// them, ½ (the mesh regressor moves them with expressions).
    public static let mediapipe468: FaceModel = {
        let points = Array(CanonicalFace.vertices.prefix(468))
        let rigidity = points.map { $0.y < lipLine ? 0.5 : 1 }
        return FaceModel(points: points, rigidity: rigidity, irisCenters: nil,
                         eyeballCenters: (right: CanonicalFace.eyeballCenter(iris: CanonicalFace.rightIrisCenter),
                                          left: CanonicalFace.eyeballCenter(iris: CanonicalFace.leftIrisCenter)),
                         normals: Array(CanonicalFace.normals.prefix(468)))
    }()

    /// MediaPipe's mesh with irises (478): as ``mediapipe468``; the ten iris points take no part
    /// in the head fit (the eyes turn on their own) and give the gaze.
    public static let mediapipe478: FaceModel = {
        var model = mediapipe468
        model.points = CanonicalFace.vertices
        model.normals = CanonicalFace.normals
        model.rigidity += [Double](repeating: 0, count: 10)
        model.irisCenters = (right: CanonicalFace.rightIrisCenter, left: CanonicalFace.leftIrisCenter)
        return model
    }()

    /// Height (head frame y, m) of the canonical face's upper lip: below it, the mouth and jaw.
    static let lipLine = CanonicalFace.vertices[0].y + 0.005
}
