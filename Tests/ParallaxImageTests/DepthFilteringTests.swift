import CKernels
import Foundation
import Testing
@testable import ParallaxImage
import ParallaxMath

@Suite struct DepthFilteringTests {
    /// A 40 × 20 map: 1 m left of column 20, 2 m right of it, with ±1 cm noise (seeded).
    static func step(noise: Float = 0.01) -> ImageBuffer<Float> {
        var rng = SeededGenerator(seed: 9)
        let samples = (0..<(40 * 20)).map { i -> Float in
            let base: Float = i % 40 < 20 ? 1 : 2
            return base + noise * (Float(rng.next() % 2001) / 1000 - 1)
        }
        return ImageBuffer(width: 40, height: 20, samples: samples)
    }

    static func spread(_ image: ImageBuffer<Float>, columns: Range<Int>, target: Float) -> Float {
        var worst: Float = 0
        for y in 0..<image.height { for x in columns { worst = max(worst, abs(image[x, y] - target)) } }
        return worst
    }

    @Test func bilateralSmoothsFlatDepthAndKeepsTheStep() {
        let noisy = Self.step()
        let smooth = DepthFiltering.bilateral(noisy, radius: 3, sigmaSpace: 2, sigmaRange: { _ in 0.03 })
        // Away from the step the noise shrinks; at the step nothing crosses it (no 1.5 m values).
        #expect(Self.spread(smooth, columns: 4..<16, target: 1) < 0.6 * Self.spread(noisy, columns: 4..<16, target: 1))
        #expect(Self.spread(smooth, columns: 17..<20, target: 1) < 0.011 && Self.spread(smooth, columns: 20..<23, target: 2) < 0.011)
    }

    /// The bilateral filter as it was written in Swift before its window sums moved to C
    /// (CKernels): the reference the C variants must match bit for bit.
    static func swiftBilateral(_ depth: ImageBuffer<Float>, radius r: Int, sigmaSpace: Double, sigmaRange: (Float) -> Float,
                               guide: ImageBuffer<UInt8>?, sigmaGuide: Double) -> [Float] {
        let w = depth.width, h = depth.height
        var spatial = [Float](repeating: 0, count: (2 * r + 1) * (2 * r + 1))
        for dy in -r...r { for dx in -r...r {
            spatial[(dy + r) * (2 * r + 1) + dx + r] = Float(exp(-Double(dx * dx + dy * dy) / (2 * sigmaSpace * sigmaSpace)))
        } }
        let cutoff: Float = 4.5, steps = 1023
        let rangeTable = (0...steps).map { Float(exp(-Double($0) * Double(cutoff) / Double(steps))) } + [0]
        let guideTable = (0...255).map { Float(exp(-Double($0 * $0) / (2 * sigmaGuide * sigmaGuide))) }
        let z = depth.samples, g = guide?.samples
        var out = z
        let side = 2 * r + 1
        for y in 0..<h {
            for x in 0..<w {
                let c = z[y * w + x]
                guard c.isFinite else { continue }
                let s = max(sigmaRange(c), 1e-6)
                let toIndex = Float(steps) / (cutoff * 2 * s * s)
                let gc = g.map { Int($0[y * w + x]) } ?? 0
                var sum: Float = 0, total: Float = 0
                for yy in max(0, y - r)...min(h - 1, y + r) {
                    let row = yy * w, spatialRow = (yy - y + r) * side - x + r
                    for xx in max(0, x - r)...min(w - 1, x + r) {
                        let v = z[row + xx]
                        guard v.isFinite else { continue }
                        let dz = v - c
                        let k = min(Float(steps + 1), dz * dz * toIndex)
                        var weight = spatial[spatialRow + xx] * rangeTable[Int(k)]
                        if let g { weight *= guideTable[abs(Int(g[row + xx]) - gc)] }
                        sum += weight * v
                        total += weight
                    }
                }
                out[y * w + x] = total > 0 ? sum / total : c
            }
        }
        return out
    }

