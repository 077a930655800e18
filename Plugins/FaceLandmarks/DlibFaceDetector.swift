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
            throw DlibError(message: Self.text(message))
        }
        self.handle = handle
    }

    deinit { parallax_dlib_face_detector_destroy(handle) }

    struct DlibError: Error { var message: String }

    /// A C message buffer as text (up to its first 0).
    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The 68 landmarks (px) fitted inside `box` of `image` (8-bit gray): for a box of the CNN
    /// detector. The box may reach past the border; the landmarks then may too.
    func landmarks(_ image: ImageBuffer<UInt8>, in box: BoundingBox) throws(DlibError) -> [SIMD2<Double>] {
        guard image.channels == 1 else { throw DlibError(message: "expected a gray image, got \(image.channels) channels") }
        var points = [Double](repeating: 0, count: 136)
        var message = [CChar](repeating: 0, count: 512)
        let status = image.samples.withUnsafeBufferPointer { pixels in
            parallax_dlib_face_landmarks(handle, pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                                         box.x, box.y, box.width, box.height, &points, &message, message.count)
        }
        guard status == 0 else { throw DlibError(message: Self.text(message)) }
        return (0..<68).map { SIMD2(points[2 * $0], points[2 * $0 + 1]) }
    }

    /// The faces in `image` (8-bit gray), best score first, at most `maxFaces`.
    func detect(_ image: ImageBuffer<UInt8>, upsample: Int, threshold: Double, maxFaces: Int) throws(DlibError) -> [Face] {
        var faces = [parallax_dlib_face](repeating: parallax_dlib_face(), count: maxFaces)
        var message = [CChar](repeating: 0, count: 512)
        let found = image.samples.withUnsafeBufferPointer { pixels in
            parallax_dlib_face_detect(handle, pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width),
                                      Int32(upsample), threshold, &faces, Int32(maxFaces), &message, message.count)
        }
        guard found >= 0 else {
            throw DlibError(message: Self.text(message))
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
