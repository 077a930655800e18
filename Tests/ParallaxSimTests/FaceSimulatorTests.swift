import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxOutputs
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxSim
import ParallaxFace

@Suite struct FaceSimulatorTests {
    static let model = try! FaceSimulator.loadOBJ(path: SequenceSimulatorTests.root.appendingPathComponent("datasets/face_model/face_model_with_iris.obj").path)
    static let camera = CameraCalibration(model: CameraModel(width: 640, height: 480, intrinsics: PinholeIntrinsics(fx: 600, fy: 600, cx: 319.5, cy: 239.5)))

    @Test func modelLoadsInMetres() {
        #expect(Self.model.count == 478)
        let xs = Self.model.map(\.x)
        #expect(abs(xs.max()! - 0.0774) < 1e-3 && abs(xs.min()! + 0.0774) < 1e-3)   // face ≈ 15.5 cm wide
    }

    /// A mesh without the irises (or with a coordinate that is not a number) is refused when read,
    /// naming the file: the gaze ground truth indexes the iris vertices (it trapped).
    @Test func aModelWithoutIrisesOrWithBadCoordinatesIsRefused() throws {
        let path = NSTemporaryDirectory() + "parallax-face-\(getpid()).obj"
        defer { try? FileManager.default.removeItem(atPath: path) }
        for text in ["v 1 2 3\nv 4 5 6\nf 1 2 3\n", "not a mesh\n", "v 1 nan 3\n" + String(repeating: "v 1 2 3\n", count: 478)] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect { _ = try FaceSimulator.loadOBJ(path: path) } throws: { "\($0)".contains(path) }
        }
        // A coordinate that is not a number is named with its line (blank lines counted), not skipped.
        try ("# mesh\n\nv 1 2 3\nv 1 x 2 3\n" + String(repeating: "v 1 2 3\n", count: 478)).write(toFile: path, atomically: true, encoding: .utf8)
        #expect { _ = try FaceSimulator.loadOBJ(path: path) } throws: { error in
            guard case let CalibrationError.invalidValue(_, _, line, _) = error else { return false }
            return line == 4
        }
        // CRLF line ends and extra vertex values (w, colour) are read.
        try String(repeating: "v 1 2 3 1.0\r\n", count: 478).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try FaceSimulator.loadOBJ(path: path).count == 478)
    }

    @Test func noiselessLandmarksAreTheModelSeenFromTheTruePose() throws {
        var sim = FaceSimulator(model: Self.model, camera: Self.camera)
        sim.pixelNoise = 0
        sim.pointNoise = 0
        let packets = sim.packets(duration: 2, seed: 1)
        #expect(packets.count == 2 * 61)
        for k in stride(from: 0, to: packets.count, by: 2) {
            let landmarks = try #require(packets[k].payload as? FaceLandmarks)
            let anchor = try #require(packets[k + 1].payload as? FaceAnchor)
            // The mesh is rigid but for the irises, which turn with their eyes.
            let posed = sim.posedModel(anchor)
            for i in Self.model.indices where i < CanonicalFace.rightIrisCenter {
                #expect(posed[i] == Self.model[i])
            }
            for (first, eye) in [(CanonicalFace.rightIrisCenter, anchor.rightEye), (CanonicalFace.leftIrisCenter, anchor.leftEye)] {
                // The iris centre sits on the line of sight, one eyeball radius out.
                #expect((posed[first] - (eye.translation + CanonicalFace.eyeballRadius * (eye.rotation * Vector3(0, 0, 1)))).norm < 1e-12)
            }
            for (i, (v, p)) in zip(posed, landmarks.points).enumerated() {
                #expect((try #require(Self.camera.model.project(anchor.cameraFromHead * v)) - p).norm < 1e-9)
                #expect(Self.camera.model.contains(p))
                #expect((landmarks.points3D![i] - anchor.cameraFromHead * v).norm < 1e-12)
            }
            // Both lines of sight pass through the look-at point.
            for eye in [anchor.leftEye, anchor.rightEye] {
                let toTarget = (anchor.lookAtPoint - eye.translation).normalized
                #expect((eye.rotation * Vector3(0, 0, 1) - toTarget).norm < 1e-12)
            }
            // The face looks toward the camera: head +z has a negative camera z component.
            #expect((anchor.cameraFromHead.rotation * Vector3(0, 0, 1)).z < 0)
        }
    }

    @Test func noiseIsSeededAndRoundTripsThroughAParallaxFolder() throws {
        let sim = FaceSimulator(model: Self.model, camera: Self.camera)
        let a = sim.packets(duration: 1, seed: 4), b = sim.packets(duration: 1, seed: 4)
        #expect(a.compactMap { ($0.payload as? FaceLandmarks)?.points } == b.compactMap { ($0.payload as? FaceLandmarks)?.points })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-face-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try ParallaxFolderWriter.write(a, to: folder.path)
        let source = try ParallaxFolderSource(path: folder.path)
        var back: [AnyPacket] = []
        while let p = try source.next() { back.append(p) }
        #expect(back.count == a.count)
        for (x, y) in zip(a, back) {
            #expect(x.stream == y.stream && x.timestamp == y.timestamp)
            if let l = x.payload as? FaceLandmarks {
                #expect((y.payload as? FaceLandmarks)?.points == l.points)
                #expect((y.payload as? FaceLandmarks)?.points3D == l.points3D)
            }
            if let g = x.payload as? FaceAnchor, let h = y.payload as? FaceAnchor {
                #expect(g.cameraFromHead.translation == h.cameraFromHead.translation && g.lookAtPoint == h.lookAtPoint)
                #expect((g.leftEye.rotation.inverse * h.leftEye.rotation).angle < 1e-12)
            }
        }
    }
}
