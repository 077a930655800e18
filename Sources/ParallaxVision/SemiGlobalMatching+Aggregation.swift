import CKernels
import Dispatch
import ParallaxImage

extension SemiGlobalMatching {
    /// A path's direction: the neighbour it comes from, `(x + dx, y + dy)`.
    struct Direction { var dx: Int; var dy: Int }

    /// Where a sweep puts each pixel's sum over its paths.
    enum SweepOutput {
        /// At the pixel's place in a volume (`(y·w + x)·depth + d`).
        case volume(UnsafeMutablePointer<UInt16>)
        /// Added to `base` (the other sweep's volume) at the pixel's column of `row`, which is
        /// handed to `done(y, row)` when row `y` is complete.
        case rows(base: UnsafePointer<UInt16>, row: UnsafeMutablePointer<UInt16>, done: (Int, UnsafePointer<UInt16>) -> Void)
    }

    /// The costs summed over the paths in two sweeps, top-down (paths from the left and from
    /// above) and bottom-up (from the right and from below), each keeping one row per path, and
    /// the winners of each row as soon as its sums are complete.
    ///
    /// One thread: the top-down sweep writes the sums of its paths for every pixel; the
    /// bottom-up sweep adds its own into one row and chooses that row's winners at once (the
    /// sums are read back once, never written twice). Two threads: the sweeps run at once, each
    /// writing its own sums; the rows are then added and chosen in halves. Integers: the same
    /// disparities either way.
    /// `first` (and `second`, needed with two threads) hold `w·h·depth` sums each.
    func aggregateAndChoose(_ cost: UnsafePointer<UInt8>, gray: [UInt8], width w: Int, height h: Int, depth: Int,
                            first: UnsafeMutablePointer<UInt16>, second: UnsafeMutablePointer<UInt16>?) -> ImageBuffer<Float> {
        let down: [Direction] = options.paths == 8
            ? [Direction(dx: -1, dy: 0), Direction(dx: 0, dy: -1), Direction(dx: -1, dy: -1), Direction(dx: 1, dy: -1)]
            : [Direction(dx: -1, dy: 0), Direction(dx: 0, dy: -1)]
        let up = down.map { Direction(dx: -$0.dx, dy: -$0.dy) }
        // Path costs in bytes when they cannot exceed one (twice the disparities per operation).
        let narrow = options.byteLanesWhereTheyFit && options.censusWidth * options.censusHeight + options.p1 + options.p2 <= Int(UInt8.max)
        let penalties = largePenalties()
        var out = [Float](repeating: .nan, count: w * h)
        gray.withUnsafeBufferPointer { g in
            out.withUnsafeMutableBufferPointer { o in
                guard let g = g.baseAddress, let o = o.baseAddress else { return }
                guard options.threads > 1, let second else {
                    sweep(down, narrow: narrow, cost: cost, gray: g, penalties: penalties, into: .volume(first), width: w, height: h, depth: depth)
                    let chooser = RowWinners(matcher: self, width: w, depth: depth)
                    let row = UnsafeMutablePointer<UInt16>.allocate(capacity: w * depth)
                    defer { row.deallocate() }
                    sweep(up, narrow: narrow, cost: cost, gray: g, penalties: penalties,
                          into: .rows(base: first, row: row) { y, sums in chooser.choose(row: y, sums: sums, out: o + y * w) }, width: w, height: h, depth: depth)
                    return
                }
                // The sweeps read the shared costs and write disjoint sums; then each thread
                // adds and chooses half of the rows.
                let shared = SharedWithThreads((cost, g, first, second, o))
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    let (costs, grays, a, b, _) = shared.value
                    sweep(i == 0 ? down : up, narrow: narrow, cost: costs, gray: grays, penalties: penalties, into: .volume(i == 0 ? a : b),
                          width: w, height: h, depth: depth)
                }
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    let (_, _, a, b, outputs) = shared.value
                    let chooser = RowWinners(matcher: self, width: w, depth: depth)
                    let row = UnsafeMutablePointer<UInt16>.allocate(capacity: w * depth)
                    defer { row.deallocate() }
                    for y in i == 0 ? 0..<(h / 2) : (h / 2)..<h {
                        let pa = a + y * w * depth, pb = b + y * w * depth
                        var k = 0
                        while k < w * depth {
                            Self.store(Self.load(pa + k) &+ Self.load(pb + k), row + k)
                            k += Self.lanes
                        }
                        chooser.choose(row: y, sums: row, out: outputs + y * w)
                    }
                }
            }
        }
        return ImageBuffer(width: w, height: h, samples: out)
    }

    /// `P2` where the gray level changes by `|ΔI|` = 0…255 between neighbours.
    func largePenalties() -> [Int] {
        let largePenalty = options.p2, scale = options.p2IntensityScale
        return (0..<256).map { change in
            scale > 0 ? max(options.p1 + 1, largePenalty * scale / (scale + change)) : largePenalty
        }
    }

    /// ``sweep(_:lanes:cost:gray:penalties:into:width:height:depth:)`` on byte lanes (`narrow`:
    /// a path's cost never exceeds 255) or on 16-bit lanes.
    private func sweep(_ directions: [Direction], narrow: Bool, cost: UnsafePointer<UInt8>, gray: UnsafePointer<UInt8>, penalties: [Int],
                       into output: SweepOutput, width w: Int, height h: Int, depth: Int) {
        if narrow && options.cKernels {
            kernelSweep(directions, cost: cost, gray: gray, penalties: penalties, into: output, width: w, height: h, depth: depth)
        } else if narrow {
            sweep(directions, lanes: SIMD16<UInt8>.self, cost: cost, gray: gray, penalties: penalties, into: output, width: w, height: h, depth: depth)
        } else {
            sweep(directions, lanes: SIMD8<Int16>.self, cost: cost, gray: gray, penalties: penalties, into: output, width: w, height: h, depth: depth)
        }
    }

    /// ``sweep(_:lanes:cost:gray:penalties:into:width:height:depth:)`` on byte lanes in C
    /// (`parallax_sgm_sweep_row`, one row per call, vectorized over all of a pixel's disparities
    /// at the processor's widest lanes): the same costs, sums and minima, in the same order.
    private func kernelSweep(_ directions: [Direction], cost: UnsafePointer<UInt8>, gray: UnsafePointer<UInt8>, penalties: [Int],
                             into output: SweepOutput, width w: Int, height h: Int, depth: Int) {
        let count = directions.count
        // Each pixel's path costs between 16 bytes of 255 on either side (the C loop's layout).
        let stride = depth + 32
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * count * w * stride)
        rows.initialize(repeating: .max, count: 2 * count * w * stride)
        let minima = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * count * w)
        minima.initialize(repeating: 0, count: 2 * count * w)
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: stride)
        zeros.initialize(repeating: 0, count: stride)
        let large = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        large.initialize(from: penalties.map { UInt8(truncatingIfNeeded: $0) }, count: 256)
        let beyond = UnsafeMutablePointer<UInt8>.allocate(capacity: depth)
        for d in 0..<depth { (beyond + d).initialize(to: d < options.disparities ? 0 : .max) }
        defer { rows.deallocate(); minima.deallocate(); zeros.deallocate(); large.deallocate(); beyond.deallocate() }
        let d = directions.map { (Int32($0.dx), Int32($0.dy)) } + Array(repeating: (Int32(0), Int32(0)), count: 4 - count)
        var sweep = parallax_sgm_sweep(width: Int32(w), height: Int32(h), depth: Int32(depth), disparities: Int32(options.disparities),
                                       count: Int32(count), dx: (d[0].0, d[1].0, d[2].0, d[3].0), dy: (d[0].1, d[1].1, d[2].1, d[3].1),
                                       p1: UInt8(truncatingIfNeeded: options.p1), large: UnsafePointer(large), cost: cost, gray: gray,
                                       rows: rows, minima: minima, zeros: UnsafePointer(zeros), beyond: UnsafePointer(beyond))
        let forward = directions[0].dx < 0
        withUnsafePointer(to: &sweep) { s in
            for step in 0..<h {
                let y = forward ? step : h - 1 - step
                switch output {
                case let .volume(volume):
                    let sums = UnsafeMutableRawPointer(volume + y * w * depth).assumingMemoryBound(to: Int16.self)
                    parallax_sgm_sweep_row(s, Int32(y), Int32(step), forward ? 1 : 0, sums, nil, options.kernelLevel)
                case let .rows(base, row, done):
                    let sums = UnsafeMutableRawPointer(row).assumingMemoryBound(to: Int16.self)
                    let previous = UnsafeRawPointer(base + y * w * depth).assumingMemoryBound(to: Int16.self)
                    parallax_sgm_sweep_row(s, Int32(y), Int32(step), forward ? 1 : 0, sums, previous, options.kernelLevel)
                    done(y, UnsafePointer(row))
                }
            }
        }
    }

    /// One sweep over the image along `directions` (2 or 4, all pointing back or all forward in
    /// rows), each path's cost `L(p, d) = C(p, d) + min(L(q, d), L(q, d ± 1) + P1, min L(q) + P2) − min L(q)`
    /// from its previous pixel `q`, computed exactly in `Lanes` (`L − min L ≤ C + P2`, and
    /// `min L ≤ C`); `P2` from `penalties` (``largePenalties()``). Each pixel's sum over these
    /// paths goes to `output`.
    private func sweep<Lanes: PathCostLanes>(_ directions: [Direction], lanes: Lanes.Type, cost: UnsafePointer<UInt8>, gray: UnsafePointer<UInt8>,
                                             penalties: [Int], into output: SweepOutput, width w: Int, height h: Int, depth: Int) {
        typealias Scalar = Lanes.Scalar
        let forward = directions[0].dx < 0
        let width = Lanes.scalarCount
        // Each pixel's path costs sit between `pad` slots of `outside` on either side (so the
        // neighbours d − 1 and d + 1 of the first and last disparity can be loaded).
        let pad = width
        let stride = depth + 2 * pad
        let count = directions.count
        // Two rows (previous, current) per path, and the minimum of each pixel's path costs.
        let rows = UnsafeMutablePointer<Scalar>.allocate(capacity: 2 * count * w * stride)
        rows.initialize(repeating: Lanes.outside, count: 2 * count * w * stride)
        let minima = UnsafeMutablePointer<Lanes>.allocate(capacity: 2 * count * w)
        minima.initialize(repeating: Lanes.splat(0), count: 2 * count * w)
        // Where a path starts (its previous pixel is outside the image) it comes from zeros:
        // then L(p, d) = C(p, d).
        let zeros = UnsafeMutablePointer<Scalar>.allocate(capacity: stride)
        zeros.initialize(repeating: 0, count: stride)
        let large = UnsafeMutablePointer<Lanes>.allocate(capacity: 256)
        large.initialize(from: penalties.map { Lanes.splat(Scalar(truncatingIfNeeded: $0)) }, count: 256)
        defer { rows.deallocate(); minima.deallocate(); zeros.deallocate(); large.deallocate() }
        let p1 = Lanes.splat(Scalar(truncatingIfNeeded: options.p1))
        // The groups from `padFrom` on hold lanes beyond the searched disparities: `outside`
        // (none when the disparities fill whole groups).
        let padFrom = depth != options.disparities ? options.disparities / width * width : depth
        // Lane i of group d is beyond the searched disparities when laneIndex[i] + d ≥ 0.
        let laneIndex = SIMD16<Int16>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) &- Int16(options.disparities)
        // The sums as signed lanes (the same bits): written to the volume or the row, and the
        // base read when adding.
        let (sums, base, rowsOnly): (UnsafeMutablePointer<UInt16>, UnsafePointer<UInt16>?, Bool)
        switch output {
        case let .volume(volume): (sums, base, rowsOnly) = (volume, nil, false)
        case let .rows(b, row, _): (sums, base, rowsOnly) = (row, b, true)
        }
        let sumsOut = UnsafeMutableRawPointer(sums).assumingMemoryBound(to: Int16.self)
        let baseIn = base.map { UnsafeRawPointer($0).assumingMemoryBound(to: Int16.self) }
        for step in 0..<h {
            let y = forward ? step : h - 1 - step
            let current = step % 2, previous = 1 - current
            for xStep in 0..<w {
                let x = forward ? xStep : w - 1 - xStep
                let pixel = y * w + x
                let c = cost + pixel * depth
                let total = sumsOut + (rowsOnly ? x : pixel) * depth
                // Two paths at a time: each group of disparities is loaded once for both.
                var k = 0
                while k < count {
                    let (from0, base0, jump0) = Self.source(directions[k], x: x, y: y, current: current, previous: previous, path: k, count: count, rows: rows,
                                                           minima: minima, zeros: zeros, gray: gray, penalties: large, width: w, height: h, stride: stride, pad: pad)
                    let (from1, base1, jump1) = Self.source(directions[k + 1], x: x, y: y, current: current, previous: previous, path: k + 1, count: count, rows: rows,
                                                           minima: minima, zeros: zeros, gray: gray, penalties: large, width: w, height: h, stride: stride, pad: pad)
                    let out0 = rows + ((current * count + k) * w + x) * stride + pad
                    let out1 = rows + ((current * count + k + 1) * w + x) * stride + pad
                    let previousSums: UnsafePointer<Int16>? = k > 0 ? UnsafePointer(total) : baseIn.map { $0 + pixel * depth }
                    let (lowest0, lowest1) = Self.pair(cost: c, from: (from0, from1), to: (out0, out1), jump: (jump0, jump1), base: (base0, base1), smallPenalty: p1,
                                                       adding: previousSums, total: total, depth: depth, padFrom: padFrom, laneIndex: laneIndex)
                    minima[(current * count + k) * w + x] = Lanes.broadcastMinimum(lowest0)
                    minima[(current * count + k + 1) * w + x] = Lanes.broadcastMinimum(lowest1)
                    k += 2
                }
            }
            if case let .rows(_, row, done) = output { done(y, UnsafePointer(row)) }
        }
    }

    /// Two paths' costs at one pixel over all its disparities (`C` at `cost`, the previous
    /// pixels' costs at `from`, written to `to`), their sum added to `adding` (when given) into
    /// `total`; in the groups from `padFrom` on, lanes beyond the searched disparities set to `outside`.
    /// Returns each path's lowest lanes.
    @inline(__always) private static func pair<Lanes: PathCostLanes>(cost c: UnsafePointer<UInt8>, from: (UnsafePointer<Lanes.Scalar>, UnsafePointer<Lanes.Scalar>),
                                                                    to: (UnsafeMutablePointer<Lanes.Scalar>, UnsafeMutablePointer<Lanes.Scalar>),
                                                                    jump: (Lanes, Lanes), base: (Lanes, Lanes), smallPenalty p1: Lanes,
                                                                    adding previousSums: UnsafePointer<Int16>?, total: UnsafeMutablePointer<Int16>,
                                                                    depth: Int, padFrom: Int, laneIndex: SIMD16<Int16>) -> (Lanes, Lanes) {
        let (from0, from1) = from, (out0, out1) = to
        var lowest0 = Lanes.splat(Lanes.outside), lowest1 = lowest0
        var d = 0
        while d < depth {
            let here = Lanes.costs(at: c + d)
            var v0 = Lanes.cost(here, same: Lanes.load(from0 + d), below: Lanes.load(from0 + d - 1), above: Lanes.load(from0 + d + 1),
                                smallPenalty: p1, jump: jump.0, base: base.0)
            var v1 = Lanes.cost(here, same: Lanes.load(from1 + d), below: Lanes.load(from1 + d - 1), above: Lanes.load(from1 + d + 1),
                                smallPenalty: p1, jump: jump.1, base: base.1)
            if d >= padFrom {
                v0 = Lanes.outside(v0, beyond: laneIndex, at: d)
                v1 = Lanes.outside(v1, beyond: laneIndex, at: d)
            }
            Lanes.store(v0, out0 + d)
            Lanes.store(v1, out1 + d)
            lowest0 = Lanes.minimum(lowest0, v0)
            lowest1 = Lanes.minimum(lowest1, v1)
            Lanes.addSums(v0, v1, previous: previousSums.map { $0 + d }, into: total + d)
            d += Lanes.scalarCount
        }
        return (lowest0, lowest1)
    }

    /// Where path `path` at `(x, y)` comes from: its previous pixel's path costs, their minimum
    /// in every lane, and that minimum plus the `P2` of the gray step; zeros where the path starts.
    @inline(__always) private static func source<Lanes: PathCostLanes>(_ direction: Direction, x: Int, y: Int, current: Int, previous: Int, path k: Int, count: Int,
                                                                      rows: UnsafeMutablePointer<Lanes.Scalar>, minima: UnsafeMutablePointer<Lanes>,
                                                                      zeros: UnsafeMutablePointer<Lanes.Scalar>, gray: UnsafePointer<UInt8>,
                                                                      penalties large: UnsafePointer<Lanes>, width w: Int, height h: Int, stride: Int,
                                                                      pad: Int) -> (UnsafePointer<Lanes.Scalar>, Lanes, Lanes) {
        let nx = x + direction.dx, ny = y + direction.dy
        guard nx >= 0, nx < w, ny >= 0, ny < h else { return (UnsafePointer(zeros + pad), Lanes.splat(0), Lanes.splat(0)) }
        let row = ny == y ? current : previous
        let fromMin = minima[(row * count + k) * w + nx]
        let change = Int(gray[y * w + x]) - Int(gray[ny * w + nx])
        return (UnsafePointer(rows + ((row * count + k) * w + nx) * stride + pad), fromMin, Lanes.add(fromMin, large[change < 0 ? -change : change]))
    }

}

