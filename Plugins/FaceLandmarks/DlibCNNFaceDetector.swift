import CDlibFace
import ParallaxImage

/// dlib's CNN face detector (MMOD, `mmod_human_face_detector.dat`) through CDlibFace: finds faces
/// turned beyond the HOG detector's ~60° of yaw, at a far higher cost per pixel (see
/// Benchmarks/README.md). Gives boxes only; the landmarks come from the shape predictor of
/// ``DlibFaceDetector`` on each box.
///
/// One per analyzer instance: the network keeps scratch tensors, so one object is never used by
/// two threads at once (the bus runs an analyzer on one thread at a time).
final class DlibCNNFaceDetector: @unchecked Sendable {
    private let handle: OpaquePointer

    /// A box the network found (px) and its confidence (> 0 above its default threshold).
    struct Detection {
        var box: BoundingBox
        var score: Double
    }

    /// The smallest side (px, after upsampling) the network is run on: its smallest detections
    /// are several times larger, and dlib fails on inputs of a few pixels.
    static let smallestSide = 32

    /// Loads the network at `model`; the error says why not.
    init(model: String) throws(DlibFaceDetector.DlibError) {
        var message = [CChar](repeating: 0, count: 512)
        guard let handle = parallax_dlib_cnn_detector_create(model, &message, message.count) else {
            throw DlibFaceDetector.DlibError(message: DlibFaceDetector.text(message))
        }
        self.handle = handle
    }

    deinit { parallax_dlib_cnn_detector_destroy(handle) }

    /// The faces in `region` of `image` (8-bit gray; the whole image when nil), best first, at
    /// most `maxFaces`, in the image's pixels. `upsample`: 0–2 doublings before detecting.
    func detect(_ image: ImageBuffer<UInt8>, region: BoundingBox? = nil, upsample: Int, threshold: Double, maxFaces: Int) throws(DlibFaceDetector.DlibError) -> [Detection] {
        // The region as whole pixels inside the image.
        let x0 = max(0, Int((region?.x ?? 0).rounded(.down))), y0 = max(0, Int((region?.y ?? 0).rounded(.down)))
        let x1 = min(image.width, region.map { Int(($0.x + $0.width).rounded(.up)) } ?? image.width)
        let y1 = min(image.height, region.map { Int(($0.y + $0.height).rounded(.up)) } ?? image.height)
        guard image.channels == 1 else { throw DlibFaceDetector.DlibError(message: "expected a gray image, got \(image.channels) channels") }
        guard x1 > x0, y1 > y0, maxFaces > 0 else { return [] }
        // A region too small for any face the network finds makes dlib fail (an 8 × 8 image:
        // a tensor assertion that ended the run): nothing to find there.
        let scale = 1 << max(0, min(upsample, 4))
        guard (x1 - x0) * scale >= Self.smallestSide, (y1 - y0) * scale >= Self.smallestSide else { return [] }
        var boxes = [parallax_dlib_box](repeating: parallax_dlib_box(), count: maxFaces)
        var message = [CChar](repeating: 0, count: 512)
        let found = image.samples.withUnsafeBufferPointer { pixels -> Int32 in
            guard let base = pixels.baseAddress else { return -1 }
            return parallax_dlib_cnn_detect(handle, base + y0 * image.width + x0, Int32(x1 - x0), Int32(y1 - y0), Int32(image.width),
                                            Int32(upsample), threshold, &boxes, Int32(maxFaces), &message, message.count)
        }
        guard found >= 0 else { throw DlibFaceDetector.DlibError(message: DlibFaceDetector.text(message)) }
        return boxes.prefix(min(Int(found), maxFaces)).map {
            Detection(box: BoundingBox(x: $0.x + Double(x0), y: $0.y + Double(y0), width: $0.width, height: $0.height), score: $0.score)
        }
    }
}
