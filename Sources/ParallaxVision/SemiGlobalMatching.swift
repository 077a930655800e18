import Dispatch
import ParallaxImage

/// Semi-global matching (Hirschmüller 2008) of a rectified stereo pair: a disparity for each
/// pixel of the left image such that `left(x, y)` shows what `right(x − d, y)` shows.
///
/// The matching cost is the census distance (``CensusTransform``). It is aggregated along 4 or 8
/// straight paths through the image, each adding `P1` where the disparity changes by one pixel
/// between neighbours and `P2` where it jumps, with `P2` lowered where the image has an edge (depth
/// edges usually sit on intensity edges). The winner over the summed paths is kept when it is
/// unique (no other disparity more than 1 px away costs nearly as little), agrees with the
/// right image's own winner (left-right check), and belongs to a patch of similar disparities
/// larger than a speckle. A parabola through the costs around it gives the sub-pixel value.
///
/// Near the left border, where OpenCV's StereoSGBM returns nothing for `x < disparities`, the
/// search is limited to the disparities the right image still covers (`d ≤ x`).
///
/// Integer arithmetic throughout the cost and aggregation (8 disparities per SIMD operation), so
/// results are bit-identical on every run.
public struct SemiGlobalMatching: Sendable {
    /// How the pair is matched.
    public struct Options: Sendable, Equatable {
        /// Disparities searched: `0 ..< disparities` (px).
        public var disparities = 64
        /// Aggregation paths: 4 (left, right, up, down) or 8 (and the diagonals).
        public var paths = 8
        /// `P1`: cost of a ±1 px disparity change between neighbours (census bits).
        public var smallPenalty = 10
        /// `P2`: cost of a larger change where the image is flat (census bits).
        public var largePenalty = 120
        /// Where the gray level changes by `ΔI` between neighbours, `P2` becomes
        /// `P2 · s / (s + |ΔI|)` (never below `P1 + 1`) for this `s` (gray levels); 0: constant `P2`.
        public var penaltyIntensityScale = 16
        /// The winner's cost must be below every cost more than 1 px from it by this fraction.
        public var uniqueness = 0.1
        /// Largest difference (px) from the right image's own winner; negative: no left-right check.
        public var maxLeftRightDifference = 1
        /// Refine to sub-pixel with a parabola through the neighbouring costs.
        public var subpixel = true
        /// Patches of similar disparity smaller than this (pixels) are removed; 0: none.
        public var speckleWindow = 100
        /// Largest disparity step (px) between neighbours of one patch.
        public var speckleRange = 2.0
        /// Census window (odd sides, at most 64 pixels).
        public var censusWidth = 9
        public var censusHeight = 7
        /// Threads (1 or 2): with 2 the cost rows and the winner rows are split in halves and
        /// the two sweeps run at once, each into its own sums, added after (integers:
        /// bit-identical to one thread).
        public var threads = 1

        public init() {}
    }

    /// Why a pair cannot be matched.
    public enum MatchingError: Error, Equatable, CustomStringConvertible {
        case sizeMismatch(left: [Int], right: [Int])
        case badOption(String)
        case tooLarge(width: Int, height: Int, disparities: Int)

        public var description: String {
            switch self {
            case let .sizeMismatch(l, r): return "the stereo images differ in size: \(l[0])×\(l[1]) and \(r[0])×\(r[1])"
            case let .badOption(message): return message
            case let .tooLarge(w, h, d): return "a \(w)×\(h) pair with \(d) disparities needs more than \(SemiGlobalMatching.maxVolume) cost entries"
            }
        }
    }

    /// Largest cost volume (width × height × disparities) matched (2 bytes each, held twice: costs and sums; three times with two threads).
    public static let maxVolume = 1 << 30

    public var options: Options
    public init(options: Options = Options()) { self.options = options }

