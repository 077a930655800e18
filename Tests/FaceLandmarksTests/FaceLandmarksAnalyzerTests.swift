import Foundation
import Testing
import TestSupport
import Parallax
import ParallaxTesting
@testable import FaceLandmarks

@Suite struct FaceLandmarksAnalyzerTests {
    static let aflw = RepositoryPaths.sharedData("faces/aflw2000_subset").path
    static let key = StreamKey<CameraFrame>("cam0")

    /// A real face (AFLW2000-3D image00050, frontal): one face, its landmarks within a few
    /// percent of the truth, and face-pose on them within a few degrees; the same id on a repeat.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("faces/aflw2000_subset"), "../shared/data/faces/aflw2000_subset is not present on this machine"))
    func findsARealFaceAndItsLandmarks() throws {
        let folder = Self.aflw
        let image = try ImageDecoder.decode8Bit(path: (folder as NSString).appendingPathComponent("image00050.jpg"))
        let truth = try MATFile(path: (folder as NSString).appendingPathComponent("image00050.mat")).matrix("pt3d_68", rows: 3, columns: 68)
        var h = AnalyzerHarness { try FaceLandmarksAnalyzer(options: FaceLandmarksAnalyzer.Options()) }
        h.declare(Self.key)
        for k in 1...2 { h.push(CameraFrame(cameraID: "cam0", image: image), on: Self.key, at: Timestamp(nanoseconds: Int64(k) * 1_000_000_000)) }
        let out = try h.run().packets(on: "cam0/faces", as: DetectedFaces.self)
        #expect(out.count == 2)
        let face = try #require(out.first?.payload.faces.first)
        #expect(out[0].payload.faces.count == 1 && face.score > 0 && face.landmarks.scheme == .ibug68)
        #expect(out[1].payload.faces.first?.id == face.id)
        let points = (0..<68).map { Vector2(truth[0, $0], truth[1, $0]) }
        let box = BoundingBox.enclosing(points)
        let distances: [Double] = zip(face.landmarks.points, points).map { ($0 - $1).norm }
        let nme = distances.reduce(0, +) / 68 / (box.width * box.height).squareRoot()
        #expect(nme < 0.08, "landmark error \(nme) of the box")
        #expect(face.box.iou(box) > 0.4)
    }

    /// A frame without a face gives an empty set, and the stream goes on.
    @Test func noFaceIsAnEmptySet() throws {
        let blank = ImageBuffer<UInt8>(width: 96, height: 64, channels: 1, samples: [UInt8](repeating: 128, count: 96 * 64))
        var h = AnalyzerHarness { try FaceLandmarksAnalyzer(options: FaceLandmarksAnalyzer.Options()) }
        h.declare(Self.key)
        for k in 1...3 { h.push(CameraFrame(cameraID: "cam0", image: blank), on: Self.key, at: Timestamp(nanoseconds: Int64(k))) }
        let out = try h.run().packets(on: "cam0/faces", as: DetectedFaces.self)
        #expect(out.map { $0.payload.faces.count } == [0, 0, 0])
        #expect(out.first?.payload.imageWidth == 96)
    }

    /// A missing model is an error naming the option and the package that installs it.
    @Test func aMissingModelIsNamed() throws {
        var options = FaceLandmarksAnalyzer.Options()
        options.model = "/nonexistent/shape_predictor.dat"
        var h = AnalyzerHarness { try FaceLandmarksAnalyzer(options: options) }
        h.declare(Self.key)
        h.push(CameraFrame(cameraID: "cam0", image: ImageBuffer<UInt8>(width: 8, height: 8, channels: 1, samples: [UInt8](repeating: 0, count: 64))), on: Self.key, at: Timestamp(nanoseconds: 1))
        let result = try h.run()
        let failure = "\(String(describing: result.failure))"
        #expect(failure.contains("model") && failure.contains("libdlib-data"))
        #expect(result.failure?.isBadInput == true)
    }

    /// Ids follow the most-overlapping face of the previous frame; new faces get new ids.
    @Test func idsFollowOverlap() {
        var next: UInt64 = 10
        let previous: [(id: UInt64, box: BoundingBox)] = [(1, BoundingBox(x: 0, y: 0, width: 100, height: 100)), (2, BoundingBox(x: 300, y: 0, width: 100, height: 100))]
        let ids = FaceLandmarksAnalyzer.associate([BoundingBox(x: 305, y: 5, width: 100, height: 100), BoundingBox(x: 600, y: 0, width: 50, height: 50),
                                                   BoundingBox(x: 10, y: 0, width: 100, height: 100)], with: previous, minimumIoU: 0.3, nextID: &next)
        #expect(ids == [2, 10, 1])
        #expect(next == 11)
    }

