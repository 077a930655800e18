import CFeatureKernels
import Foundation
import Testing
import ParallaxImage
import ParallaxMath
import VisionTestSupport
@testable import ParallaxVision

/// Since issue 47 FAST, the non-maximum suppression, the Harris sums, the orientation moments,
/// the steered BRIEF test and Hamming matching run in CFeatureKernels (AVX2/POPCNT where the machine has them, a
/// portable path otherwise). Their results must be bit-identical to the Swift loops they
/// replaced, kept below as the reference, on every path; `resized`/`gaussianBlurred` are checked
/// the same way in ParallaxImageTests.
@Suite(.serialized) struct ORBKernelsTests {
    /// officeImage (integer gray levels), a non-integer version of it (as color → gray frames
    /// and pyramid levels are) and a small image whose width is no multiple of 8.
    static let images: [GrayImage] = {
        var rng = SeededGenerator(seed: 47)
        let noisy = GrayImage(width: officeImage.width, height: officeImage.height,
                              pixels: officeImage.pixels.map { 0.73 * $0 + 31.3 + Float(rng.nextGaussian() * 2.1) })
        return [officeImage, noisy, noisy.resized(width: 123, height: 97)]
    }()

    static func onEveryPath(_ body: (String) -> Void) {
        // 0: as detected; 2: AVX2 at most (the AVX-512 paths' fallbacks); 1: portable.
        for mode in [Int32(0), 2, 1] {
            pxl_kernels_force_portable(mode)
            body(mode == 1 ? "portable" : "dispatched (features \(pxl_kernels_features()))")
        }
        pxl_kernels_force_portable(0)
    }

    @Test func fastScoresEqualTheSwiftLoop() {
        Self.onEveryPath { path in
            for image in Self.images {
                for (threshold, border) in [(Float(20), 20), (7.5, 3), (40, 4)] {
                    var fast = FASTDetector()
                    fast.threshold = threshold
                    fast.border = border
                    let got = fast.scores(image).pixels.map(\.bitPattern)
                    let want = Self.referenceFASTScores(image, threshold: threshold, border: border).map(\.bitPattern)
                    #expect(got == want, "\(image.width)×\(image.height) threshold \(threshold), \(path)")
                    #expect(got.contains { $0 != 0 }, "some corners")
                }
            }
        }
    }

    @Test func extractionEqualsTheSwiftPipeline() {
        var orb = ORBExtractor()
        orb.maxFeatures = 500
        let want = Self.images.map { Self.referenceExtract(orb, $0) }
        Self.onEveryPath { path in
            for (image, expected) in zip(Self.images, want) {
                let got = orb.extract(image)
                #expect(got.count == expected.count && got.count > 100, "\(got.count) features, \(path)")
                #expect(got == expected, "\(image.width)×\(image.height), \(path)")
                #expect(got.map(\.angle.bitPattern) == expected.map(\.angle.bitPattern))
                #expect(got.map(\.response.bitPattern) == expected.map(\.response.bitPattern))
            }
        }
    }

    @Test func describeAtPixelsEqualsTheSwiftPipeline() {
        let image = Self.images[1]
        let pixels: [Vector2] = (0..<200).map { (k: Int) -> Vector2 in
            let x: Int = 17 + (k * 37) % 600, y: Int = 13 + (k * 53) % 450
            return Vector2(Double(x), Double(y))
        }
        let smoothed = image.gaussianBlurred(sigma: 2, radius: 3)
        let want: [BinaryDescriptor?] = pixels.map { p in
            let x = Int(p.x.rounded()), y = Int(p.y.rounded())
            guard x >= 20, y >= 20, x < image.width - 20, y < image.height - 20 else { return nil }
            return Self.referenceDescribe(smoothed, x: x, y: y, angle: Self.referenceOrientation(image, x: x, y: y))
        }
        Self.onEveryPath { path in
            let got = ORBExtractor().describe(image, at: pixels)
            #expect(got == want, "\(path)")
            #expect(got.compactMap { $0 }.count > 150)
        }
    }

