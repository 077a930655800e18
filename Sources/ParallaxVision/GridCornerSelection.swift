import ParallaxImage
import ParallaxMath

/// Picks the new corners a tracker adds to its live features, from a corner score image
/// (``ShiTomasiDetector/scores(_:)-(BorderedImage)``, ``FASTDetector/scores(_:)``): the cells of
/// a grid that hold no feature get their best corner first, so that the features cover the
/// whole image; the rest of the budget goes to the strongest corners anywhere. A corner is a 3×3
/// local maximum scoring at least `quality` × the image's best, and every pick lies at least
/// `minDistance` px from the live features and from the other picks.
///
/// Only what is picked is ordered: the corners are scanned once (pixels near a live feature are
/// masked out first), each grid cell keeps its best, and the strongest of the rest come off a
/// heap. A tracker that lost ten features pays for ten picks, not for sorting every corner of
/// the image. Ties in score go to the earlier pixel in raster order, so the picks are the same
/// every run.
public struct GridCornerSelection: Sendable {
    /// Grid columns and rows (cells of the image); default 8 × 6.
    public var columns = 8
    public var rows = 6
    /// Smallest distance (px) of a pick from a live feature and from another pick; default 10.
    public var minDistance: Float = 10
    /// Relative quality threshold (fraction of the best score); default 0.01.
    public var quality: Float = 0.01

    public init() {}

