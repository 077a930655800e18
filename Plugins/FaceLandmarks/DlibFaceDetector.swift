import CDlibFace
import ParallaxImage

/// dlib's HOG frontal face detector with its 68-point shape predictor (through CDlibFace).
///
/// One per analyzer instance: dlib's detector keeps scratch state, so one object is never used
/// by two threads at once (the bus runs an analyzer on one thread at a time).
final class DlibFaceDetector: @unchecked Sendable {
    private let handle: OpaquePointer

    /// The model Debian's libdlib-data installs.
    static let defaultModel = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"

    struct Face {
        var box: BoundingBox
        var score: Double
        /// The 68 landmarks (px).
        var points: [SIMD2<Double>]
    }

    /// Loads the shape predictor at `model`; the error says why not.
    init(model: String) throws(DlibError) {
        var message = [CChar](repeating: 0, count: 512)
        guard let handle = parallax_dlib_face_detector_create(model, &message, message.count) else {
            throw DlibError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.handle = handle
    }

    deinit { parallax_dlib_face_detector_destroy(handle) }

    struct DlibError: Error { var message: String }

    /// The faces in `image` (8-bit gray), best score first, at most `maxFaces`.
    func detect(_ image: ImageBuffer<UInt8>, upsample: Int, threshold: Double, maxFaces: Int) throws(DlibError) -> [Face] {
        var faces = [parallax_dlib_face](repeating: parallax_dlib_face(), count: maxFaces)
        var message = [CChar](repeating: 0, count: 512)
        let found = image.samples.withUnsafeBufferPointer { pixels in
            parallax_dlib_face_detect(handle, pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                                      Int32(upsample), threshold, &faces, Int32(maxFaces), &message, message.count)
        }
        guard found >= 0 else {
            throw DlibError(message: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return faces.prefix(min(Int(found), maxFaces)).map { f in
            var f = f
            let points = withUnsafeBytes(of: &f.points) { raw in
                let v = raw.bindMemory(to: Double.self)
                return (0..<68).map { SIMD2(v[2 * $0], v[2 * $0 + 1]) }
            }
            return Face(box: BoundingBox(x: f.x, y: f.y, width: f.width, height: f.height), score: f.score, points: points)
        }
    }
}
