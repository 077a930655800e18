import Foundation
import Parallax
import ParallaxTesting
import Testing
import VisionTestSupport

/// `image-detect` on rendered frames of a static picture seen from a moving camera with known
/// poses: anchored in the world where it is, and still known from the camera once out of view.
@Suite struct ImageDetectAnalyzerTests {
    @Test func anchorsAStaticPictureAndKeepsItOutOfView() throws {
        let picture = try PlanarScene.picture()
        let scene = PlanarScene(picture: picture, width: 0.4, camera: PlanarScene.camera)
        // The picture in the world, and the camera's poses: looking at it from several places,
        // then turned away (out of view), then back.
        let worldFromImage = SE3(rotation: SO3.exp(Vector3(0.3, -0.2, 0.5)), translation: Vector3(2, 1, 1.5))
        var cameraFromImage: [SE3] = []
        for k in 0..<8 { cameraFromImage.append(PlanarScene.pose(distance: 1.2 - 0.05 * Double(k), tilt: 0.1 * Double(k), roll: 0.05 * Double(k))) }
        for k in 0..<4 { cameraFromImage.append(PlanarScene.pose(distance: 0.9, tilt: 0.2, shift: Vector2(1.5 + 0.3 * Double(k), 0.2))) }
        for k in 0..<3 { cameraFromImage.append(PlanarScene.pose(distance: 1.0, tilt: -0.2 - 0.1 * Double(k))) }
        let worldFromCamera = cameraFromImage.map { worldFromImage * $0.inverse }
        let file = try ImageTrackAnalyzerTests.referenceFile(picture)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var options = ImageDetectAnalyzer.Options()
        options.reference = [file]
        options.width = [0.4]
        options.poses = "groundtruth"
        var harness = AnalyzerHarness { [options] in try ImageDetectAnalyzer(options: options) }
        let frames = StreamKey<CameraFrame>("cam0"), poses = StreamKey<Pose>("groundtruth")
        harness.describe(frames, as: StreamMetadata(camera: CameraCalibration(model: scene.camera)))
        harness.describe(poses, as: StreamMetadata())
        for (k, pose) in cameraFromImage.enumerated() {
            let t = Timestamp(nanoseconds: Int64(k) * 50_000_000)
            // The first two poses are not estimates yet (a VIO initializing): they place nothing.
            harness.push(Pose(worldFromBody: worldFromCamera[k], trackingState: k < 2 ? .limited(.initializing) : .normal), on: poses, at: t)
            harness.push(CameraFrame(cameraID: "cam0", image: scene.render(pose)), on: frames, at: t)
        }
        let result = try harness.run()
        #expect(result.failure == nil)
        let packets: [Packet<ImageAnchors>] = result.packets(on: "cam0/detected-images")
        #expect(packets.count == cameraFromImage.count)
        for (k, packet) in packets.enumerated() {
            if k < 2 {
                // Found, followed in the camera, not anchored.
                #expect(packet.payload.anchors.first?.isTracked == true && packet.payload.anchors.first?.worldFromImage == nil, "frame \(k)")
                continue
            }
            guard let anchor = packet.payload.anchors.first, let world = anchor.worldFromImage else {
                Issue.record("frame \(k): no anchor in the world")
                continue
            }
            // The anchor in the world where the picture is (mm, a tenth of a degree) …
            #expect((world.translation - worldFromImage.translation).norm < 0.01, "frame \(k)")
            #expect((world.rotation.inverse * worldFromImage.rotation).angle * 180 / .pi < 0.5, "frame \(k)")
            // … and from the camera where it is, in view or not.
            let outOfView = (8..<12).contains(k)
            #expect(anchor.isTracked == !outOfView, "frame \(k)")
            #expect((anchor.pose.translation - cameraFromImage[k].translation).norm < 0.01, "frame \(k)")
        }
    }

    @Test func needsAPictureAndACalibratedCamera() throws {
        var harness = AnalyzerHarness { try ImageDetectAnalyzer(options: .init()) }
        harness.describe(StreamKey<CameraFrame>("cam0"), as: StreamMetadata(camera: CameraCalibration(model: PlanarScene.camera)))
        harness.describe(StreamKey<Pose>("vio/pose"), as: StreamMetadata())
        let failure = try harness.run().failure
        #expect("\(String(describing: failure))".contains("give at least one picture file"))
    }
}
