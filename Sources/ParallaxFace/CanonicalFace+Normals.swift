import ParallaxMath

extension CanonicalFace {
    /// Outward unit normal of the mesh at each of the 478 vertices (head frame): the sum of the
    /// normals of the triangles around it, each as long as twice its area (the cross product of
    /// two edges, counter-clockwise seen from outside). The irises' own small triangles give
    /// theirs. What decides which landmarks a turned head hides (``FaceModel/visibility(cameraFromHead:)``).
    public static let normals: [Vector3] = {
        var sums = [Vector3](repeating: .zero, count: vertices.count)
        for t in stride(from: 0, to: triangleIndices.count - 2, by: 3) {
            let a = triangleIndices[t], b = triangleIndices[t + 1], c = triangleIndices[t + 2]
            let n = (vertices[b] - vertices[a]).cross(vertices[c] - vertices[a])
            for i in [a, b, c] { sums[i] = sums[i] + n }
        }
        return sums.map { $0.norm > 0 ? $0 / $0.norm : Vector3(0, 0, 1) }
    }()
}
