import Foundation
import Testing
import ParallaxFace
import ParallaxMath

@Suite struct CanonicalFaceTests {
    /// The vertices compiled in are the bundled OBJ's, in metres.
    @Test func verticesAreTheBundledModel() throws {
        let obj = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../datasets/face_model/face_model_with_iris.obj").path
        let text = try String(contentsOfFile: obj, encoding: .utf8)
        let vertices = text.split(separator: "\n").filter { $0.hasPrefix("v ") }.map { line -> Vector3 in
            let f = line.split(separator: " ").dropFirst().prefix(3).compactMap { Double($0) }
            return Vector3(f[0], f[1], f[2]) * 0.01
        }
        #expect(vertices.count == 478)
        #expect(CanonicalFace.vertices.count == 478)
        for (a, b) in zip(vertices, CanonicalFace.vertices) { #expect((a - b).norm < 1e-8) }
    }

    /// The iBUG points sit where their names say on the canonical face (+x toward the face's left).
    @Test func ibugPointsAreWhereTheirNamesSay() {
        let p = FaceModel.ibug68.points
        #expect(p.count == 68 && FaceModel.ibug68.rigidity.count == 68)
        #expect(p[0].x < 0 && p[16].x > 0)  // jaw starts at the face's right (the image's left)
        #expect(p[8].y < p[33].y && p[33].y < p[27].y)  // chin below the nose base below the bridge
        #expect(p[30].z > p[36].z && p[30].z > p[45].z)  // the nose tip in front of the eye corners
        #expect(p[36].x < p[39].x && p[42].x < p[45].x)  // eyes from their outer/inner corners in image order
        let c = FaceModel.ibug68.eyeballCenters
        #expect(abs((c.left - c.right).norm - 0.063) < 0.01)  // about the adult interpupillary distance
    }

    /// The mesh's normals point out of the face: unit length, the nose tip's forward (+z), the
    /// jaw line's ends sideways (toward the ears, away from the face's middle), the chin's down
    /// and forward; every normal faces the same way as the vertex seen from behind the face.
    @Test func normalsPointOutOfTheFace() {
        let n = CanonicalFace.normals, v = CanonicalFace.vertices
        #expect(n.count == v.count)
        #expect(n.allSatisfy { abs($0.norm - 1) < 1e-9 })
        #expect(n[4].z > 0.95)  // nose tip
        let jaw = CanonicalFace.ibug68.prefix(17).map { n[$0] }
        #expect(jaw[0].x < -0.8 && jaw[16].x > 0.8)  // the ends, toward the ears
        #expect(jaw[8].z > 0.5 && jaw[8].y < 0)  // the chin
        let behind = Vector3(0, 0, -0.05)
        let outward = v.indices.prefix(468).filter { n[$0].dot(v[$0] - behind) > 0 }.count
        #expect(Double(outward) / 468 > 0.97, "\(outward) of 468")
    }
}
