import ParallaxMath

/// A plane found in depth (ARKit's `ARPlaneAnchor`): where it is, how it lies against gravity,
/// what it probably is, and how far it extends. Positions are in the frame named by
/// ``DetectedPlanes/frame`` (the camera's, or the world's when poses were given).
public struct PlaneAnchor: Sendable, Codable, Equatable {
    /// How the plane lies against gravity.
    public enum Alignment: String, Sendable, Codable, Equatable {
        /// Normal within the tolerance of the up direction (floors, tables, ceilings).
        case horizontal
        /// Normal within the tolerance of perpendicular to up (walls, doors).
        case vertical
        /// Neither (a ramp, a tilted screen).
        case slanted
        /// No up direction was known.
        case unknown
    }

    /// What the plane probably is (ARKit's `ARPlaneAnchor.Classification`), from its
    /// alignment, which way it faces and its height: `floor` is the lowest upward-facing
    /// horizontal plane at least 0.5 m below the camera, `table` an upward-facing one at least
    /// 0.3 m above the floor (or, without a floor, less than 0.5 m below the camera), `ceiling` a
    /// downward-facing one above the camera, `wall` a vertical one.
    public enum Classification: String, Sendable, Codable, Equatable {
        case floor, table, ceiling, wall, none
    }

    /// Stable across frames for one plane when poses are known (else per frame, in size order).
    public var id: UInt64
    public var alignment: Alignment
    public var classification: Classification
    /// Unit normal, pointing toward the side the camera saw the plane from.
    public var normal: Vector3
    /// The plane is `normal · p + offset = 0` (m).
    public var offset: Double
    /// Centroid of its points (m; of its boundary's corners when kept across frames).
    public var center: Vector3
    /// Extent along its in-plane principal axes (m): `width` along ``majorAxis``, `length`
    /// across it.
    public var width: Double, length: Double
    /// Unit in-plane axis of the largest spread.
    public var majorAxis: Vector3
    /// The convex boundary of its points, corners in order (m).
    public var boundary: [Vector3]
    /// Area inside the boundary (m²).
    public var area: Double
    /// Root-mean-square distance of its points from the plane (m).
    public var rms: Double
    /// Points (on the detection grid) that support it.
    public var points: Int
    /// Angle (deg) between its normal and up, when up is known.
    public var tiltDegrees: Double?
    /// Standard deviation (deg) of the normal's direction, from the spread and residuals of
    /// every point behind it (all frames, when kept across frames).
    public var normalUncertaintyDegrees: Double

    public init(id: UInt64, alignment: Alignment, classification: Classification, normal: Vector3, offset: Double, center: Vector3,
                width: Double, length: Double, majorAxis: Vector3, boundary: [Vector3], area: Double, rms: Double, points: Int,
                tiltDegrees: Double?, normalUncertaintyDegrees: Double) {
        self.id = id
        self.alignment = alignment
        self.classification = classification
        self.normal = normal
        self.offset = offset
        self.center = center
        self.width = width
        self.length = length
        self.majorAxis = majorAxis
        self.boundary = boundary
        self.area = area
        self.rms = rms
        self.points = points
        self.tiltDegrees = tiltDegrees
        self.normalUncertaintyDegrees = normalUncertaintyDegrees
    }
}

/// The planes of one depth frame: the `planes` analyzer's output packet.
public struct DetectedPlanes: Sendable, Codable, Equatable {
    /// `camera` (positions in the depth camera's frame) or `world` (in the pose stream's).
    public var frame: String
    /// Largest first.
    public var planes: [PlaneAnchor]

    public init(frame: String, planes: [PlaneAnchor]) {
        self.frame = frame
        self.planes = planes
    }
}
