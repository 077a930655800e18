/// 3D points seen by one sensor at one instant (ARKit's `ARPointCloud`, a depth frame's
/// back-projection): positions in the frame of the camera named by ``camera`` (m; x right,
/// y down, z forward), optionally with colours.
///
/// Not `Encodable`: a frame holds up to hundreds of thousands of points, which belong in a
/// PLY file (`parallax run` writes `<stream>/<t_ns>.ply`), not in `events.jsonl`.
public struct PointCloud: Sendable, Equatable {
    /// Positions (m).
    public var points: [SIMD3<Float>]
    /// RGB per point, when the cloud was coloured (same count as ``points``).
    public var colors: [SIMD3<UInt8>]?
    /// The camera (stream) whose frame the points are in.
    public var camera: String

    /// A cloud; `colors`, when given, must have one entry per point.
    public init(points: [SIMD3<Float>], colors: [SIMD3<UInt8>]? = nil, camera: String) {
        precondition(colors.map { $0.count == points.count } ?? true, "PointCloud: one colour per point")
        self.points = points
        self.colors = colors
        self.camera = camera
    }
}