/// The lanes a sweep computes path costs in: 16 bytes (`pminub`; when a path's cost cannot
/// exceed 255) or 8 signed 16-bit values (`pminsw`). Either gives the same costs. Every
/// operation the sweep needs is a requirement, implemented on the concrete type: there the
/// standard library's operators are single instructions, where in generic code they would be
/// lane-by-lane loops.
protocol PathCostLanes: SIMD where Scalar: FixedWidthInteger {
    /// The cost of the padding around each pixel's disparities and of the lanes beyond the
    /// searched ones: above every real path cost (`C + P2`), and `+ P1` still fits.
    static var outside: Scalar { get }
    /// Every lane `value`.
    static func splat(_ value: Scalar) -> Self
    /// The matching costs of `scalarCount` consecutive disparities (one byte each).
    static func costs(at p: UnsafePointer<UInt8>) -> Self
    /// The lanes' minima.
    static func minimum(_ a: Self, _ b: Self) -> Self
    /// The lanes' sums and differences (wrapping).
    static func add(_ a: Self, _ b: Self) -> Self
    static func subtract(_ a: Self, _ b: Self) -> Self
    /// `v` (whose 32-bit words each hold one value in every lane) with the smallest lane of
    /// each word in all of that word's lanes: the last steps of ``broadcastMinimum(_:)``.
    static func minimumWithinWords(_ v: Self) -> Self
    /// `v` with ``outside`` in the lanes `i` of group `d` where `index[i] + d ≥ 0`.
    static func outside(_ v: Self, beyond index: SIMD16<Int16>, at d: Int) -> Self
    /// `total[i] = previous[i] + a[i] + b[i]` (or without `previous`) for the lanes, in 16 bits.
    static func addSums(_ a: Self, _ b: Self, previous: UnsafePointer<Int16>?, into total: UnsafeMutablePointer<Int16>)
}

