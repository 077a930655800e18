import ParallaxMath

/// MediaPipe's canonical face with irises (478 vertices, metres) in the head frame `H`
/// (ARKit's: origin between the eyes behind the nose, +x toward the face's left, +y up, +z out
/// of the face), and where the iBUG 68 landmarks sit on it.
public enum CanonicalFace {
    /// The 478 vertices (m): MediaPipe's 468-point mesh, then the right iris (468–472, centre
    /// 468) and the left iris (473–477, centre 473).
    public static let vertices: [Vector3] = stride(from: 0, to: coordinates.count, by: 3).map {
        Vector3(coordinates[$0], coordinates[$0 + 1], coordinates[$0 + 2])
    }

    /// Centres of the irises (the person's right and left eye).
    public static let rightIrisCenter = 468, leftIrisCenter = 473
    /// Depth of the eyeball's rotation centre behind the iris centre (m): a 12 mm eyeball radius.
    public static let eyeballRadius = 0.012

    /// The mesh vertex of each iBUG 68 landmark, in iBUG order: jaw line 0–16 (from the image's
    /// left on a frontal face), eyebrows 17–26, nose bridge 27–30 and base 31–35, eyes 36–47
    /// (the person's right eye first, each from its outer corner), outer lips 48–59, inner lips
    /// 60–67.
    public static let ibug68: [Int] = [
        162, 234, 93, 58, 172, 136, 149, 148, 152, 377, 378, 365, 397, 288, 323, 454, 389,
        71, 63, 105, 66, 107, 336, 296, 334, 293, 301,
        168, 197, 5, 4, 75, 97, 2, 326, 305,
        33, 160, 158, 133, 153, 144, 362, 385, 387, 263, 373, 380,
        61, 39, 37, 0, 267, 269, 291, 405, 314, 17, 84, 181,
        78, 82, 13, 312, 308, 317, 14, 87,
    ]

    /// The eyeball rotation centre behind an iris centre vertex (head frame, m).
    public static func eyeballCenter(iris: Int) -> Vector3 {
        vertices[iris] - Vector3(0, 0, eyeballRadius)
    }
}
