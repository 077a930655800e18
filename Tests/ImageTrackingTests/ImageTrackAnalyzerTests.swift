import Foundation
import Testing
import VisionTestSupport
import Parallax
import ParallaxTesting
import ParallaxFiles
import ParallaxCodecs

/// `image-track` on a rendered sequence with the true pose of the picture every frame:
/// approaching (scale ×2.5), tilting to 60°, rolling, leaving the view and coming back.
@Suite struct ImageTrackAnalyzerTests {
    static func referenceFile(_ picture: GrayImage) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reference-\(UUID().uuidString).png").path
        try ImageEncoder.writePNG(ImageBuffer(width: picture.width, height: picture.height, samples: picture.pixels.map { UInt8(max(0, min(255, $0.rounded()))) }), to: file)
        return file
    }

    @Test func followsAMovingPictureLosesItOutOfViewAndFindsItAgain() throws {
        let picture = try PlanarScene.picture()
        let scene = PlanarScene(picture: picture, width: 0.4, camera: PlanarScene.camera)
        var poses: [SE3] = []
        for k in 0..<8 { poses.append(PlanarScene.pose(distance: 1.5 - 0.12 * Double(k), tilt: 0.1 * Double(k))) }           // nearer, ×2.5
        for k in 0..<6 { poses.append(PlanarScene.pose(distance: 0.7, tilt: 0.75 + 0.06 * Double(k), roll: 0.1 * Double(k))) }   // to 60°, rolling
        for k in 0..<3 { poses.append(PlanarScene.pose(distance: 0.8, tilt: 0.2, shift: Vector2(1.5 + 0.2 * Double(k), 0))) }    // out of view
        for k in 0..<5 { poses.append(PlanarScene.pose(distance: 0.8 + 0.05 * Double(k), tilt: -0.3, roll: -0.2)) }              // back
        let file = try Self.referenceFile(picture)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var options = ImageTrackAnalyzer.Options()
        options.reference = [file]
        options.width = [0.4]
        var harness = AnalyzerHarness { [options] in try ImageTrackAnalyzer(options: options) }
        let key = StreamKey<CameraFrame>("cam0")
        harness.describe(key, as: StreamMetadata(camera: CameraCalibration(model: scene.camera)))
        for (k, pose) in poses.enumerated() {
            harness.push(CameraFrame(cameraID: "cam0", image: scene.render(pose)), on: key, at: Timestamp(nanoseconds: Int64(k) * 50_000_000))
        }
        let result = try harness.run()
        #expect(result.failure == nil)
        let packets: [Packet<ImageAnchors>] = result.packets(on: "cam0/images")
        #expect(packets.count == poses.count)
        var cornerErrors: [Double] = [], angleErrors: [Double] = [], shiftErrors: [Double] = []
        var tracked: [Bool] = []
        for (k, pose) in poses.enumerated() {
            let anchor = k < packets.count ? packets[k].payload.anchors.first : nil
            tracked.append(anchor?.isTracked ?? false)
            guard let anchor, anchor.isTracked else { continue }
            #expect(anchor.name.hasPrefix("reference-") && abs(anchor.physicalHeight - 0.3) < 1e-12)
            let truth = scene.corners(pose)
            cornerErrors += zip(anchor.corners, truth).map { ($0 - $1).norm }
            angleErrors.append((anchor.pose * pose.inverse).rotation.angle * 180 / .pi)
            shiftErrors.append((anchor.pose.translation - pose.translation).norm)
        }
        let inView = Array(0..<14) + Array(17..<22), outOfView = Array(14..<17)
        #expect(inView.filter { tracked[$0] }.count >= inView.count - 1, "tracked: \(tracked)")
        #expect(outOfView.allSatisfy { !tracked[$0] }, "tracked out of view: \(tracked)")
        #expect(tracked[18], "found again within two frames of coming back: \(tracked)")
        // Measured: corner error median 0.11 px, max 0.64 px; rotation median 0.05°, max 3.6° (the
        // first frame, the picture square to the camera at 1.5 m, where its tilt is least
        // observable); position within 2 mm.
        let median = cornerErrors.sorted()[cornerErrors.count / 2], medianAngle = angleErrors.sorted()[angleErrors.count / 2]
        #expect(median < 0.3 && (cornerErrors.max() ?? 0) < 1, "corner error median \(median) px, max \(cornerErrors.max() ?? 0) px")
        #expect(medianAngle < 0.3 && (angleErrors.max() ?? 0) < 5, "rotation error median \(medianAngle)°, max \(angleErrors.max() ?? 0)°")
        #expect((shiftErrors.max() ?? 0) < 0.005, "position error up to \(shiftErrors.max() ?? 0) m")
    }

    @Test func aPictureWithoutTextureOrAWidthThatIsNotPositiveIsRefusedAtTheStart() throws {
        let flat = GrayImage(width: 200, height: 150, value: 128)
        let file = try Self.referenceFile(flat)
        defer { try? FileManager.default.removeItem(atPath: file) }
        func options(_ reference: [String], _ width: [Double]) -> ImageTrackAnalyzer.Options {
            var o = ImageTrackAnalyzer.Options()
            o.reference = reference
            o.width = width
            return o
        }
        #expect { _ = try ImageTrackAnalyzer(options: options([file], [0.3])) } throws: { "\($0)".contains("too little texture") }
        let textured = try Self.referenceFile(try PlanarScene.picture())
        defer { try? FileManager.default.removeItem(atPath: textured) }
        #expect { _ = try ImageTrackAnalyzer(options: options([textured], [0])) } throws: { "\($0)".contains("width") && "\($0)".contains("> 0") }
        #expect { _ = try ImageTrackAnalyzer(options: options([textured], [0.3, 0.2, 0.1])) } throws: { "\($0)".contains("one width") }
        #expect { _ = try ImageTrackAnalyzer(options: options(["/nonexistent.png"], [0.3])) } throws: { "\($0)".contains("/nonexistent.png") }
        // No picture at all: refused when the run opens it.
        var h = AnalyzerHarness { try ImageTrackAnalyzer(options: options([], [0.3])) }
        h.declare(StreamKey<CameraFrame>("cam0"))
        let failure = try? h.run().failure
        #expect(failure.map { "\($0)".contains("reference") && "\($0)".contains("at least one picture") } == true, "\(String(describing: failure))")
    }
}