extension PathCostLanes {
    @inline(__always) static func load(_ p: UnsafePointer<Scalar>) -> Self { UnsafeRawPointer(p).loadUnaligned(as: Self.self) }
    @inline(__always) static func store(_ v: Self, _ p: UnsafeMutablePointer<Scalar>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: Self.self) }

    /// `C + min(same, min(below, above) + P1, jump) − base`: a path's cost from its previous
    /// pixel's (`jump` = its minimum `base` + `P2`).
    @inline(__always) static func cost(_ c: Self, same: Self, below: Self, above: Self, smallPenalty: Self, jump: Self, base: Self) -> Self {
        subtract(add(c, minimum(minimum(same, add(minimum(below, above), smallPenalty)), jump)), base)
    }

    /// The smallest lane, in every lane: the minimum with the 64-bit halves swapped, then with
    /// the 32-bit words swapped (shuffles, not a lane-by-lane loop), then within the words.
    @inline(__always) static func broadcastMinimum(_ v: Self) -> Self {
        let quads = unsafeBitCast(v, to: SIMD2<UInt64>.self)
        let m = minimum(v, unsafeBitCast(SIMD2<UInt64>(quads[1], quads[0]), to: Self.self))
        let words = unsafeBitCast(m, to: SIMD4<UInt32>.self)
        return minimumWithinWords(minimum(m, unsafeBitCast(SIMD4<UInt32>(words[1], words[0], words[3], words[2]), to: Self.self)))
    }
}

