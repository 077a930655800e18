import ParallaxMath

/// A triangulated 3D point: the output of `triangulate`, the map of a visual front end.
public struct Landmark: Sendable, Codable, Equatable {
    /// The feature track it came from.
    public var id: UInt64
    /// Position in the world frame `p_W` (m).
    public var position: Vector3
    /// Root mean square reprojection error over its observations (px).
    public var reprojectionRMSE: Double
    /// Observations used.
    public var observations: Int
    /// Largest angle between two of its viewing rays (deg): small angles mean poor depth.
    public var parallaxDegrees: Double
    /// Depth in the first observing camera (m).
    public var depth: Double
    /// 3×3 position covariance in the world frame (m²), row-major, from 1 px image noise.
    public var covariance: [Double]

    public init(id: UInt64, position: Vector3, reprojectionRMSE: Double, observations: Int, parallaxDegrees: Double, depth: Double, covariance: [Double]) {
        self.id = id
        self.position = position
        self.reprojectionRMSE = reprojectionRMSE
        self.observations = observations
        self.parallaxDegrees = parallaxDegrees
        self.depth = depth
        self.covariance = covariance
    }
}
