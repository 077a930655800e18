import Testing
import ParallaxImage
@testable import ParallaxVision

@Suite struct SemiGlobalMatchingTests {
    /// A smooth random texture (gray levels), the same for a seed.
    static func texture(width: Int, height: Int, seed: UInt64) -> [Float] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> Float {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Float(state % 1000) / 1000
        }
        // Noise averaged over 3 × 3, so it has structure at a few pixels' scale.
        let noise = (0..<(width * height)).map { _ in next() }
        var out = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0
                for dy in -1...1 { for dx in -1...1 { sum += noise[min(max(y + dy, 0), height - 1) * width + min(max(x + dx, 0), width - 1)] } }
                out[y * width + x] = sum / 9 * 255
            }
        }
        return out
    }

    /// A pair whose left image sees the right one's texture shifted by `disparity(x, y)` px
    /// (linear interpolation for fractions): `left(x, y) = right(x − d, y)`.
    static func pair(width: Int, height: Int, disparity: (Int, Int) -> Double) -> (left: ImageBuffer<UInt8>, right: ImageBuffer<UInt8>) {
        let t = texture(width: width, height: height, seed: 7)
        var left = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) - disparity(x, y)
                let x0 = Int(u.rounded(.down)), f = Float(u - Double(x0))
                let a = t[y * width + min(max(x0, 0), width - 1)], b = t[y * width + min(max(x0 + 1, 0), width - 1)]
                left[y * width + x] = UInt8(min(max((a * (1 - f) + b * f).rounded(), 0), 255))
            }
        }
        let right = t.map { UInt8(min(max($0.rounded(), 0), 255)) }
        return (ImageBuffer(width: width, height: height, samples: left), ImageBuffer(width: width, height: height, samples: right))
    }

    /// The vectorized transform against its definition, pixel by pixel, on a random image whose
    /// width is no multiple of the 16 pixels done at once, and two windows.
    @Test(arguments: [(9, 7), (5, 5), (3, 1)])
    func censusMatchesItsDefinition(window: (Int, Int)) {
        let w = 37, h = 11
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let samples = (0..<(w * h)).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(state % 8 * 32)
        }
        let census = CensusTransform.transform(ImageBuffer(width: w, height: h, samples: samples), windowWidth: window.0, windowHeight: window.1)
        #expect(census.count == w * h)
        let rx = window.0 / 2, ry = window.1 / 2
        var mismatches = 0
        for y in 0..<h {
            for x in 0..<w {
                let centre = samples[y * w + x]
                var expected: UInt64 = 0, k = 0
                let count = window.0 * window.1 - 1
                for wy in -ry...ry {
                    for wx in -rx...rx where wy != 0 || wx != 0 {
                        let v = samples[min(max(y + wy, 0), h - 1) * w + min(max(x + wx, 0), w - 1)]
                        // Byte k / 8, the first of its neighbours the most significant used bit.
                        let inByte = min(8, count - k / 8 * 8)
                        if v < centre { expected |= 1 << UInt64(k / 8 * 8 + inByte - 1 - k % 8) }
                        k += 1
                    }
                }
                if census[y * w + x] != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func censusBitsSayWhichNeighboursAreDarker() {
        // A 3 × 3 image: the centre (5) is brighter than 1…4 and darker than 6…9.
        let image = ImageBuffer<UInt8>(width: 3, height: 3, samples: [1, 2, 3, 4, 5, 6, 7, 8, 9])
        let census = CensusTransform.transform(image, windowWidth: 3, windowHeight: 3)
        #expect(census[4] == 0b1111_0000)
        // The corner pixel (1) has no darker neighbour, even among the border's stand-ins.
        #expect(census[0] == 0)
    }

    /// A color pair is matched as its luma (BT.601): the same bits as the gray pair of that
    /// luma. The red channel here is flat, so matching any single channel would not do.
    @Test func colorIsMatchedAsItsLuma() throws {
        let (left, right) = Self.pair(width: 96, height: 48) { x, _ in x < 48 ? 8 : 14.5 }
        // R = 0, G = B = v: luma (150 v + 29 v + 128) / 256.
        func color(_ gray: ImageBuffer<UInt8>) -> ImageBuffer<UInt8> {
            ImageBuffer(width: gray.width, height: gray.height, channels: 3, samples: gray.samples.flatMap { [0, $0, $0] })
        }
        func luma(_ gray: ImageBuffer<UInt8>) -> ImageBuffer<UInt8> {
            ImageBuffer(width: gray.width, height: gray.height, samples: gray.samples.map { UInt8((179 * UInt32($0) + 128) >> 8) })
        }
        var options = SemiGlobalMatching.Options()
        options.disparities = 24
        let matcher = SemiGlobalMatching(options: options)
        let fromLuma = try matcher.disparity(left: luma(left), right: luma(right))
        let fromColor = try matcher.disparity(left: color(left), right: color(right))
        #expect(fromLuma.samples.map(\.bitPattern) == fromColor.samples.map(\.bitPattern))
        #expect(fromColor.samples.filter { !$0.isNaN }.count > 96 * 48 / 2)
    }

    /// Two threads (the sweeps at once) give the same bits as one, for 8 and 4 paths.
    @Test(arguments: [8, 4])
    func twoThreadsMatchOneBitForBit(paths: Int) throws {
        func truth(_ x: Int, _ y: Int) -> Double { (50..<90).contains(x) && (20..<60).contains(y) ? 21.5 : 9.25 }
        let (left, right) = Self.pair(width: 120, height: 80, disparity: truth)
        var options = SemiGlobalMatching.Options()
        options.disparities = 30
        options.paths = paths
        let one = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        options.threads = 2
        let two = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        #expect(one.samples.map(\.bitPattern) == two.samples.map(\.bitPattern))
        #expect(one.samples.filter { !$0.isNaN }.count > 120 * 80 / 2)
        options.threads = 3
        #expect(throws: SemiGlobalMatching.MatchingError.badOption("threads must be 1 or 2, not 3")) {
            try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        }
    }

    /// Path costs in bytes (where they fit) and in 16 bits give the same bits, also when the
    /// disparities do not fill whole SIMD groups (the padded lanes) and on two threads.
    @Test(arguments: [(8, 64), (8, 36), (4, 20), (8, 9)])
    func byteAndWordPathCostsMatchBitForBit(paths: Int, disparities: Int) throws {
        func truth(_ x: Int, _ y: Int) -> Double { (40..<80).contains(x) && (20..<60).contains(y) ? Double(disparities) * 0.8 : Double(disparities) * 0.3 }
        let (left, right) = Self.pair(width: 120, height: 80, disparity: truth)
        var options = SemiGlobalMatching.Options()
        options.disparities = disparities
        options.paths = paths
        let bytes = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        options.byteLanesWhereTheyFit = false
        let words = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        options.threads = 2
        let wordsOnTwoThreads = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        #expect(bytes.samples.map(\.bitPattern) == words.samples.map(\.bitPattern))
        #expect(words.samples.map(\.bitPattern) == wordsOnTwoThreads.samples.map(\.bitPattern))
        // Not vacuous: most pixels have a disparity, most near the truth.
        let near = (0..<(120 * 80)).filter { i in abs(Double(bytes.samples[i]) - truth(i % 120, i / 120)) < 1 }.count
        #expect(near > 120 * 80 / 2)
    }

    /// The census costs and byte-lane sweeps in C (CKernels) give the same bits as the Swift
    /// loops they replaced, in every variant the processor has (portable, AVX2, AVX-512), for
    /// depths that fill the widest lanes, leave 32- and 16-lane tails, or pad beyond the searched
    /// disparities; 4 and 8 paths; one and two threads.
    @Test(arguments: [(8, 64), (8, 36), (4, 20), (8, 9), (8, 100), (4, 112), (8, 1)])
    func cKernelsMatchTheSwiftLoopsBitForBit(paths: Int, disparities: Int) throws {
        func truth(_ x: Int, _ y: Int) -> Double { (60..<110).contains(x) && (15..<45).contains(y) ? Double(disparities) * 0.7 : Double(disparities) * 0.25 }
        let (left, right) = Self.pair(width: 150, height: 60, disparity: truth)
        var options = SemiGlobalMatching.Options()
        options.disparities = disparities
        options.paths = paths
        options.cKernels = false
        let swift = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        options.cKernels = true
        for level: Int32 in [0, 1, 2] {
            options.kernelLevel = level
            for threads in [1, 2] {
                options.threads = threads
                let c = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
                #expect(c.samples.map(\.bitPattern) == swift.samples.map(\.bitPattern), "level \(level), \(threads) threads")
            }
        }
        // Not vacuous: most pixels have a disparity (but one searched disparity decides nothing).
        if disparities > 1 {
            #expect(swift.samples.filter { !$0.isNaN }.count > 150 * 60 / 2)
        }
    }

    @Test func recoversAForegroundSquareOverABackgroundPlane() throws {
        // Background 12 px, a 40 × 40 square in front at 28 px.
        let w = 160, h = 100
        func truth(_ x: Int, _ y: Int) -> Double { (60..<100).contains(x) && (30..<70).contains(y) ? 28 : 12 }
        let (left, right) = Self.pair(width: w, height: h, disparity: truth)
        var options = SemiGlobalMatching.Options()
        options.disparities = 40
        let disparity = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        var good = 0, valid = 0, counted = 0
        for y in 5..<(h - 5) {
            for x in 40..<(w - 5) {
                counted += 1
                let d = disparity[x, y]
                guard !d.isNaN else { continue }
                valid += 1
                if abs(Double(d) - truth(x, y)) <= 1 { good += 1 }
            }
        }
        #expect(Double(valid) > 0.9 * Double(counted), "\(valid) of \(counted) valid")
        #expect(Double(good) > 0.97 * Double(valid), "\(good) of \(valid) within 1 px")
        // The square's centre and the background are exact.
        #expect(abs(disparity[80, 50] - 28) < 0.25)
        #expect(abs(disparity[130, 20] - 12) < 0.25)
    }

    @Test func refinesFractionalDisparitiesBelowAPixel() throws {
        let w = 120, h = 60
        let (left, right) = Self.pair(width: w, height: h) { x, _ in 10.5 + Double(x) / 60 }
        var options = SemiGlobalMatching.Options()
        options.disparities = 24
        let disparity = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        var errors: [Double] = []
        for y in 5..<(h - 5) { for x in 30..<(w - 5) where !disparity[x, y].isNaN { errors.append(abs(Double(disparity[x, y]) - (10.5 + Double(x) / 60))) } }
        errors.sort()
        #expect(errors.count > 1500)
        #expect(errors[errors.count / 2] < 0.2, "median error \(errors[errors.count / 2]) px")
    }

    @Test func matchesTheLeftBandWhereTheRightImageStillSeesIt() throws {
        // OpenCV leaves x < disparities empty; here pixels with x ≥ d (8 px) still match.
        let w = 100, h = 40
        let (left, right) = Self.pair(width: w, height: h) { _, _ in 8 }
        var options = SemiGlobalMatching.Options()
        options.disparities = 48
        let disparity = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
        var band = 0
        for y in 5..<(h - 5) { for x in 12..<48 where abs(disparity[x, y] - 8) < 0.5 { band += 1 } }
        #expect(band > 36 * 30 * 9 / 10, "\(band) band pixels matched")
    }

    @Test func fourPathsAndEightPathsBothRecoverAPlane() throws {
        let (left, right) = Self.pair(width: 80, height: 40) { _, _ in 6 }
        var options = SemiGlobalMatching.Options()
        options.disparities = 16
        for paths in [4, 8] {
            options.paths = paths
            let disparity = try SemiGlobalMatching(options: options).disparity(left: left, right: right)
            var good = 0
            for y in 4..<36 { for x in 16..<76 where abs(disparity[x, y] - 6) < 0.25 { good += 1 } }
            #expect(good > 32 * 60 * 95 / 100, "\(paths) paths: \(good) of \(32 * 60) within 0.25 px")
        }
    }

    @Test func refusesPairsAndOptionsItCannotMatch() {
        let a = ImageBuffer<UInt8>(width: 10, height: 8, repeating: 0), b = ImageBuffer<UInt8>(width: 11, height: 8, repeating: 0)
        #expect(throws: SemiGlobalMatching.MatchingError.sizeMismatch(left: [10, 8], right: [11, 8])) {
            _ = try SemiGlobalMatching().disparity(left: a, right: b)
        }
        var options = SemiGlobalMatching.Options()
        options.paths = 5
        #expect(throws: SemiGlobalMatching.MatchingError.self) { _ = try SemiGlobalMatching(options: options).disparity(left: a, right: a) }
        options = SemiGlobalMatching.Options()
        options.p2 = options.p1
        #expect(throws: SemiGlobalMatching.MatchingError.self) { _ = try SemiGlobalMatching(options: options).disparity(left: a, right: a) }
        options = SemiGlobalMatching.Options()
        options.censusWidth = 8
        #expect(throws: SemiGlobalMatching.MatchingError.self) { _ = try SemiGlobalMatching(options: options).disparity(left: a, right: a) }
    }

    @Test func speckleFilterRemovesSmallPatchesOnly() {
        // A 6 × 6 image at 10 px with a 2 × 2 patch at 30 px: the patch goes, the rest stays.
        var values = [Float](repeating: 10, count: 36)
        for p in [14, 15, 20, 21] { values[p] = 30 }
        var image = ImageBuffer(width: 6, height: 6, samples: values)
        SpeckleFilter.apply(&image, maxSize: 5, maxStep: 2)
        #expect(image.samples.filter(\.isNaN).count == 4)
        #expect(image[0, 0] == 10)
    }
}