    @Test func matcherEqualsTheSwiftLoop() {
        // Few bits per descriptor: many equal distances, so tie-breaking is exercised.
        var rng = SeededGenerator(seed: 9)
        func descriptor() -> BinaryDescriptor {
            var d = BinaryDescriptor()
            for _ in 0..<(Int(rng.next() % 6)) { d.set(Int(rng.next() % 40)) }
            return d
        }
        let query = (0..<300).map { _ in descriptor() }, train = (0..<257).map { _ in descriptor() }
        #expect(MemoryLayout<BinaryDescriptor>.stride == 32, "the C loop reads descriptors as 4 words each")
        Self.onEveryPath { path in
            for (ratio, cross, limit) in [(0.8, true, 64), (1.0, false, 64), (0.9, true, 2), (1.0, true, 256)] {
                var m = DescriptorMatcher()
                m.ratio = ratio
                m.crossCheck = cross
                m.maxDistance = limit
                let got = m.match(query, train), want = Self.referenceMatch(m, query, train)
                #expect(got == want, "ratio \(ratio) cross \(cross) limit \(limit), \(path)")
                if ratio == 1, !cross { #expect(got.count == query.count) }
            }
            #expect(DescriptorMatcher().match(query, []).isEmpty && DescriptorMatcher().match([], train).isEmpty)
        }
    }

    @Test func topCandidatesSelectionSortsTheSmallestKeys() {
        var rng = SeededGenerator(seed: 3)
        var keys = Set<UInt64>()
        while keys.count < 5000 { keys.insert(rng.next() % 1_000_000) }
        let all = Array(keys)
        for k in [0, 1, 2, 17, 999, 4999, 5000] {
            var work = all
            work.withUnsafeMutableBufferPointer { b in
                if let base = b.baseAddress { pxl_sort_smallest(base, b.count, k) }
            }
            #expect(Array(work.prefix(k)) == Array(all.sorted().prefix(k)), "k = \(k)")
            #expect(Set(work) == keys, "a permutation")
        }
    }

    // MARK: The Swift code before issue 47 (reference)

    static func referenceFASTScores(_ image: GrayImage, threshold: Float, border: Int) -> [Float] {
        let w = image.width, h = image.height, p = image.pixels
        var out = [Float](repeating: 0, count: w * h)
        let offsets = FASTDetector.circle.map { $0.1 * w + $0.0 }
        let b = max(3, border)
        for y in b..<max(b, h - b) {
            for x in b..<max(b, w - b) {
                let i = y * w + x, c = p[i], hi = c + threshold, lo = c - threshold
                let n = p[i + offsets[0]], e = p[i + offsets[4]], s = p[i + offsets[8]], wv = p[i + offsets[12]]
                let brighter = (n > hi ? 1 : 0) + (e > hi ? 1 : 0) + (s > hi ? 1 : 0) + (wv > hi ? 1 : 0)
                let darker = (n < lo ? 1 : 0) + (e < lo ? 1 : 0) + (s < lo ? 1 : 0) + (wv < lo ? 1 : 0)
                guard brighter >= 2 || darker >= 2 else { continue }
                var bright: UInt32 = 0, dark: UInt32 = 0, score: Float = 0
                for k in 0..<16 {
                    let v = p[i + offsets[k]]
                    bright |= UInt32(v > hi ? 1 : 0) << UInt32(k)
                    dark |= UInt32(v < lo ? 1 : 0) << UInt32(k)
                    score += max(v - hi, 0) + max(lo - v, 0)
                }
                if FASTDetector.hasArc(bright) || FASTDetector.hasArc(dark) { out[i] = score }
            }
        }
        return out
    }

    static func referenceStrongestCorners(_ orb: ORBExtractor, _ image: GrayImage, count: Int) -> [ORBExtractor.Corner] {
        guard count > 0 else { return [] }
        let border = orb.margin, w = image.width, h = image.height
        let s = referenceFASTScores(image, threshold: orb.fastThreshold, border: border)
        var candidates: [(index: Int, score: Float)] = []
        for y in border..<max(border, h - border) {
            for x in border..<max(border, w - border) {
                let i = y * w + x, v = s[i]
                guard v > 0 else { continue }
                guard v > s[i - w - 1], v > s[i - w], v > s[i - w + 1], v > s[i - 1],
                      v >= s[i + 1], v >= s[i + w - 1], v >= s[i + w], v >= s[i + w + 1] else { continue }
                candidates.append((i, v))
            }
        }
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        var corners = candidates.prefix(2 * count).map { c in
            ORBExtractor.Corner(x: c.index % w, y: c.index / w, response: referenceHarris(image, x: c.index % w, y: c.index / w))
        }
        corners.sort { $0.response != $1.response ? $0.response > $1.response : ($0.y, $0.x) < ($1.y, $1.x) }
        return Array(corners.prefix(count))
    }

    static func referenceHarris(_ image: GrayImage, x: Int, y: Int) -> Float {
        let w = image.width, p = image.pixels
        var a: Float = 0, b: Float = 0, c: Float = 0
        for v in (y - 3)...(y + 3) {
            for u in (x - 3)...(x + 3) {
                let i = v * w + u
                let dx = (p[i - w + 1] + 2 * p[i + 1] + p[i + w + 1]) - (p[i - w - 1] + 2 * p[i - 1] + p[i + w - 1])
                let dy = (p[i + w - 1] + 2 * p[i + w] + p[i + w + 1]) - (p[i - w - 1] + 2 * p[i - w] + p[i - w + 1])
                a += dx * dx; b += dy * dy; c += dx * dy
            }
        }
        let scale: Float = 1 / (4 * 7 * 255)
        a *= scale * scale; b *= scale * scale; c *= scale * scale
        return a * b - c * c - 0.04 * (a + b) * (a + b)
    }

    static func referenceOrientation(_ image: GrayImage, x: Int, y: Int) -> Float {
        let w = image.width, r = ORBExtractor.orientationRadius, p = image.pixels
        var m10: Float = 0, m01: Float = 0
        for dy in -r...r {
            let half = ORBExtractor.patchHalfWidths[abs(dy)], row = (y + dy) * w + x
            var rowSum: Float = 0
            for dx in -half...half {
                let v = p[row + dx]
                m10 += Float(dx) * v
                rowSum += v
            }
            m01 += Float(dy) * rowSum
        }
        return atan2f(m01, m10)
    }

    static func referenceDescribe(_ smoothed: GrayImage, x: Int, y: Int, angle: Float) -> BinaryDescriptor {
        let c = cosf(angle), s = sinf(angle), w = smoothed.width, p = smoothed.pixels, centre = y * w + x
        func sample(_ q: SIMD2<Float>) -> Float {
            let u = Int((c * q.x - s * q.y).rounded(.toNearestOrEven)), v = Int((s * q.x + c * q.y).rounded(.toNearestOrEven))
            return p[centre + v * w + u]
        }
        var descriptor = BinaryDescriptor()
        for (k, pair) in BRIEFPattern.standard.pairs.enumerated() where sample(pair.first) < sample(pair.second) {
            descriptor.set(k)
        }
        return descriptor
    }

    static func referenceExtract(_ orb: ORBExtractor, _ image: GrayImage) -> [ORBFeature] {
        let levelImages = orb.pyramid(image)
        let quotas = orb.featureQuotas(levels: levelImages.count)
        var features: [ORBFeature] = []
        var carry = 0
        for (level, levelImage) in levelImages.enumerated() {
            let wanted = quotas[level] + carry
            let corners = referenceStrongestCorners(orb, levelImage, count: wanted)
            carry = wanted - corners.count
            guard !corners.isEmpty else { continue }
            let smoothed = levelImage.gaussianBlurred(sigma: 2, radius: 3)
            let sx = Double(image.width) / Double(levelImage.width), sy = Double(image.height) / Double(levelImage.height)
            for corner in corners {
                let angle = referenceOrientation(levelImage, x: corner.x, y: corner.y)
                features.append(ORBFeature(pixel: Vector2((Double(corner.x) + 0.5) * sx - 0.5, (Double(corner.y) + 0.5) * sy - 0.5),
                                           level: level, scale: Float(sx), angle: angle, response: corner.response,
                                           descriptor: referenceDescribe(smoothed, x: corner.x, y: corner.y, angle: angle)))
            }
        }
        return features
    }

    static func referenceMatch(_ m: DescriptorMatcher, _ query: [BinaryDescriptor], _ train: [BinaryDescriptor]) -> [DescriptorMatcher.Match] {
        guard !query.isEmpty, !train.isEmpty else { return [] }
        var bestQueryOfTrain = [Int](repeating: -1, count: train.count)
        var bestDistanceOfTrain = [Int](repeating: Int.max, count: train.count)
        var candidates: [DescriptorMatcher.Match] = []
        for i in 0..<query.count {
            var best = Int.max, second = Int.max, bestIndex = -1
            for j in 0..<train.count {
                let distance = query[i].distance(to: train[j])
                if distance < best { second = best; best = distance; bestIndex = j } else if distance < second { second = distance }
                if distance < bestDistanceOfTrain[j] { bestDistanceOfTrain[j] = distance; bestQueryOfTrain[j] = i }
            }
            guard best <= m.maxDistance else { continue }
            if m.ratio < 1, second != Int.max, Double(best) >= m.ratio * Double(second) { continue }
            candidates.append(DescriptorMatcher.Match(queryIndex: i, trainIndex: bestIndex, distance: best))
        }
        return m.crossCheck ? candidates.filter { bestQueryOfTrain[$0.trainIndex] == $0.queryIndex } : candidates
    }
}