    /// The left image's disparity (px), NaN where none passed the checks. Both images are 8-bit,
    /// of one size; color is matched as its luma (``ImageBuffer/luma``).
    public func disparity(left color: ImageBuffer<UInt8>, right rightColor: ImageBuffer<UInt8>) throws -> ImageBuffer<Float> {
        let left = color.luma, right = rightColor.luma
        let w = left.width, h = left.height
        guard right.width == w, right.height == h else {
            throw MatchingError.sizeMismatch(left: [w, h], right: [right.width, right.height])
        }
        try checkOptions()
        let lanes = Self.lanes
        let depth = (options.disparities + lanes - 1) / lanes * lanes
        let (volume, overflow) = (w * h).multipliedReportingOverflow(by: depth)
        guard !overflow, volume <= Self.maxVolume else { throw MatchingError.tooLarge(width: w, height: h, disparities: options.disparities) }
        guard w > 0, h > 0 else { return ImageBuffer(width: w, height: h, repeating: .nan) }
        let cost = costVolume(left, right, depth: depth)
        let summed = aggregate(cost, gray: left.samples, width: w, height: h, depth: depth)
        var disparity = winners(summed, width: w, height: h, depth: depth)
        if options.speckleWindow > 0 {
            SpeckleFilter.apply(&disparity, maxSize: options.speckleWindow, maxStep: Float(options.speckleRange))
        }
        return disparity
    }

    private func checkOptions() throws {
        guard options.disparities >= 1, options.disparities <= 1024 else {
            throw MatchingError.badOption("disparities \(options.disparities) is out of range 1…1024")
        }
        guard options.threads == 1 || options.threads == 2 else { throw MatchingError.badOption("threads must be 1 or 2, not \(options.threads)") }
        guard options.paths == 4 || options.paths == 8 else { throw MatchingError.badOption("paths must be 4 or 8, not \(options.paths)") }
        guard options.smallPenalty >= 0, options.largePenalty > options.smallPenalty, options.largePenalty <= 4096 else {
            throw MatchingError.badOption("penalties need 0 ≤ P1 < P2 ≤ 4096 (P1 \(options.smallPenalty), P2 \(options.largePenalty))")
        }
        guard options.penaltyIntensityScale >= 0, options.uniqueness >= 0, options.uniqueness < 1, options.speckleWindow >= 0,
              options.speckleRange >= 0 else {
            throw MatchingError.badOption("penalty_intensity_scale, speckle_window and speckle_range must not be negative, uniqueness in [0, 1)")
        }
        guard options.censusWidth % 2 == 1, options.censusHeight % 2 == 1, options.censusWidth > 0, options.censusHeight > 0,
              options.censusWidth * options.censusHeight <= CensusTransform.maxBits else {
            throw MatchingError.badOption("the census window \(options.censusWidth)×\(options.censusHeight) needs odd sides and at most 64 pixels")
        }
    }

    /// Disparities handled per SIMD operation.
    static let lanes = 8
    typealias Lanes = SIMD8<UInt16>
    /// Cost where the right image has no pixel (`x − d < 0`) and in the padding around each
    /// pixel's disparities: above any aggregated cost, with room for the penalties.
    static let outside: UInt16 = 0x3FFF

    /// Census distances `cost[(y·w + x)·depth + d]` of left `(x, y)` and right `(x − d, y)`.
    func costVolume(_ left: ImageBuffer<UInt8>, _ right: ImageBuffer<UInt8>, depth: Int) -> [UInt16] {
        let w = left.width, h = left.height
        let l = CensusTransform.transform(left, windowWidth: options.censusWidth, windowHeight: options.censusHeight)
        // The right census with each row reversed, so the right pixels x − d, x − d − 1, … of
        // consecutive disparities are consecutive in memory.
        var reversed = CensusTransform.transform(right, windowWidth: options.censusWidth, windowHeight: options.censusHeight)
        for y in 0..<h { reversed[(y * w)..<((y + 1) * w)].reverse() }
        // Beyond the searched range (up to the SIMD width) nothing may win: the outside cost
        // (written below with the rest: the volume is not filled twice).
        var cost = [UInt16](unsafeUninitializedCapacity: w * h * depth) { _, count in count = w * h * depth }
        l.withUnsafeBufferPointer { lb in
            reversed.withUnsafeBufferPointer { rb in
                cost.withUnsafeMutableBufferPointer { cb in
                    guard let lp = lb.baseAddress, let rp = rb.baseAddress, let c = cb.baseAddress else { return }
                    // Rows are independent: with two threads each takes half of them.
                    nonisolated(unsafe) let (lp2, rp2, c2) = (lp, rp, c)
                    let halves = options.threads > 1 && h > 1 ? 2 : 1
                    DispatchQueue.concurrentPerform(iterations: halves) { half in
                        costRows(halves == 1 ? 0..<h : (half == 0 ? 0..<(h / 2) : (h / 2)..<h), left: lp2, reversedRight: rp2, cost: c2, width: w, depth: depth)
                    }
                }
            }
        }
        return cost
    }