extension ImageTrackAnalyzerTests {
    /// Each picture's anchors go to `<stream>/<name>.csv`: two pictures whose names make one
    /// file name (same base name in two folders; `poster a` and `poster_a`) are refused at the
    /// start, naming both files, instead of sharing one CSV.
    @Test func picturesThatWouldShareOneResultFileAreRefusedAtTheStart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-pictures-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = try PlanarScene.picture()
        let samples = picture.pixels.map { UInt8(max(0, min(255, $0.rounded()))) }
        var files: [String: String] = [:]
        for name in ["a/poster.png", "b/poster.png", "c/poster a.png", "c/poster_a.png", "c/other.png"] {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try ImageEncoder.writePNG(ImageBuffer(width: picture.width, height: picture.height, samples: samples), to: url.path)
            files[name] = url.path
        }
        func options(_ names: [String]) -> ImageTrackAnalyzer.Options {
            var o = ImageTrackAnalyzer.Options()
            o.reference = names.compactMap { files[$0] }
            o.width = [0.3]
            return o
        }
        for pair in [["a/poster.png", "b/poster.png"], ["c/poster a.png", "c/poster_a.png"]] {
            #expect { _ = try ImageTrackAnalyzer(options: options(pair + ["c/other.png"])) } throws: { error in
                error is any BadInput && "\(error)".contains("reference") && pair.allSatisfy { "\(error)".contains(files[$0] ?? "?") }
            }
        }
        _ = try ImageTrackAnalyzer(options: options(["a/poster.png", "c/poster a.png", "c/other.png"]))
    }
}
