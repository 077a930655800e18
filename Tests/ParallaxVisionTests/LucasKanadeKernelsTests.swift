import CFeatureKernels
import Foundation
import Testing
import ParallaxImage
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision

/// Since issue 47 the template sampling and the mismatch of `PyramidalLucasKanade` run in
/// CFeatureKernels (`klt_kernels.c`: AVX2 where the machine has it, a portable path otherwise).
/// Both paths must give the same bits as the Swift loops they replaced, kept in
/// ReferenceLucasKanade.swift: per window, and per tracked point.
@Suite(.serialized) struct LucasKanadeKernelsTests {
    /// officeImage (integer gray levels) and a non-integer, noisy, moved version of it: a small
    /// rotation, zoom and shift (content moves by several pixels, so every level iterates).
    static let pair: (GrayImage, GrayImage) = {
        var rng = SeededGenerator(seed: 47)
        let h = Matrix3(rows: Vector3(1.02 * cos(0.03), -sin(0.03), 6.3), Vector3(sin(0.03), 1.02 * cos(0.03), -4.1), Vector3(0, 0, 1))
        let moved = warp(officeImage, h)
        let noisy = GrayImage(width: moved.width, height: moved.height,
                              pixels: moved.pixels.map { 0.93 * $0 + 7.3 + Float(rng.nextGaussian() * 1.7) })
        return (officeImage, noisy)
    }()

    static func onEveryPath(_ body: (String) -> Void) {
        for portable in [Int32(0), 1] {
            pxl_kernels_force_portable(portable)
            body(portable == 1 ? "portable" : "dispatched (features \(pxl_kernels_features()))")
        }
        pxl_kernels_force_portable(0)
    }

    static func bits(_ r: [Result<Vector2, PyramidalLucasKanade.Failure>]) -> [String] {
        r.map {
            switch $0 {
            case let .success(q): "\(q.x.bitPattern) \(q.y.bitPattern)"
            case let .failure(f): f.rawValue
            }
        }
    }

    @Test(arguments: [5, 9, 15, 21, 31, 63, 65])
    func templateAndMismatchEqualTheSwiftLoops(window: Int) {
        var lk = PyramidalLucasKanade()
        lk.window = window
        let (a, b) = Self.pair
        let from = lk.prepare(a), to = lk.prepare(b, gradients: false)
        let level = from.levels[0]
        guard let dx = level.dx, let dy = level.dy else { Issue.record("no gradients"); return }
        var rng = SeededGenerator(seed: UInt64(window))
        // Window origins all over the image, margins included, at random fractions.
        let half = Float(window / 2)
        let origins: [(Float, Float)] = (0..<60).map { _ in
            (Float.random(in: 0...Float(a.width - 1), using: &rng) - half, Float.random(in: 0...Float(a.height - 1), using: &rng) - half)
        } + [(-half, -half), (Float(a.width - 1) - half, Float(a.height - 1) - half), (3 - half, 0.5 - half)]
        Self.onEveryPath { path in
            var buffers = PyramidalLucasKanade.WindowBuffers(window: window)
            var reference = ReferenceBuffers(window: window)
            for origin in origins {
                let got = PyramidalLucasKanade.template(&buffers, origin: origin, window: window, image: level.image, dx: dx, dy: dy)
                let want = PyramidalLucasKanade.referenceSampleWindow(origin: origin, window: window, image: level.image, dx: dx, dy: dy,
                                                                      template: &reference.template, gx: &reference.gx, gy: &reference.gy)
                #expect([got.0, got.1, got.2].map(\.bitPattern) == [want.0, want.1, want.2].map(\.bitPattern), "\(origin), \(path)")
                #expect(buffers.template.map(\.bitPattern) == reference.template.map(\.bitPattern), "\(origin), \(path)")
                #expect(buffers.gx.map(\.bitPattern) == reference.gx.map(\.bitPattern) && buffers.gy.map(\.bitPattern) == reference.gy.map(\.bitPattern))
                // The mismatch against the next image, a little away from the template.
                let q = (origin.0 + Float.random(in: -2...2, using: &rng), origin.1 + Float.random(in: -2...2, using: &rng))
                let J = to.levels[0].image
                guard q.0 + half >= 0, q.1 + half >= 0, q.0 + half <= Float(J.width - 1), q.1 + half <= Float(J.height - 1) else { continue }
                let (x0, y0, fx, fy) = PyramidalLucasKanade.windowOrigin(q)
                PyramidalLucasKanade.checkWindow(x0, y0, window: window, in: J)
                var out = [Float](repeating: 0, count: 2)
                J.storage.withUnsafeBufferPointer { jb in
                    guard let jp = jb.baseAddress else { return }
                    pxl_lk_mismatch(jp + J.index(x0, y0), J.stride, fx, fy, window, buffers.template, buffers.gx, buffers.gy, &out)
                }
                let m = PyramidalLucasKanade.referenceMismatch(origin: q, window: window, image: J, template: reference.template,
                                                               gx: reference.gx, gy: reference.gy)
                #expect(out.map(\.bitPattern) == [m.0.bitPattern, m.1.bitPattern], "\(q), \(path)")
                #expect(out != [0, 0], "some mismatch")
            }
        }
    }

    @Test func trackingEqualsTheSwiftTracker() {
        let (a, b) = Self.pair
        var detector = ShiTomasiDetector()
        detector.maxCorners = 300
        detector.border = 4
        // Corners, plus points at and past the edges (the margin, lost points) and on a blank patch.
        let points = detector.detect(a).map(\.position) + [Vector2(0, 0), Vector2(639, 479), Vector2(-1, 5), Vector2(2.5, 470.25), Vector2(320.5, 640)]
        let guesses = points.map { Vector2($0.x + 3.7, $0.y - 2.2) }
        // Windows of 0 and 1 px too: no texture (0) and single-pixel windows (1), as before.
        for (window, maxLevel) in [(21, 3), (15, 2), (9, 4), (31, 3), (1, 2), (0, 1)] {
            var lk = PyramidalLucasKanade()
            lk.window = window
            lk.maxLevel = maxLevel
            let from = lk.prepare(a), to = lk.prepare(b, gradients: false)
            let want = Self.bits(lk.referenceTrack(points, from: from, to: to))
            let wantGuessed = Self.bits(lk.referenceTrack(points, from: from, to: to, guesses: guesses, coarsestLevel: 1))
            let trackedCount = want.filter { !$0.hasPrefix("out") && !$0.hasPrefix("low") }.count
            #expect(window < 9 || trackedCount > 200, "window \(window): most points tracked")
            #expect(window != 0 || trackedCount == 0, "window 0: nothing tracked")
            Self.onEveryPath { path in
                #expect(Self.bits(lk.track(points, from: from, to: to)) == want, "window \(window), \(path)")
                #expect(Self.bits(lk.track(points, from: from, to: to, guesses: guesses, coarsestLevel: 1)) == wantGuessed, "window \(window), \(path)")
            }
        }
    }
}