extension SIMD16: PathCostLanes where Scalar == UInt8 {
    static var outside: UInt8 { .max }
    @inline(__always) static func splat(_ value: UInt8) -> Self { Self(repeating: value) }
    @inline(__always) static func costs(at p: UnsafePointer<UInt8>) -> Self { UnsafeRawPointer(p).loadUnaligned(as: Self.self) }
    @inline(__always) static func minimum(_ a: Self, _ b: Self) -> Self { a.replacing(with: b, where: b .< a) }
    @inline(__always) static func add(_ a: Self, _ b: Self) -> Self { a &+ b }
    @inline(__always) static func subtract(_ a: Self, _ b: Self) -> Self { a &- b }
    @inline(__always) static func minimumWithinWords(_ v: Self) -> Self {
        // With the 16-bit halves swapped, then the bytes within them.
        let halves = unsafeBitCast(v, to: SIMD8<UInt16>.self)
        let m = minimum(v, unsafeBitCast(SIMD8<UInt16>(halves[1], halves[0], halves[3], halves[2], halves[5], halves[4], halves[7], halves[6]), to: Self.self))
        let pairs = unsafeBitCast(m, to: SIMD8<UInt16>.self)
        return minimum(m, unsafeBitCast((pairs &<< 8) | (pairs &>> 8), to: Self.self))
    }
    @inline(__always) static func outside(_ v: Self, beyond index: SIMD16<Int16>, at d: Int) -> Self {
        v.replacing(with: .max, where: SIMDMask(SIMD16<Int8>(truncatingIfNeeded: SIMD16<Int16>(repeating: 0).replacing(with: -1, where: index &+ Int16(d) .>= 0))))
    }
    @inline(__always) static func addSums(_ a: Self, _ b: Self, previous: UnsafePointer<Int16>?, into total: UnsafeMutablePointer<Int16>) {
        var low = SIMD8<Int16>(truncatingIfNeeded: a.lowHalf) &+ SIMD8<Int16>(truncatingIfNeeded: b.lowHalf)
        var high = SIMD8<Int16>(truncatingIfNeeded: a.highHalf) &+ SIMD8<Int16>(truncatingIfNeeded: b.highHalf)
        if let previous {
            low &+= SemiGlobalMatching.load(previous)
            high &+= SemiGlobalMatching.load(previous + 8)
        }
        SemiGlobalMatching.store(low, total)
        SemiGlobalMatching.store(high, total + 8)
    }
}

