import CFeatureKernels
import Foundation
import ParallaxImage
import ParallaxMath

/// An oriented corner with its binary descriptor (one ORB feature).
public struct ORBFeature: Sendable, Equatable {
    /// Position in the full-resolution image (px, pixel centres at integers).
    public var pixel: Vector2
    /// Pyramid level it was found on (0 = full resolution).
    public var level: Int
    /// How much smaller its level is than full resolution (`scaleFactor^level`).
    public var scale: Float
    /// Orientation of the intensity centroid (radians, from +x toward +y).
    public var angle: Float
    /// Harris corner response on its level (for ranking only; unitless).
    public var response: Float
    public var descriptor: BinaryDescriptor
}

/// ORB features (Rublee et al. 2011): FAST-9 corners on a scale pyramid, ranked by the Harris
/// response, oriented by the intensity centroid, described by a steered BRIEF test pattern
/// (``BRIEFPattern``) on a Gaussian-smoothed level. Scale and rotation invariant, so it matches
/// across zoom and in-plane rotation where a KLT tracker cannot (wide-baseline pairs,
/// relocalization, loop closure).
///
/// Deterministic: ties are broken by position, no threads, no randomness at run time.
public struct ORBExtractor: Sendable {
    /// Features to keep over all levels; default 1000.
    public var maxFeatures = 1000
    /// Pyramid levels (1 = full resolution only); default 8.
    public var levels = 8
    /// Size ratio between consecutive levels (> 1); default 1.2.
    public var scaleFactor: Float = 1.2
    /// FAST intensity threshold (gray levels, 0…255); default 20.
    public var fastThreshold: Float = 20
    /// Pixels of each level closer than this to its border are not used (px); default 20, and
    /// never less: the rotated pattern (≤ 19 px after rounding), the orientation patch (15 px)
    /// and the Harris window (4 px) must fit.
    public var border = 20

    /// ``border``, raised to the 20 px the sampling needs.
    var margin: Int { max(border, 20) }

    public init() {}

    /// Radius of the orientation patch (px, ORB's patch size 31).
    static let orientationRadius = 15

    /// How far from its corner a steered BRIEF sample can land, in x and in y (px): the pattern's
    /// radius rounded up, plus one.
    static let describeReach = Int(BRIEFPattern.radius.rounded(.up)) + 1

