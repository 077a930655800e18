/// Voxel-grid downsampling: the points inside each cube of side ``size`` (m) become their
/// centroid (and their colours' mean), as PCL's `VoxelGrid` and Open3D's
/// `voxel_down_sample` do.
///
/// Deterministic: voxels come out in the order of their first point, so the same cloud gives the
/// same result bit for bit.
public struct VoxelGrid: Sendable {
    /// Side of a voxel (m), > 0.
    public var size: Float

    public init(size: Float) { self.size = size }

    /// The downsampled points, and colours when `colors` is given with one per point (otherwise
    /// none). Non-finite points and points beyond ±2·10⁹ voxels are left out.
    public func downsample(_ points: [SIMD3<Float>], colors: [SIMD3<UInt8>]? = nil) -> (points: [SIMD3<Float>], colors: [SIMD3<UInt8>]?) {
        guard size > 0, size.isFinite else { return (points, colors) }
        let colors = colors?.count == points.count ? colors : nil
        struct Cell { var sum: SIMD3<Double>; var color: SIMD3<Double>; var count: Double }
        var index: [SIMD3<Int32>: Int] = [:]
        var cells: [Cell] = []
        index.reserveCapacity(points.count / 4)
        let inverse = 1 / size
        for (i, p) in points.enumerated() {
            let q = (p * inverse).rounded(.down)
            guard q.x.magnitude < 2e9, q.y.magnitude < 2e9, q.z.magnitude < 2e9 else { continue }  // not finite or too far
            let key = SIMD3<Int32>(Int32(q.x), Int32(q.y), Int32(q.z))
            let c = colors.map { SIMD3<Double>(Double($0[i].x), Double($0[i].y), Double($0[i].z)) } ?? .zero
            if let k = index[key] {
                cells[k].sum += SIMD3<Double>(p)
                cells[k].color += c
                cells[k].count += 1
            } else {
                index[key] = cells.count
                cells.append(Cell(sum: SIMD3<Double>(p), color: c, count: 1))
            }
        }
        let out = cells.map { SIMD3<Float>($0.sum / $0.count) }
        let outColors = colors.map { _ in cells.map { c -> SIMD3<UInt8> in
            let m = (c.color / c.count).rounded(.toNearestOrAwayFromZero)
            return SIMD3<UInt8>(UInt8(m.x), UInt8(m.y), UInt8(m.z))
        } }
        return (out, outColors)
    }
}
