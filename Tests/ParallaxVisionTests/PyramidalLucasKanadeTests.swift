import Foundation
import Testing
import ParallaxImage
import ParallaxGeometry
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision

@Suite struct PyramidalLucasKanadeTests {
    let lk = PyramidalLucasKanade()

    func corners(_ image: GrayImage) -> [Vector2] {
        var d = ShiTomasiDetector()
        d.border = 16
        return d.detect(image).map(\.position)
    }

    @Test func knownShiftIsTrackedToFiveHundredthsOfAPixel() {
        let shift = Vector2(2.3, -1.7)
        let a = render { ($0, $1) }
        let b = render { ($0 - shift.x, $1 - shift.y) }   // content moves by +shift
        let points = corners(a)
        #expect(points.count > 50)
        let tracked = lk.track(points, from: lk.prepare(a), to: lk.prepare(b, gradients: false))
        var errors: [Double] = []
        for (p, r) in zip(points, tracked) { if case let .success(q) = r { errors.append(((q - p) - shift).norm) } }
        #expect(errors.count >= points.count * 9 / 10)
        #expect(errors.sorted()[errors.count / 2] < 0.05, "median error \(errors.sorted()[errors.count / 2]) px")
        #expect(errors.sorted()[errors.count * 9 / 10] < 0.05)
    }

    @Test func knownHomographyIsTrackedToFiveHundredthsOfAPixel() {
        // A small rotation + scale about the image centre + shift, as a homography with tiny perspective.
        let h = Matrix3(rows: Vector3(1.01 * cos(0.02), -sin(0.02), 3), Vector3(sin(0.02), 1.01 * cos(0.02), -2), Vector3(1e-5, -1e-5, 1))
        guard let hinv = h.inverse else { Issue.record("singular"); return }
        func apply(_ m: Matrix3, _ p: Vector2) -> Vector2 { let q = m * Vector3(p.x - 160, p.y - 120, 1); return Vector2(q.x / q.z + 160, q.y / q.z + 120) }
        let a = render { ($0, $1) }
        let b = render { x, y in let p = apply(hinv, Vector2(x, y)); return (p.x, p.y) }
        let points = corners(a).filter { $0.x > 30 && $0.x < 290 && $0.y > 30 && $0.y < 210 }
        let tracked = lk.track(points, from: lk.prepare(a), to: lk.prepare(b, gradients: false))
        var errors: [Double] = []
        for (p, r) in zip(points, tracked) { if case let .success(q) = r { errors.append((q - apply(h, p)).norm) } }
        #expect(errors.count > 30)
        let median = errors.sorted()[errors.count / 2]
        #expect(median < 0.05, "median error \(median) px")
    }

    @Test func blankImagesGiveNoFeaturesAndLowTexture() {
        let blank = GrayImage(width: 160, height: 120, value: 77)
        #expect(ShiTomasiDetector().detect(blank).isEmpty)
        let r = lk.track([Vector2(80, 60)], from: lk.prepare(blank), to: lk.prepare(blank))
        #expect(r.count == 1)
        if case .failure(.lowTexture) = r[0] {} else { Issue.record("expected lowTexture, got \(r[0])") }
        // A window sticking out of the image is fine (the margin is reflected, as in OpenCV); a
        // point outside the image is not.
        let shift = Vector2(1.5, 0.5)
        let edge = lk.track([Vector2(2, 2), Vector2(-3, 5)], from: lk.prepare(render { ($0, $1) }), to: lk.prepare(render { ($0 - shift.x, $1 - shift.y) }))
        if case let .success(q) = edge[0] { #expect((q - Vector2(3.5, 2.5)).norm < 0.1, "\(q)") } else { Issue.record("expected a track, got \(edge[0])") }
        if case .failure(.outOfImage) = edge[1] {} else { Issue.record("expected outOfImage, got \(edge[1])") }
    }
}
