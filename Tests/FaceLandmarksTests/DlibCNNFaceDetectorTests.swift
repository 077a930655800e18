import Foundation
import Testing
import TestSupport
import Parallax
@testable import FaceLandmarks

/// dlib's CNN face detector on real faces: needs its model (scripts/install-models) and the
/// AFLW2000-3D subset in ../shared; skipped, with the reason, without them.
@Suite struct DlibCNNFaceDetectorTests {
    static let aflw = RepositoryPaths.sharedData("faces/aflw2000_subset").path
    static let ready = FileManager.default.fileExists(atPath: FaceDetectorModel.defaultCNNPath) && RepositoryPaths.hasSharedData("faces/aflw2000_subset")
    static let why = "needs \(FaceDetectorModel.defaultCNNPath) (scripts/install-models) and ../shared/data/faces/aflw2000_subset"

    static func image(_ name: String) throws -> ImageBuffer<UInt8> {
        try ImageDecoder.decode8Bit(path: (aflw as NSString).appendingPathComponent(name)).luma
    }

    static func trueBox(_ name: String) throws -> BoundingBox {
        let truth = try MATFile(path: (aflw as NSString).appendingPathComponent(name)).matrix("pt3d_68", rows: 3, columns: 68)
        return BoundingBox.enclosing((0..<68).map { Vector2(truth[0, $0], truth[1, $0]) })
    }

    /// The two faces of the subset that the HOG detector misses (yaw −55° and +71°): the CNN
    /// finds each, on its true landmarks' box; HOG finds neither.
    @Test(.enabled(if: ready, Comment(rawValue: why)))
    func findsFacesTheHOGDetectorMisses() throws {
        let cnn = try DlibCNNFaceDetector(model: FaceDetectorModel.defaultCNNPath)
        let hog = try DlibFaceDetector(model: DlibFaceDetector.defaultModel)
        for name in ["image00251", "image02420"] {
            let gray = try Self.image(name + ".jpg"), box = try Self.trueBox(name + ".mat")
            #expect(try hog.detect(gray, upsample: 0, threshold: 0, maxFaces: 4).allSatisfy { $0.box.iou(box) < 0.25 }, "\(name): HOG")
            let found = try cnn.detect(gray, upsample: 0, threshold: 0, maxFaces: 4)
            #expect(found.contains { $0.box.iou(box) >= 0.25 && $0.score > 0 }, "\(name): \(found.map(\.box))")
        }
    }

    /// Images and regions too small for a face (1–31 px a side): no faces and no failure
    /// (dlib's network failed on an 8 × 8 image and ended the run).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: FaceDetectorModel.defaultCNNPath), Comment(rawValue: why)))
    func tinyImagesAndRegionsHoldNoFace() throws {
        let cnn = try DlibCNNFaceDetector(model: FaceDetectorModel.defaultCNNPath)
        for side in [1, 7, 8, 12, 31] {
            let image = ImageBuffer(width: side, height: side, samples: (0..<(side * side)).map { UInt8(truncatingIfNeeded: 97 &* $0) })
            #expect(try cnn.detect(image, upsample: 0, threshold: 0, maxFaces: 4).isEmpty, "\(side) px")
        }
        let large = ImageBuffer(width: 200, height: 200, samples: [UInt8](repeating: 128, count: 40_000))
        #expect(try cnn.detect(large, region: BoundingBox(x: 190, y: 190, width: 8, height: 8), upsample: 0, threshold: 0, maxFaces: 4).isEmpty)
        #expect(try cnn.detect(large, upsample: 0, threshold: 0, maxFaces: 4).isEmpty)
    }

    /// A region is searched in the image's pixels: the face found in a window around it is the
    /// face found in the whole image (the network's pyramid grid moves with the window, so the
    /// box moves by a few pixels: IoU 0.84 measured),
    /// and a window without it finds nothing.
    @Test(.enabled(if: ready, Comment(rawValue: why)))
    func regionsAreInImagePixels() throws {
        let cnn = try DlibCNNFaceDetector(model: FaceDetectorModel.defaultCNNPath)
        let gray = try Self.image("image00050.jpg")
        let whole = try #require(try cnn.detect(gray, upsample: 0, threshold: 0, maxFaces: 1).first)
        let around = FaceLandmarksAnalyzer.searchRegion(around: whole.box, width: gray.width, height: gray.height)
        let inside = try #require(try cnn.detect(gray, region: around, upsample: 0, threshold: 0, maxFaces: 1).first)
        #expect(inside.box.iou(whole.box) > 0.75, "\(inside.box) vs \(whole.box)")
        let corner = BoundingBox(x: 0, y: 0, width: 90, height: 90)
        #expect(try cnn.detect(gray, region: corner, upsample: 0, threshold: 0, maxFaces: 1).isEmpty)
    }

    /// A file that is not the network (truncated, or anything else) is refused with dlib's reason.
    @Test func aFileThatIsNotTheNetworkIsRefused() throws {
        let path = NSTemporaryDirectory() + "parallax-not-a-network-\(getpid()).dat"
        defer { try? FileManager.default.removeItem(atPath: path) }
        for bytes in [Array("not a network".utf8), [UInt8](repeating: 7, count: 4096)] {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(throws: DlibFaceDetector.DlibError.self) { _ = try DlibCNNFaceDetector(model: path) }
        }
    }
}