    /// ``costVolume(_:_:depth:)`` for `rows`, from the left census and the reversed right one.
    private func costRows(_ rows: Range<Int>, left lp: UnsafePointer<UInt64>, reversedRight rp: UnsafePointer<UInt64>, cost c: UnsafeMutablePointer<UInt16>,
                          width w: Int, depth: Int) {
        let dCount = options.disparities
        let outsideCost = UInt16(options.censusWidth * options.censusHeight)
        let full = dCount / Self.lanes * Self.lanes
        for y in rows {
            let row = rp + y * w
            for x in 0..<w {
                let base = c + (y * w + x) * depth
                let cl = lp[y * w + x]
                // Right pixel x − d sits at reversed index w − 1 − x + d.
                let start = w - 1 - x
                var d = 0
                if x >= dCount - 1 {
                    let centre = SIMD8<UInt64>(repeating: cl)
                    while d < full {
                        let other = UnsafeRawPointer(row + start + d).loadUnaligned(as: SIMD8<UInt64>.self)
                        Self.store(SIMD8<UInt16>(truncatingIfNeeded: Self.bitCount(centre ^ other)), base + d)
                        d += Self.lanes
                    }
                }
                while d < dCount {
                    base[d] = x >= d ? UInt16((cl ^ row[start + d]).nonzeroBitCount) : outsideCost
                    d += 1
                }
                while d < depth {
                    base[d] = Self.outside
                    d += 1
                }
            }
        }
    }

    /// Set bits of each lane (SWAR: no POPCNT on the baseline x86-64 target).
    @inline(__always) static func bitCount(_ v: SIMD8<UInt64>) -> SIMD8<UInt64> {
        var x = v &- ((v &>> 1) & 0x5555_5555_5555_5555)
        x = (x & 0x3333_3333_3333_3333) &+ ((x &>> 2) & 0x3333_3333_3333_3333)
        x = (x &+ (x &>> 4)) & 0x0F0F_0F0F_0F0F_0F0F
        x = x &+ (x &>> 8)
        x = x &+ (x &>> 16)
        x = x &+ (x &>> 32)
        return x & 0x7F
    }

    /// A path's direction: the neighbour it comes from, `(x + dx, y + dy)`.
    struct Direction { var dx: Int; var dy: Int }