    /// The C window sums (portable, AVX2, AVX-512: each the processor has) give the Swift
    /// loop's bits: on a depth map with planes, steps, noise, invalid pixels (NaN, ∞, holes at
    /// the border and inside), widths whose interior (width − 2·radius) is a multiple of the
    /// 8- and 16-pixel steps (20, 64) or leaves a rest (37, 101: the last step overlaps the one
    /// before) or is narrower than a step (21: all scalar); plain and guided; radius 1 to 6.
    @Test(arguments: [(1, 37), (3, 101), (6, 64), (2, 20), (3, 21)])
    func cWindowSumsMatchTheSwiftLoopBitForBit(radius: Int, width: Int) {
        let h = 29
        var rng = SeededGenerator(seed: 5)
        var samples = [Float](repeating: 0, count: width * h)
        var gray = [UInt8](repeating: 0, count: width * h)
        for y in 0..<h {
            for x in 0..<width {
                let plane: Float = x < width / 3 ? 0.8 + 0.002 * Float(y) : (y < h / 2 ? 2.5 - 0.01 * Float(x) / 7 : 1.6)
                let noise = 0.004 * (Float(rng.next() % 2001) / 1000 - 1)
                samples[y * width + x] = plane + noise
                gray[y * width + x] = UInt8(truncatingIfNeeded: Int(plane * 60) + Int(rng.next() % 9))
            }
        }
        for i in stride(from: 3, to: samples.count, by: 13) { samples[i] = .nan }
        for x in 0..<min(9, width) { samples[x] = .nan; samples[(h - 1) * width + width - 1 - x] = .nan }
        samples[5 * width + width / 2] = .infinity
        samples[7 * width + 2] = -.infinity
        for y in 12..<16 { for x in (width / 2)..<(width / 2 + 3) { samples[y * width + x] = .nan } }
        let depth = ImageBuffer(width: width, height: h, samples: samples)
        let guide = ImageBuffer(width: width, height: h, samples: gray)
        let sigma: (Float) -> Float = { z in 3 * Float(max(0.0012 + 0.0019 * Double(z - 0.4) * Double(z - 0.4), 0.001)) }
        for g in [nil, guide] {
            let reference = Self.swiftBilateral(depth, radius: radius, sigmaSpace: 2, sigmaRange: sigma, guide: g, sigmaGuide: 12)
            for level: Int32 in [0, 1, 2] {
                let c = DepthFiltering.bilateral(depth, radius: radius, sigmaSpace: 2, sigmaRange: sigma, guide: g, sigmaGuide: 12, kernelLevel: level)
                #expect(c.samples.map(\.bitPattern) == reference.map(\.bitPattern), "level \(level), guide \(g != nil)")
            }
            // Not vacuous: the filter changed most valid pixels.
            let changed = zip(reference, samples).filter { $0.0.isFinite && $0.0 != $0.1 }.count
            #expect(changed > width * h / 2)
        }
    }

    /// With AVX-512 the range weights come from arithmetic, not the table (the gathers took
    /// 3/4 of the time on AMD Zen 4): for the filter's table, every entry's bits; a table of
    /// another step is read.
    @Test func theRangeWeightsAreComputedWhereTheyGiveTheTablesBits() {
        let cutoff = 4.5, steps = 1023
        let table = (0...steps).map { Float(exp(-Double($0) * cutoff / Double(steps))) } + [0]
        let level = parallax_kernels_level(-1)
        #expect(parallax_bilateral_range_arithmetic(table, Int32(steps), cutoff / Double(steps), level) == (level == 2 ? 1 : 0))
        #expect(parallax_bilateral_range_arithmetic(table, Int32(steps), 4.6 / Double(steps), level) == 0)
        #expect(parallax_bilateral_range_arithmetic(table, 1000, cutoff / Double(steps), level) == 0)
    }

    @Test func theGuideKeepsItsEdgesWhereDepthAloneWouldBlend() {
        // Depth 1.00 | 1.02 m (within the range tolerance), the image has an edge at the same place.
        let depth = ImageBuffer(width: 20, height: 10, samples: (0..<200).map { Float($0 % 20 < 10 ? 1.0 : 1.02) })
        let guide = ImageBuffer(width: 20, height: 10, samples: (0..<200).map { UInt8($0 % 20 < 10 ? 20 : 220) })
        let plain = DepthFiltering.bilateral(depth, radius: 3, sigmaSpace: 2, sigmaRange: { _ in 0.05 })
        let joint = DepthFiltering.bilateral(depth, radius: 3, sigmaSpace: 2, sigmaRange: { _ in 0.05 }, guide: guide, sigmaGuide: 10)
        #expect(plain[9, 5] > 1.001)
        #expect(abs(joint[9, 5] - 1) < 1e-4 && abs(joint[10, 5] - 1.02) < 1e-4)
    }

    @Test func smallInnerHolesAreFilledLargeOrBorderOnesAreNot() {
        var samples = (0..<(30 * 20)).map { i in Float(1 + 0.01 * Double(i % 30)) }  // a ramp along x
        for (x, y) in [(10, 10), (11, 10), (10, 11)] { samples[y * 30 + x] = .nan }       // 3 px inside
        for y in 0..<20 { samples[y * 30 + 25] = .nan }                                      // a column to the border
        for y in 2..<8 { for x in 2..<8 { samples[y * 30 + x] = .nan } }                    // 36 px inside
        let filled = DepthFiltering.fillHoles(ImageBuffer(width: 30, height: 20, samples: samples), maxArea: 10)
        #expect(abs(filled[10, 10] - 1.10) < 0.006 && abs(filled[11, 10] - 1.11) < 0.006 && filled[10, 11].isFinite)
        #expect(filled[25, 5].isNaN && filled[4, 4].isNaN)
        #expect(DepthFiltering.fillHoles(ImageBuffer(width: 30, height: 20, samples: samples), maxArea: 100)[4, 4].isFinite)
    }

    @Test func valuesOutsideTheRangeBecomeInvalid() {
        let clamped = DepthFiltering.clamp(ImageBuffer(width: 4, height: 1, samples: [0.2, 1, .infinity, 9]), to: 0.5...5)
        #expect(clamped[0, 0].isNaN && clamped[1, 0] == 1 && clamped[2, 0].isNaN && clamped[3, 0].isNaN)
    }
}