extension SIMD8: PathCostLanes where Scalar == Int16 {
    static var outside: Int16 { 0x3FFF }
    @inline(__always) static func splat(_ value: Int16) -> Self { Self(repeating: value) }
    @inline(__always) static func costs(at p: UnsafePointer<UInt8>) -> Self {
        SIMD8<Int16>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
    }
    @inline(__always) static func minimum(_ a: Self, _ b: Self) -> Self { a.replacing(with: b, where: b .< a) }
    @inline(__always) static func add(_ a: Self, _ b: Self) -> Self { a &+ b }
    @inline(__always) static func subtract(_ a: Self, _ b: Self) -> Self { a &- b }
    @inline(__always) static func minimumWithinWords(_ v: Self) -> Self {
        // With the 16-bit halves swapped.
        let pairs = unsafeBitCast(v, to: SIMD4<UInt32>.self)
        return minimum(v, unsafeBitCast((pairs &<< 16) | (pairs &>> 16), to: Self.self))
    }
    @inline(__always) static func outside(_ v: Self, beyond index: SIMD16<Int16>, at d: Int) -> Self {
        v.replacing(with: 0x3FFF, where: index.lowHalf &+ Int16(d) .>= 0)
    }
    @inline(__always) static func addSums(_ a: Self, _ b: Self, previous: UnsafePointer<Int16>?, into total: UnsafeMutablePointer<Int16>) {
        let sum = a &+ b
        SemiGlobalMatching.store(previous.map { SemiGlobalMatching.load($0) &+ sum } ?? sum, total)
    }
}