    /// The costs summed over the paths: two sweeps, top-down (paths from the left and from
    /// above) and bottom-up (from the right and from below), each keeping one row per path.
    func aggregate(_ cost: [UInt16], gray: [UInt8], width w: Int, height h: Int, depth: Int) -> [UInt16] {
        var summed = [UInt16](repeating: 0, count: w * h * depth)
        let down: [Direction] = options.paths == 8
            ? [Direction(dx: -1, dy: 0), Direction(dx: 0, dy: -1), Direction(dx: -1, dy: -1), Direction(dx: 1, dy: -1)]
            : [Direction(dx: -1, dy: 0), Direction(dx: 0, dy: -1)]
        let up = down.map { Direction(dx: -$0.dx, dy: -$0.dy) }
        let penalties = largePenalties()
        cost.withUnsafeBufferPointer { c in
            summed.withUnsafeMutableBufferPointer { s in
                gray.withUnsafeBufferPointer { g in
                    guard let c = c.baseAddress, let s = s.baseAddress, let g = g.baseAddress else { return }
                    guard options.threads > 1 else {
                        sweep(down, cost: c, gray: g, penalties: penalties, summed: s, width: w, height: h, depth: depth)
                        sweep(up, cost: c, gray: g, penalties: penalties, summed: s, width: w, height: h, depth: depth)
                        return
                    }
                    let second = UnsafeMutablePointer<UInt16>.allocate(capacity: w * h * depth)
                    defer { second.deallocate() }
                    second.initialize(repeating: 0, count: w * h * depth)
                    // The sweeps read the shared costs and write disjoint sums.
                    nonisolated(unsafe) let (costs, grays, first, other) = (c, g, s, second)
                    DispatchQueue.concurrentPerform(iterations: 2) { i in
                        sweep(i == 0 ? down : up, cost: costs, gray: grays, penalties: penalties, summed: i == 0 ? first : other, width: w, height: h, depth: depth)
                    }
                    var i = 0
                    let count = w * h * depth
                    while i < count {
                        Self.store(Self.load(s + i) &+ Self.load(second + i), s + i)
                        i += Self.lanes
                    }
                }
            }
        }
        return summed
    }

    /// Path costs in the sweeps: signed 16 bits, whose minimum is one SSE2 instruction (they
    /// stay below `outside + P2` < 2¹⁵; the sums over the paths are read as unsigned).
    typealias PathLanes = SIMD8<Int16>

    /// `P2` where the gray level changes by `|ΔI|` = 0…255 between neighbours.
    func largePenalties() -> [Int16] {
        let largePenalty = options.largePenalty, scale = options.penaltyIntensityScale
        return (0..<256).map { change in
            Int16(scale > 0 ? max(options.smallPenalty + 1, largePenalty * scale / (scale + change)) : largePenalty)
        }
    }

    /// One sweep over the image along `directions` (all pointing back, or all forward, in rows),
    /// adding each path's cost to `summed`; `penalties` from ``largePenalties()``.
    private func sweep(_ directions: [Direction], cost costValues: UnsafePointer<UInt16>, gray: UnsafePointer<UInt8>, penalties: [Int16],
                       summed summedValues: UnsafeMutablePointer<UInt16>,
                       width w: Int, height h: Int, depth: Int) {
        let forward = directions[0].dx < 0
        // Each pixel's path costs sit between `pad` slots of `outside` on either side (so the
        // neighbours d − 1 and d + 1 of the first and last disparity can be loaded).
        let pad = Self.lanes
        let stride = depth + 2 * pad
        let count = directions.count
        // The costs and sums as signed lanes (the same bits).
        let cost = UnsafeRawPointer(costValues).assumingMemoryBound(to: Int16.self)
        let summed = UnsafeMutableRawPointer(summedValues).assumingMemoryBound(to: Int16.self)
        // Two rows (previous, current) per path, and the minimum of each pixel's path costs.
        var rows = [Int16](repeating: Int16(Self.outside), count: 2 * count * w * stride)
        var minima = [Int16](repeating: 0, count: 2 * count * w)
        let p1 = PathLanes(repeating: Int16(options.smallPenalty))
        rows.withUnsafeMutableBufferPointer { rowBuffer in
            minima.withUnsafeMutableBufferPointer { minBuffer in
                penalties.withUnsafeBufferPointer { penaltyBuffer in
                    guard let rowBase = rowBuffer.baseAddress, let minBase = minBuffer.baseAddress, let large = penaltyBuffer.baseAddress else { return }
                    for step in 0..<h {
                        let y = forward ? step : h - 1 - step
                        let current = step % 2, previous = 1 - current
                        for xStep in 0..<w {
                            let x = forward ? xStep : w - 1 - xStep
                            let pixel = y * w + x
                            let c = cost + pixel * depth
                            let total = summed + pixel * depth
                            for k in 0..<count {
                                let direction = directions[k]
                                let nx = x + direction.dx, ny = y + direction.dy
                                let out = rowBase + ((current * count + k) * w + x) * stride + pad
                                var lowest = PathLanes(repeating: Int16(Self.outside))
                                if nx < 0 || nx >= w || ny < 0 || ny >= h {
                                    // The path starts here: its cost is the pixel's.
                                    var d = 0
                                    while d < depth {
                                        let v = Self.load(c + d)
                                        Self.store(v, out + d)
                                        Self.store(Self.load(total + d) &+ v, total + d)
                                        lowest = Self.minimum(lowest, v)
                                        d += Self.lanes
                                    }
                                } else {
                                    let row = ny == y ? current : previous
                                    let from = rowBase + ((row * count + k) * w + nx) * stride + pad
                                    let fromMin = minBase[(row * count + k) * w + nx]
                                    let change = Int(gray[pixel]) - Int(gray[ny * w + nx])
                                    let jump = PathLanes(repeating: fromMin &+ large[change < 0 ? -change : change])
                                    let base = PathLanes(repeating: fromMin)
                                    var d = 0
                                    while d < depth {
                                        let same = Self.load(from + d)
                                        let below = Self.load(from + d - 1) &+ p1
                                        let above = Self.load(from + d + 1) &+ p1
                                        let best = Self.minimum(Self.minimum(same, below), Self.minimum(above, jump))
                                        let v = Self.load(c + d) &+ best &- base
                                        Self.store(v, out + d)
                                        Self.store(Self.load(total + d) &+ v, total + d)
                                        lowest = Self.minimum(lowest, v)
                                        d += Self.lanes
                                    }
                                }
                                minBase[(current * count + k) * w + x] = lowest.min()
                            }
                        }
                    }
                }
            }
        }
    }

