import CKernels

extension SemiGlobalMatching {
    /// Winner-take-all over one row of summed costs with the uniqueness, left-right and
    /// sub-pixel steps, 8 disparities per SIMD operation; its scratch rows kept between rows.
    final class RowWinners {
        let width: Int, depth: Int
        let options: Options
        /// The right image's own winners over the row (cost, disparity), reversed as its
        /// census is (right pixel x − d at w − 1 − x + d), so each left pixel's disparities
        /// update consecutive entries.
        private var rightCost: [Int16], rightBest: [Int16]
        /// Each left pixel's integer winner, −1 where none.
        private var integer: [Int]
        /// The same for the C loop (`parallax_sgm_row_winners`).
        private var integer32: [Int32]

        init(matcher: SemiGlobalMatching, width: Int, depth: Int) {
            self.width = width
            self.depth = depth
            options = matcher.options
            rightCost = [Int16](repeating: .max, count: width + depth)
            rightBest = [Int16](repeating: .max, count: width + depth)
            integer = [Int](repeating: -1, count: width)
            integer32 = [Int32](repeating: -1, count: options.cKernels ? width : 0)
        }

        /// The disparities of row `y` from its sums (`sums[x·depth + d]`, below 2¹⁵: see
        /// ``SemiGlobalMatching/maxLargePenalty``) into `out` (the row's `width` values, NaN
        /// already where none).
        func choose(row y: Int, sums: UnsafePointer<UInt16>, out: UnsafeMutablePointer<Float>) {
            let w = width, depth = depth, dCount = options.disparities
            let s = UnsafeRawPointer(sums).assumingMemoryBound(to: Int16.self)
            // The uniqueness test in integers: cost·keep < best·100 means "nearly as good", that is
            // cost ≤ (best·100 − 1) / keep.
            let keep = Int((100 * (1 - options.uniqueness)).rounded())
            if options.cKernels {
                rightCost.withUnsafeMutableBufferPointer { rc in
                    rightBest.withUnsafeMutableBufferPointer { rb in
                        integer32.withUnsafeMutableBufferPointer { integer in
                            guard let rc = rc.baseAddress, let rb = rb.baseAddress, let integer = integer.baseAddress else { return }
                            parallax_sgm_row_winners(s, Int32(w), Int32(depth), Int32(dCount), Int32(keep), Int32(max(-1, options.leftRightDifference)),
                                                     options.subpixel ? 1 : 0, rc, rb, integer, out, options.kernelLevel)
                        }
                    }
                }
                return
            }
            let laneIndex = SumLanes(0, 1, 2, 3, 4, 5, 6, 7)
            let none = SumLanes(repeating: .max)
            rightCost.withUnsafeMutableBufferPointer { rcBuffer in
                rightBest.withUnsafeMutableBufferPointer { rbBuffer in
                    integer.withUnsafeMutableBufferPointer { integer in
                        guard let rc = rcBuffer.baseAddress, let rb = rbBuffer.baseAddress else { return }
                        for i in 0..<(w + depth) { rc[i] = .max; rb[i] = .max }
                        for x in 0..<w {
                            integer[x] = -1
                            let base = s + x * depth
                            let limit = min(dCount, x + 1)
                            // Every lane is searched (no mask needed) once x ≥ depth − 1.
                            let whole = limit == depth
                            let limitLanes = SumLanes(repeating: Int16(limit))
                            let start = w - 1 - x
                            // The lowest cost, and the right image's winners.
                            var lowest = none
                            var index = laneIndex
                            var d = 0
                            while d < limit {
                                var v = SemiGlobalMatching.load(base + d)
                                if !whole { v.replace(with: none, where: index .>= limitLanes) }
                                lowest = SumLanes.minimum(lowest, v)
                                let r = SemiGlobalMatching.load(rc + start + d)
                                let better = v .< r
                                SemiGlobalMatching.store(r.replacing(with: v, where: better), rc + start + d)
                                SemiGlobalMatching.store(SemiGlobalMatching.load(rb + start + d).replacing(with: index, where: better), rb + start + d)
                                index &+= 8
                                d += SemiGlobalMatching.lanes
                            }
                            let bestCost = Int(lowest.min())
                            // The first disparity at the lowest cost: its group, then its lane.
                            let bestLanes = SumLanes(repeating: Int16(bestCost))
                            var best = 0
                            while best < limit, !any(SemiGlobalMatching.load(base + best) .== bestLanes) { best += SemiGlobalMatching.lanes }
                            while best < limit, Int(base[best]) != bestCost { best += 1 }
                            // Unique: no cost more than 1 px away at or below the threshold.
                            if bestCost > 0 && keep > 0 {
                                let threshold = (bestCost * 100 - 1) / keep
                                if threshold >= 0 {
                                    let t = SumLanes(repeating: Int16(min(threshold, Int(Int16.max) - 1)))
                                    // The lowest cost away from the winner's ±1 px.
                                    let low = SumLanes(repeating: Int16(best - 1)), high = SumLanes(repeating: Int16(best + 1))
                                    var away = none
                                    index = laneIndex
                                    d = 0
                                    while d < limit {
                                        var v = SemiGlobalMatching.load(base + d)
                                        if !whole { v.replace(with: none, where: index .>= limitLanes) }
                                        v.replace(with: none, where: (index .>= low) .& (index .<= high))
                                        away = SumLanes.minimum(away, v)
                                        index &+= 8
                                        d += SemiGlobalMatching.lanes
                                    }
                                    if any(away .<= t) { continue }
                                }
                            }
                            integer[x] = best
                            var value = Float(best)
                            if options.subpixel, best > 0, best < limit - 1 {
                                let a = Int(base[best - 1]), b = Int(base[best + 1])
                                let denominator = a + b - 2 * bestCost
                                if denominator > 0 { value += Float(a - b) / Float(2 * denominator) }
                            }
                            out[x] = value
                        }
                        guard options.leftRightDifference >= 0 else { return }
                        for x in 0..<w where integer[x] >= 0 {
                            let partner = rb[w - 1 - (x - integer[x])]
                            if partner != Int16.max, abs(Int(partner) - integer[x]) > options.leftRightDifference { out[x] = .nan }
                        }
                    }
                }
            }
        }
    }
}