    /// At most `count` new corners (strongest first within each phase) given the live features
    /// `occupied`. With a 1 × 1 grid and no live feature inside the image this is plain greedy
    /// selection: strongest first, each kept when `minDistance` from those kept before
    /// (``ShiTomasiDetector/select(_:occupied:)``).
    public func select(_ scores: GrayImage, occupied: [Vector2], count: Int) -> [ShiTomasiDetector.Corner] {
        let w = scores.width, h = scores.height
        guard count > 0, w >= 3, h >= 3, w * h <= Int(UInt32.max), columns > 0, rows > 0 else { return [] }
        let best = Self.maximum(scores.pixels)
        guard best > 0 else { return [] }
        // Only positive scores are corners, whatever `quality` (0 included) says.
        let threshold = max(best * quality, Float.leastNonzeroMagnitude)
        let cellWidth = Double(w) / Double(columns), cellHeight = Double(h) / Double(rows)
        func cell(x: Double, y: Double) -> Int {
            min(rows - 1, max(0, Int(y / cellHeight))) * columns + min(columns - 1, max(0, Int(x / cellWidth)))
        }
        let cellColumn = (0..<w).map { min(columns - 1, Int(Double($0) / cellWidth)) }
        // Pixels closer than minDistance to a live feature cannot be picked.
        var blocked = [Bool](repeating: false, count: w * h)
        var filled = [Bool](repeating: false, count: columns * rows)
        let d = Double(minDistance), d2 = d * d
        for p in occupied where p.x.isFinite && p.y.isFinite {
            if p.x >= 0, p.y >= 0, p.x < Double(w), p.y < Double(h) { filled[cell(x: p.x, y: p.y)] = true }
            guard d > 0 else { continue }
            let y0 = max(0, Int((p.y - d).rounded(.up))), y1 = min(h - 1, Int((p.y + d).rounded(.down)))
            let x0 = max(0, Int((p.x - d).rounded(.up))), x1 = min(w - 1, Int((p.x + d).rounded(.down)))
            guard y0 <= y1, x0 <= x1 else { continue }
            for y in y0...y1 {
                let dy = Double(y) - p.y
                for x in x0...x1 where (Double(x) - p.x) * (Double(x) - p.x) + dy * dy < d2 { blocked[y * w + x] = true }
            }
        }
        // Candidates as keys that order by score, then raster order: a positive Float's bits
        // order as the Float does; the lower half holds the inverted index.
        var keys: [UInt64] = []
        keys.reserveCapacity(w * h / 64)
        var cellBest = [UInt64](repeating: 0, count: columns * rows)
        func add(_ i: Int, _ v: Float, cellRow: Int) {
            let key = UInt64(v.bitPattern) << 32 | UInt64(UInt32.max - UInt32(truncatingIfNeeded: i))
            keys.append(key)
            let c = cellRow &+ cellColumn[i % w]
            if !filled[c], key > cellBest[c] { cellBest[c] = key }
        }
        // A 3×3 local maximum (ties allowed, as OpenCV's dilate comparison) is a pixel no smaller
        // than the largest of its window: the maxima of three consecutive pixels of rows y−1, y
        // and y+1 (kept as three rolling rows), eight pixels at a time.
        var rolling = [Float](repeating: 0, count: 3 * w)
        scores.pixels.withUnsafeBufferPointer { s in
            blocked.withUnsafeBufferPointer { mask in
                rolling.withUnsafeMutableBufferPointer { r in
                    guard let p = s.baseAddress, let m = mask.baseAddress, let rows3 = r.baseAddress else { return }
                    func rowMaxima(_ y: Int, into out: UnsafeMutablePointer<Float>) {
                        let row = p + y &* w
                        var x = 1
                        while x &+ 9 <= w {
                            let l = UnsafeRawPointer(row + (x &- 1)).loadUnaligned(as: SIMD8<Float>.self)
                            let c = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD8<Float>.self)
                            let rr = UnsafeRawPointer(row + (x &+ 1)).loadUnaligned(as: SIMD8<Float>.self)
                            UnsafeMutableRawPointer(out + x).storeBytes(of: larger(larger(l, c), rr), as: SIMD8<Float>.self)
                            x &+= 8
                        }
                        while x < w &- 1 {
                            out[x] = max(row[x &- 1], row[x], row[x &+ 1])
                            x &+= 1
                        }
                    }
                    rowMaxima(0, into: rows3)
                    rowMaxima(1, into: rows3 + w)
                    let thresholds = SIMD8<Float>(repeating: threshold)
                    for y in 1..<(h &- 1) {
                        let above = rows3 + ((y &- 1) % 3) &* w, here = rows3 + (y % 3) &* w, below = rows3 + ((y &+ 1) % 3) &* w
                        rowMaxima(y &+ 1, into: below)
                        let cellRow = min(rows - 1, Int(Double(y) / cellHeight)) * columns
                        let row = p + y &* w
                        var x = 1
                        while x &+ 8 <= w &- 1 {
                            let v = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD8<Float>.self)
                            let window = larger(larger(UnsafeRawPointer(above + x).loadUnaligned(as: SIMD8<Float>.self),
                                                       UnsafeRawPointer(here + x).loadUnaligned(as: SIMD8<Float>.self)),
                                                UnsafeRawPointer(below + x).loadUnaligned(as: SIMD8<Float>.self))
                            let peaks = (v .>= thresholds) .& (v .>= window)
                            if any(peaks) {
                                for lane in 0..<8 where peaks[lane] {
                                    let i = y &* w &+ x &+ lane
                                    if !m[i] { add(i, v[lane], cellRow: cellRow) }
                                }
                            }
                            x &+= 8
                        }
                        while x < w &- 1 {
                            let i = y &* w &+ x
                            let v = p[i]
                            if v >= threshold, v >= max(above[x], here[x], below[x]), !m[i] { add(i, v, cellRow: cellRow) }
                            x &+= 1
                        }
                    }
                }
            }
        }
        func corner(_ key: UInt64) -> ShiTomasiDetector.Corner {
            let i = Int(UInt32.max - UInt32(truncatingIfNeeded: key))
            return ShiTomasiDetector.Corner(position: Vector2(Double(i % w), Double(i / w)), score: Float(bitPattern: UInt32(key >> 32)))
        }
        var picks = PickGrid(width: w, height: h, minDistance: d)
        // Empty cells first, each with its best corner, strongest first.
        var first = Set<UInt64>()
        for key in cellBest.filter({ $0 != 0 }).sorted(by: >) where picks.count < count {
            if picks.addIfFree(corner(key)) { first.insert(key) }
        }
        // Then the strongest corners anywhere (not those already picked: with minDistance 0
        // nothing else would keep a corner from being picked twice).
        var heap = MaxHeap(keys)
        while picks.count < count, let key = heap.pop() {
            if !first.contains(key) { picks.addIfFree(corner(key)) }
        }
        return picks.corners
    }

    /// The largest value (0 for none; NaN is skipped), eight lanes at a time.
    static func maximum(_ values: [Float]) -> Float {
        values.withUnsafeBufferPointer { v in
            guard let p = v.baseAddress else { return 0 }
            var lanes = SIMD8<Float>(repeating: 0)
            var i = 0
            while i &+ 8 <= v.count {
                lanes = larger(lanes, UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self))
                i &+= 8
            }
            var best = lanes.max()
            while i < v.count {
                if p[i] > best { best = p[i] }
                i &+= 1
            }
            return best
        }
    }

    /// The picks so far, bucketed by `minDistance` so a new one is checked against its neighbours only.
    private struct PickGrid {
        let size: Double, columns: Int, rows: Int, d2: Double
        var buckets: [[Vector2]]
        var corners: [ShiTomasiDetector.Corner] = []
        var count: Int { corners.count }

        init(width: Int, height: Int, minDistance: Double) {
            size = max(minDistance, 1)
            columns = Int(Double(width) / size) + 1
            rows = Int(Double(height) / size) + 1
            d2 = minDistance * minDistance
            buckets = [[Vector2]](repeating: [], count: columns * rows)
        }

        /// Adds `c` unless an earlier pick lies closer than the distance; whether it was added.
        @discardableResult
        mutating func addIfFree(_ c: ShiTomasiDetector.Corner) -> Bool {
            let p = c.position
            let cx = Int(p.x / size), cy = Int(p.y / size)
            for gy in max(0, cy - 1)...min(rows - 1, cy + 1) {
                for gx in max(0, cx - 1)...min(columns - 1, cx + 1) {
                    for q in buckets[gy * columns + gx] where ((q - p) * (q - p)).sum() < d2 { return false }
                }
            }
            buckets[cy * columns + cx].append(p)
            corners.append(c)
            return true
        }
    }
}

/// Lane-wise maximum (the standard library's generic `pointwiseMax` is not specialized here:
/// a call per lane).
@inline(__always) private func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .> a)
}

/// A binary max-heap of keys (built in linear time; each pop O(log n)).
struct MaxHeap {
    private var items: [UInt64]

    init(_ items: [UInt64]) {
        self.items = items
        var i = items.count / 2
        while i > 0 {
            i -= 1
            siftDown(i)
        }
    }

    var isEmpty: Bool { items.isEmpty }

    /// Removes and returns the largest key.
    mutating func pop() -> UInt64? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        siftDown(0)
        return top
    }

    private mutating func siftDown(_ start: Int) {
        let n = items.count
        var i = start
        items.withUnsafeMutableBufferPointer { a in
            while true {
                let l = 2 &* i &+ 1
                guard l < n else { return }
                let r = l &+ 1
                let c = r < n && a[r] > a[l] ? r : l
                guard a[c] > a[i] else { return }
                a.swapAt(i, c)
                i = c
            }
        }
    }
}