    /// The lanes' minima (`pminsw`), always inlined: the standard library's generic
    /// `pointwiseMin` is sometimes left as a call in the innermost loop.
    @inline(__always) static func minimum(_ a: PathLanes, _ b: PathLanes) -> PathLanes {
        a.replacing(with: b, where: b .< a)
    }

    /// Eight consecutive entries (16-bit costs or sums, signed or not), unaligned.
    @inline(__always) static func load<Scalar: SIMDScalar>(_ p: UnsafePointer<Scalar>) -> SIMD8<Scalar> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Scalar>.self)
    }
    @inline(__always) static func load<Scalar: SIMDScalar>(_ p: UnsafeMutablePointer<Scalar>) -> SIMD8<Scalar> {
        load(UnsafePointer(p))
    }
    @inline(__always) static func store<Scalar: SIMDScalar>(_ v: SIMD8<Scalar>, _ p: UnsafeMutablePointer<Scalar>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Scalar>.self)
    }

    /// Winner-take-all over the summed costs with the uniqueness, left-right and sub-pixel steps,
    /// 8 disparities per SIMD operation.
    func winners(_ summed: [UInt16], width w: Int, height h: Int, depth: Int) -> ImageBuffer<Float> {
        var out = [Float](repeating: .nan, count: w * h)
        summed.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                guard let s = s.baseAddress, let o = o.baseAddress else { return }
                guard options.threads > 1, h > 1 else { return winnerRows(0..<h, summed: s, out: o, width: w, depth: depth) }
                // Rows are independent: each thread takes half of them.
                nonisolated(unsafe) let (sums, outputs) = (s, o)
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    winnerRows(i == 0 ? 0..<(h / 2) : (h / 2)..<h, summed: sums, out: outputs, width: w, depth: depth)
                }
            }
        }
        return ImageBuffer(width: w, height: h, samples: out)
    }

    /// ``winners(_:width:height:depth:)`` for `rows`, written to `out` (NaN already where none).
    private func winnerRows(_ rows: Range<Int>, summed s: UnsafePointer<UInt16>, out: UnsafeMutablePointer<Float>, width w: Int, depth: Int) {
        let dCount = options.disparities
        // The uniqueness test in integers: cost·keep < best·100 means "nearly as good", that is
        // cost ≤ (best·100 − 1) / keep.
        let keep = Int((100 * (1 - options.uniqueness)).rounded())
        let laneIndex = Lanes(0, 1, 2, 3, 4, 5, 6, 7)
        let none = Lanes(repeating: .max)
        // The right image's own winners over the row, reversed as its census is (right pixel
        // x − d at w − 1 − x + d), so each left pixel's disparities update consecutive entries.
        var rightCost = [UInt16](repeating: .max, count: w + depth)
        var rightBest = [UInt16](repeating: .max, count: w + depth)
        var integer = [Int](repeating: -1, count: w)
        do {
            rightCost.withUnsafeMutableBufferPointer { rcBuffer in
                rightBest.withUnsafeMutableBufferPointer { rbBuffer in
                    guard let rc = rcBuffer.baseAddress, let rb = rbBuffer.baseAddress else { return }
                    for y in rows {
                        for i in 0..<(w + depth) { rc[i] = .max; rb[i] = .max }
                        for x in 0..<w {
                            integer[x] = -1
                            let base = s + (y * w + x) * depth
                            let limit = min(dCount, x + 1)
                            let limitLanes = Lanes(repeating: UInt16(limit))
                            let start = w - 1 - x
                            // The lowest cost, and the right image's winners.
                            var lowest = none
                            var d = 0
                            while d < limit {
                                let index = laneIndex &+ UInt16(d)
                                let v = Self.load(base + d).replacing(with: none, where: index .>= limitLanes)
                                lowest = pointwiseMin(lowest, v)
                                let r = Self.load(rc + start + d)
                                let better = v .< r
                                Self.store(pointwiseMin(r, v), rc + start + d)
                                Self.store(Self.load(rb + start + d).replacing(with: index, where: better), rb + start + d)
                                d += Self.lanes
                            }
                            let bestCost = Int(lowest.min())
                            // The first disparity at the lowest cost: its group, then its lane.
                            let bestLanes = Lanes(repeating: UInt16(bestCost))
                            var best = 0
                            while best < limit, !any(Self.load(base + best) .== bestLanes) { best += Self.lanes }
                            while best < limit, Int(base[best]) != bestCost { best += 1 }
                            // Unique: no cost more than 1 px away at or below the threshold.
                            if bestCost > 0 && keep > 0 {
                                let threshold = (bestCost * 100 - 1) / keep
                                if threshold >= 0 {
                                    let t = Lanes(repeating: UInt16(min(threshold, Int(UInt16.max) - 1)))
                                    var near = Lanes(repeating: 0)
                                    d = 0
                                    while d < limit {
                                        let index = laneIndex &+ UInt16(d)
                                        let v = Self.load(base + d).replacing(with: none, where: index .>= limitLanes)
                                        near = near &+ Lanes(repeating: 0).replacing(with: 1, where: v .<= t)
                                        d += Self.lanes
                                    }
                                    var count = Int(near.wrappedSum())
                                    for n in max(0, best - 1)...min(limit - 1, best + 1) where Int(base[n]) <= threshold { count -= 1 }
                                    if count > 0 { continue }
                                }
                            }
                            integer[x] = best
                            var value = Float(best)
                            if options.subpixel, best > 0, best < limit - 1 {
                                let a = Int(base[best - 1]), b = Int(base[best + 1])
                                let denominator = a + b - 2 * bestCost
                                if denominator > 0 { value += Float(a - b) / Float(2 * denominator) }
                            }
                            out[y * w + x] = value
                        }
                        guard options.maxLeftRightDifference >= 0 else { continue }
                        for x in 0..<w where integer[x] >= 0 {
                            let partner = rb[w - 1 - (x - integer[x])]
                            if partner != .max, abs(Int(partner) - integer[x]) > options.maxLeftRightDifference { out[y * w + x] = .nan }
                        }
                    }
                }
            }
        }
    }
}
