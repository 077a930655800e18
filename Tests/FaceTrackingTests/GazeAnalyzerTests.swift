import Foundation
import Testing
import TestSupport
import Parallax
import ParallaxTesting
@testable import ParallaxCLI

@Suite struct GazeAnalyzerTests {
    static let take = FacePoseAnalyzerTests.root.appendingPathComponent("../shared/data/faces/arkit_livelinkface/alex_rom_4.csv").standardized.path

    /// Eyes of a head 40 cm in front of the camera aimed at a screen point: the sample meets
    /// the screen there, head and eye rotations composed (the head turned 20°, the eyes
    /// counter-turned to look at the same point).
    @Test func headAndEyeRotationsCompose() throws {
        let screen = ScreenPlane.phone()
        let target = screen.corner + Vector3(0.035, 0.07, 0)
        let head = SE3(rotation: HeadAngles(pitch: 5, yaw: 20, roll: 0).cameraFromHead, translation: Vector3(0, 0.05, 0.4))
        let centers = FaceModel.mediapipe478.eyeballCenters
        func eye(_ center: Vector3) -> SE3 {
            let z = (head.inverse * target - center).normalized
            let x = Vector3(0, 1, 0).cross(z).normalized
            return SE3(rotation: SO3(Matrix3(columns: x, z.cross(x), z)), translation: center)
        }
        let anchor = FaceAnchor(cameraFromHead: head, leftEye: eye(centers.left), rightEye: eye(centers.right), lookAtPoint: head.inverse * target)
        var h = AnalyzerHarness { try GazeAnalyzer(options: GazeAnalyzer.Options()) }
        let key = StreamKey<FaceAnchor>("face0/anchor")
        h.declare(key)
        for k in 0..<10 { h.push(anchor, on: key, at: Timestamp(nanoseconds: Int64(k) * 33_333_333)) }
        let result = try h.run()
        let samples = result.packets(on: "face0/gaze", as: GazeSample.self)
        #expect(samples.count == 10)
        let point = try #require(samples.first?.payload.screenPoint)
        #expect((point - Vector2(0.035, 0.07)).norm < 0.002)  // the mean of two converging rays, from between the eyes
        #expect(samples.allSatisfy { $0.payload.onScreen && $0.payload.fixating })
        let fixations = result.packets(on: "face0/fixations", as: Fixation.self)
        #expect(fixations.count == 1 && abs(fixations[0].payload.duration - 0.3) < 1e-6)
        #expect(result.packets(on: "face0/heatmap", as: CameraFrame.self).count == 1)
    }

    /// The real Live Link Face take replays into a fixation list and a heatmap PNG.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("faces/arkit_livelinkface/alex_rom_4.csv"), "../shared/data/faces/arkit_livelinkface/alex_rom_4.csv is not present on this machine"))
    func theLiveLinkTakeGivesFixationsAndAHeatmap() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-gaze-\(UUID())")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(ParallaxCLI.run(["run", "gaze", Self.take, "--out", out.path, "--quiet"]) == 0)
        let list = try String(contentsOf: out.appendingPathComponent("face0/fixations.csv"), encoding: .utf8).split(separator: "\n")
        #expect(list.first == "start_ns,end_ns,duration_s,screen_x_m,screen_y_m,dispersion_deg,samples")
        #expect(list.count > 50)  // 136 fixations in 127 s at the default 30°/s
        let durations = list.dropFirst().compactMap { Double($0.split(separator: ",", omittingEmptySubsequences: false)[2]) }
        #expect(durations.count == list.count - 1 && durations.allSatisfy { $0 >= 0.1 })
        let pngs = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("face0/heatmap").path)
        #expect(pngs.count == 1)
        let image = try ImageDecoder.decode8Bit(path: out.appendingPathComponent("face0/heatmap/\(pngs[0])").path)
        #expect(image.width == 200 && image.channels == 3)
        // Not all one colour: the heatmap shows where the gaze rested.
        #expect(Set(image.samples).count > 50)
    }
}
