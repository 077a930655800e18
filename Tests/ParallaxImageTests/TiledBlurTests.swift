import CFeatureKernels
import Foundation
import Testing
@testable import ParallaxImage
import ParallaxMath

/// `gaussianBlurred(sigma:radius:near:reach:)` (ORB's smoothing around its corners only) must give
/// the full blur's bits on every pixel of a tile it computes, and 0 on the others, on every path.
@Suite(.serialized) struct TiledBlurTests {
    /// Sizes with every remainder that matters (w mod 8 = 1 and 2 put a tile edge within the kernel
    /// radius of the right border), a row shorter than the kernel, and points at the corners,
    /// the edges, off the image and in the middle.
    @Test func tilesEqualTheFullBlurAndTheRestIsZero() {
        let sizes = [(101, 67), (640, 480), (97, 41), (98, 33), (9, 5), (1, 7), (4, 20)]
        ResamplingKernelTests.onEveryPath {
            for (k, (w, h)) in sizes.enumerated() {
                let image = ResamplingKernelTests.texture(width: w, height: h, seed: UInt64(10 + k))
                var rng = SeededGenerator(seed: UInt64(k))
                var points: [(x: Int, y: Int)] = [(0, 0), (w - 1, h - 1), (w - 1, 0), (0, h / 2), (w / 2, h / 2), (-30, 5), (w + 40, h + 40)]
                for _ in 0..<(w * h / 2000) { points.append((Int(rng.next() % UInt64(w)), Int(rng.next() % UInt64(h)))) }
                for (sigma, radius, reach) in [(Float(2), 3, 20), (2, 3, 0), (1.2, 1, 5), (4, 10, 7), (6, 20, 9)] {
                    let full = image.gaussianBlurred(sigma: sigma, radius: radius).pixels
                    let some = image.gaussianBlurred(sigma: sigma, radius: radius, near: points, reach: reach).pixels
                    let tw = (w + 7) / 8
                    var tiles = Set<Int>()
                    for p in points {
                        let x0 = max(0, p.x - reach), x1 = min(w - 1, p.x + reach), y0 = max(0, p.y - reach), y1 = min(h - 1, p.y + reach)
                        guard x0 <= x1, y0 <= y1 else { continue }
                        for ty in (y0 / 8)...(y1 / 8) { for tx in (x0 / 8)...(x1 / 8) { tiles.insert(ty * tw + tx) } }
                    }
                    let marked = (0..<(w * h)).map { tiles.contains(($0 / w) / 8 * tw + ($0 % w) / 8) }
                    let want = (0..<(w * h)).map { marked[$0] ? full[$0].bitPattern : 0 }
                    #expect(some.map(\.bitPattern) == want, "\(w)×\(h), σ \(sigma), radius \(radius), reach \(reach)")
                    if w * h > 1000 { #expect(marked.contains(false) || reach >= 20, "some tiles skipped") }
                }
            }
        }
    }

    /// The uncleared form (ORB blurs every level into one buffer): the tiles get the cleared
    /// form's values, every other pixel keeps what the buffer held.
    @Test func unclearedTilesLeaveTheRestAsItWas() {
        ResamplingKernelTests.onEveryPath {
            for (k, (w, h)) in [(101, 67), (98, 33), (4, 20)].enumerated() {
                let image = ResamplingKernelTests.texture(width: w, height: h, seed: UInt64(30 + k))
                let points: [(x: Int, y: Int)] = [(0, 0), (w / 2, h / 2), (w - 1, 3)]
                for (sigma, radius, reach) in [(Float(2), 3, 5), (6, 20, 9)] {
                    let cleared = image.gaussianBlurred(sigma: sigma, radius: radius, near: points, reach: reach).pixels
                    let before = (0..<(w * h + 5)).map { Float(-1 - $0) }
                    var buffer = before
                    buffer.withUnsafeMutableBufferPointer { image.gaussianBlurred(sigma: sigma, radius: radius, near: points, reach: reach, into: $0) }
                    let full = image.gaussianBlurred(sigma: sigma, radius: radius).pixels
                    // The texture is never 0 after blurring: the cleared form's zeros are the skipped tiles.
                    #expect(!full.contains(0))
                    let want = (0..<(w * h + 5)).map { i in i < w * h && cleared[i] != 0 ? cleared[i].bitPattern : before[i].bitPattern }
                    if radius <= 16 && w >= 2 * radius + 1 {
                        #expect(buffer.map(\.bitPattern) == want, "\(w)×\(h), σ \(sigma), radius \(radius)")
                    } else {
                        // Outside what the spans handle every pixel is computed, none cleared.
                        #expect(Array(buffer.prefix(w * h)).map(\.bitPattern) == full.map(\.bitPattern))
                    }
                }
            }
        }
    }
}