    /// detector=cnn|auto without the CNN model, or with a truncated one: a bad option naming the
    /// file and the command that installs it (the CLI exits 2).
    @Test func aMissingOrTruncatedCNNModelIsNamed() throws {
        let truncated = NSTemporaryDirectory() + "parallax-truncated-mmod-\(getpid()).dat"
        defer { try? FileManager.default.removeItem(atPath: truncated) }
        let real = FileManager.default.contents(atPath: FaceDetectorModel.defaultCNNPath)
        try Data(real.map { Array($0.prefix($0.count / 2)) } ?? Array(repeating: 1, count: 1000)).write(to: URL(fileURLWithPath: truncated))
        for (detector, path) in [(FaceLandmarksAnalyzer.Detector.cnn, "/nonexistent/mmod_human_face_detector.dat"), (.auto, truncated)] {
            var options = FaceLandmarksAnalyzer.Options()
            options.detector = detector
            options.cnnModel = path
            var h = AnalyzerHarness { try FaceLandmarksAnalyzer(options: options) }
            h.declare(Self.key)
            h.push(CameraFrame(cameraID: "cam0", image: ImageBuffer<UInt8>(width: 8, height: 8, channels: 1, samples: [UInt8](repeating: 0, count: 64))), on: Self.key, at: Timestamp(nanoseconds: 1))
            let result = try h.run()
            let failure = "\(String(describing: result.failure))"
            #expect(failure.contains("cnn_model") && failure.contains(path) && failure.contains("scripts/install-models"), "\(failure)")
            #expect(result.failure?.isBadInput == true)
        }
    }

    /// Where auto looks for a lost face: its box doubled, at least 160 px, inside the image.
    @Test func theSearchRegionStaysInTheImage() {
        let r = FaceLandmarksAnalyzer.searchRegion(around: BoundingBox(x: 100, y: 100, width: 100, height: 100), width: 640, height: 480)
        #expect(r == BoundingBox(x: 50, y: 50, width: 200, height: 200))
        let small = FaceLandmarksAnalyzer.searchRegion(around: BoundingBox(x: 0, y: 440, width: 40, height: 40), width: 640, height: 480)
        #expect(small == BoundingBox(x: 0, y: 380, width: 100, height: 100))
    }

    static let cnnReady = FileManager.default.fileExists(atPath: FaceDetectorModel.defaultCNNPath) && RepositoryPaths.hasSharedData("faces/aflw2000_subset")

    /// auto: a frontal face is HOG's; a face turned beyond HOG (yaw 71°) is the CNN's, and keeps
    /// its id over frames; every face of the subset is found.
    @Test(.enabled(if: cnnReady, "needs the CNN model (scripts/install-models) and ../shared/data/faces/aflw2000_subset"))
    func autoFindsTurnedFacesAndKeepsTheirIds() throws {
        var options = FaceLandmarksAnalyzer.Options()
        options.detector = .auto
        var h = AnalyzerHarness { try FaceLandmarksAnalyzer(options: options) }
        h.declare(Self.key)
        let turned = try ImageDecoder.decode8Bit(path: (Self.aflw as NSString).appendingPathComponent("image02420.jpg"))
        for k in 1...3 { h.push(CameraFrame(cameraID: "cam0", image: turned), on: Self.key, at: Timestamp(nanoseconds: Int64(k))) }
        let out = try h.run().packets(on: "cam0/faces", as: DetectedFaces.self)
        #expect(out.map { $0.payload.faces.count } == [1, 1, 1])
        #expect(Set(out.compactMap { $0.payload.faces.first?.id }).count == 1)
    }

    /// A face cut by the image's left border (the left 40 % of image00050 removed): no failure;
    /// the CNN finds what is left, its box at the border, its landmarks partly outside the image.
    @Test(.enabled(if: cnnReady, "needs the CNN model (scripts/install-models) and ../shared/data/faces/aflw2000_subset"))
    func aFaceCutByTheBorder() throws {
        let image = try ImageDecoder.decode8Bit(path: (Self.aflw as NSString).appendingPathComponent("image00050.jpg")).luma
        let cut = 190  // the face spans x ≈ 125…330
        var samples: [UInt8] = []
        samples.reserveCapacity((image.width - cut) * image.height)
        for y in 0..<image.height { samples += image.samples[(y * image.width + cut)..<((y + 1) * image.width)] }
        let cropped = ImageBuffer<UInt8>(width: image.width - cut, height: image.height, channels: 1, samples: samples)
        var options = FaceLandmarksAnalyzer.Options()
        options.detector = .cnn
        var h = AnalyzerHarness { try FaceLandmarksAnalyzer(options: options) }
        h.declare(Self.key)
        h.push(CameraFrame(cameraID: "cam0", image: cropped), on: Self.key, at: Timestamp(nanoseconds: 1))
        let result = try h.run()
        #expect(result.failure == nil)
        let faces = try #require(result.packets(on: "cam0/faces", as: DetectedFaces.self).first).payload.faces
        let face = try #require(faces.first)
        #expect(face.box.x < 10, "\(face.box)")
        #expect(face.landmarks.points.count == 68 && face.landmarks.points.allSatisfy { $0.x.isFinite && $0.y.isFinite })
    }
}