    /// The features of `image`, strongest first within each level, levels in order.
    public func extract(_ image: GrayImage) -> [ORBFeature] {
        let levelImages = pyramid(image)
        let quotas = featureQuotas(levels: levelImages.count)
        var features: [ORBFeature] = []
        var carry = 0
        // One buffer for every level's smoothed tiles (level 0 is the largest), never cleared:
        // each level writes the tiles its descriptors read, and the descriptors read no other.
        let smoothed = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, image.width * image.height))
        defer { smoothed.deallocate() }
        for (level, levelImage) in levelImages.enumerated() {
            let wanted = quotas[level] + carry
            let corners = strongestCorners(levelImage, count: wanted)
            carry = wanted - corners.count
            guard !corners.isEmpty else { continue }
            // Smoothed only where the descriptors sample (about a fifth of each level): the same
            // values there as the full blur.
            levelImage.gaussianBlurred(sigma: 2, radius: 3, near: corners.map { (x: $0.x, y: $0.y) }, reach: Self.describeReach, into: smoothed)
            let sx = Double(image.width) / Double(levelImage.width), sy = Double(image.height) / Double(levelImage.height)
            let angles = Self.orientations(levelImage, at: corners.map { $0.y * levelImage.width + $0.x })
            for (corner, angle) in zip(corners, angles) {
                let descriptor = Self.describe(UnsafeBufferPointer(smoothed), width: levelImage.width, height: levelImage.height,
                                               x: corner.x, y: corner.y, angle: angle, pattern: .standard)
                features.append(ORBFeature(pixel: Vector2((Double(corner.x) + 0.5) * sx - 0.5, (Double(corner.y) + 0.5) * sy - 0.5),
                                           level: level, scale: Float(sx), angle: angle, response: corner.response,
                                           descriptor: descriptor))
            }
        }
        return features
    }

    /// Level 0 is `image`; each next level is the previous one shrunk by `scaleFactor`
    /// (bilinear); stops before a level would be too small to hold a feature.
    func pyramid(_ image: GrayImage) -> [GrayImage] {
        var result = [image]
        let minimumSide = 2 * margin + 8
        for level in 1..<max(1, levels) {
            let s = pow(Double(scaleFactor), Double(level))
            let w = Int((Double(image.width) / s).rounded()), h = Int((Double(image.height) / s).rounded())
            guard w >= minimumSide, h >= minimumSide else { break }
            result.append(result[level - 1].resized(width: w, height: h))
        }
        return result
    }

    /// Features per level in proportion to level area's square root (a geometric series with
    /// ratio `1/scaleFactor`, as OpenCV's ORB), summing to `maxFeatures`.
    func featureQuotas(levels n: Int) -> [Int] {
        let factor = 1 / Double(scaleFactor)
        let first = Double(maxFeatures) * (1 - factor) / (1 - pow(factor, Double(n)))
        var quotas = (0..<n).map { Int((first * pow(factor, Double($0))).rounded()) }
        quotas[n - 1] = max(0, maxFeatures - quotas.dropLast().reduce(0, +))
        return quotas
    }

    struct Corner { var x: Int, y: Int, response: Float }

    /// FAST corners after 3×3 non-maximum suppression, twice `count` by FAST score, then the
    /// best `count` by Harris response (7×7 Sobel window, k = 0.04).
    func strongestCorners(_ image: GrayImage, count: Int) -> [Corner] {
        guard count > 0 else { return [] }
        let border = margin
        let w = image.width, h = image.height
        // FAST scores and 3×3 non-maximum suppression in CFeatureKernels, row by row (an exact
        // 8-bit prefilter, then the float segment test where it passed; the suppression visits
        // only the pixels with a positive score): strictly greater than the neighbours before it
        // in raster order, at least equal to the ones after, so exactly one survivor on a plateau;
        // raster order kept.
        // At most one survivor per 2×2 block (a survivor's right, lower and lower-right
        // neighbours cannot survive), so a quarter of the interior, rounded up per side, holds
        // them all; the buffers are written before they are read (scratch: three rows of scores
        // and of their columns, and the level's 8-bit copy).
        let capacity = ((max(0, w - 2 * border) + 1) / 2) * ((max(0, h - 2 * border) + 1) / 2)
        var indices = [Int64](unsafeUninitializedCapacity: capacity) { _, n in n = capacity }
        var values = [Float](unsafeUninitializedCapacity: capacity) { _, n in n = capacity }
        var rows = [Float](unsafeUninitializedCapacity: 3 * w) { _, n in n = 3 * w }
        var columns = [Int32](unsafeUninitializedCapacity: 3 * w) { _, n in n = 3 * w }
        var bytes = [Int8](unsafeUninitializedCapacity: w * h) { _, n in n = w * h }
        let offsets = FASTDetector.circle.map { $0.1 * w + $0.0 }
        let found = image.pixels.withUnsafeBufferPointer { p in
            rows.withUnsafeMutableBufferPointer { r in
                columns.withUnsafeMutableBufferPointer { c in
                    bytes.withUnsafeMutableBufferPointer { q in
                        indices.withUnsafeMutableBufferPointer { ip in
                            values.withUnsafeMutableBufferPointer { vp in
                                guard let pb = p.baseAddress, let rb = r.baseAddress, let cb = c.baseAddress, let qb = q.baseAddress,
                                      let ib = ip.baseAddress, let vb = vp.baseAddress else { return 0 }
                                return pxl_fast_nms(pb, w, h, border, fastThreshold, offsets, border, rb, cb, qb, ib, vb, capacity)
                            }
                        }
                    }
                }
            }
        }
        let n = min(found, capacity)
        // Strongest first, ties by raster index: one UInt64 key per candidate (the score's bits
        // inverted — positive floats order as their bit patterns — above the index), sorted without
        // a closure; the same order as sorting (score descending, index ascending).
        var candidates: [(index: Int, score: Float)]
        if w * h <= Int(UInt32.max) {
            var keys = [UInt64](unsafeUninitializedCapacity: n) { k, initialized in
                for i in 0..<n { k[i] = UInt64(UInt32.max - values[i].bitPattern) << 32 | UInt64(indices[i]) }
                initialized = n
            }
            // Only the 2·count first are needed: select them, then sort those (keys are distinct).
            keys.withUnsafeMutableBufferPointer { k in
                if let base = k.baseAddress { pxl_sort_smallest(base, n, min(n, 2 * count)) }
            }
            candidates = keys.prefix(2 * count).map { k in (Int(k & 0xffff_ffff), Float(bitPattern: UInt32.max - UInt32(k >> 32))) }
        } else {
            candidates = (0..<n).map { (Int(indices[$0]), values[$0]) }
            candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        }
        let responses = Self.harrisResponses(image, at: candidates.prefix(2 * count).map(\.index))
        var corners = zip(candidates.prefix(2 * count), responses).map { c, response in
            Corner(x: c.index % w, y: c.index / w, response: response)
        }
        corners.sort { $0.response != $1.response ? $0.response > $1.response : ($0.y, $0.x) < ($1.y, $1.x) }
        return Array(corners.prefix(count))
    }

    /// Harris response `det(M) − 0.04·trace(M)²` of the 7×7 structure tensor of Sobel
    /// gradients around `(x, y)` (needs 4 px of margin).
    static func harrisResponse(_ image: GrayImage, x: Int, y: Int) -> Float {
        harrisResponses(image, at: [y * image.width + x])[0]
    }

    /// Harris responses around `centres` (pixel indices, 4 px from the edges). The tensor sums
    /// run in CFeatureKernels, eight windows at a time (one per AVX2 lane, each summed in the
    /// order of one window alone: rows outer, `a += dx²`, `b += dy²`, `c += dx·dy`).
    static func harrisResponses(_ image: GrayImage, at centres: [Int]) -> [Float] {
        let n = centres.count
        guard n > 0 else { return [] }
        var a = [Float](repeating: 0, count: n), b = a, c = a
        let starts = centres.map { Int64($0) }
        image.pixels.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            pxl_harris_sums(base, image.width, p.count, starts, n, &a, &b, &c)
        }
        // Scale as OpenCV (1 / (4 · 7 · 255))² per gradient product, so responses are comparable
        // to its ORB's; ranking is unaffected.
        let scale: Float = 1 / (4 * 7 * 255)
        return (0..<n).map { k in
            var sa = a[k], sb = b[k], sc = c[k]
            sa *= scale * scale; sb *= scale * scale; sc *= scale * scale
            return sa * sb - sc * sc - 0.04 * (sa + sb) * (sa + sb)
        }
    }

    /// Row half-widths of the circular orientation patch: `|dx| ≤ halfWidth[|dy|]`.
    static let patchHalfWidths: [Int] = (0...orientationRadius).map { dy in
        Int((Double(orientationRadius * orientationRadius - dy * dy)).squareRoot())
    }

    /// Angle of the intensity centroid of the circular patch around `(x, y)` (radians).
    static func orientation(_ image: GrayImage, x: Int, y: Int) -> Float {
        orientations(image, at: [y * image.width + x])[0]
    }

    /// Angles of the intensity centroids of the circular patches around `centres` (pixel
    /// indices, each at least ``orientationRadius`` from the image's edges) (radians). The
    /// moments are summed in CFeatureKernels, eight patches at a time (one per AVX2 lane, each
    /// in the same order as one patch alone: row by row, `m10 += dx·v`, `m01 += dy·rowSum`).
    static func orientations(_ image: GrayImage, at centres: [Int]) -> [Float] {
        let n = centres.count
        guard n > 0 else { return [] }
        // The C loop reads the whole patch unchecked: every centre must leave it inside.
        let w = image.width, r = orientationRadius
        precondition(centres.allSatisfy { $0 % w >= r && $0 % w < w - r && $0 / w >= r && $0 / w < image.height - r },
                     "ORBExtractor.orientations: a patch centre closer than \(r) px to the border")
        var m10 = [Float](repeating: 0, count: n), m01 = m10
        let starts = centres.map { Int64($0) }
        image.pixels.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            pxl_patch_moments(base, image.width, p.count, starts, n, orientationRadius, patchHalfWidths, &m10, &m01)
        }
        return (0..<n).map { atan2f(m01[$0], m10[$0]) }
    }

    /// The steered BRIEF descriptor: pattern rotated by `angle`, nearest-pixel samples of the
    /// smoothed level, bit set where the first point is darker than the second.
    static func describe(_ smoothed: GrayImage, x: Int, y: Int, angle: Float, pattern: BRIEFPattern) -> BinaryDescriptor {
        smoothed.pixels.withUnsafeBufferPointer { describe($0, width: smoothed.width, height: smoothed.height, x: x, y: y, angle: angle, pattern: pattern) }
    }

    /// ``describe(_:x:y:angle:pattern:)`` on a smoothed level given as `width × height` floats
    /// (row stride `width`, at least that many); only pixels within ``describeReach`` of `(x, y)`
    /// are read.
    static func describe(_ smoothed: UnsafeBufferPointer<Float>, width w: Int, height: Int, x: Int, y: Int, angle: Float,
                         pattern: BRIEFPattern) -> BinaryDescriptor {
        let c = cosf(angle), s = sinf(angle)
        // The C loop samples the rotated pattern unchecked: it must stay inside the image.
        let reach = describeReach
        precondition(smoothed.count >= w * height, "ORBExtractor.describe: \(smoothed.count) floats hold no \(w)×\(height) level")
        precondition(x >= reach && y >= reach && x < w - reach && y < height - reach,
                     "ORBExtractor.describe: (\(x), \(y)) is closer than \(reach) px to the border")
        var descriptor = BinaryDescriptor()
        // In CFeatureKernels: eight pairs at a time (AVX2: rotation, rounding to nearest-even
        // and a gather of the samples), the same arithmetic per point as
        // `Int((c·x − s·y).rounded(.toNearestOrEven))`.
        pattern.coordinates.withUnsafeBufferPointer { q in
            guard let base = smoothed.baseAddress, let pq = q.baseAddress else { return }
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            withUnsafeMutablePointer(to: &words) { wp in
                wp.withMemoryRebound(to: UInt64.self, capacity: 4) { pxl_brief_describe(base + (y * w + x), w, c, s, pq, $0) }
            }
            descriptor.words = SIMD4(words.0, words.1, words.2, words.3)
        }
        return descriptor
    }
}
