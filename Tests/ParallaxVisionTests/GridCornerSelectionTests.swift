import Testing
import ParallaxImage
import ParallaxMath
@testable import ParallaxVision

@Suite struct GridCornerSelectionTests {
    /// A score image of random values (a fixed seed): many local maxima of distinct scores.
    static func randomScores(width: Int = 96, height: Int = 64, seed: UInt64 = 7) -> GrayImage {
        var rng = SeededGenerator(seed: seed)
        return GrayImage(width: width, height: height, pixels: (0..<(width * height)).map { _ in Float.random(in: 0...1, using: &rng) })
    }

    /// The rule by definition: every 3×3 local maximum at least quality × best and farther than
    /// minDistance from the live features, strongest first, each kept when farther than
    /// minDistance from those kept before it.
    static func greedy(_ s: GrayImage, occupied: [Vector2], count: Int, minDistance: Double, quality: Float) -> [Vector2] {
        let w = s.width, h = s.height, best = s.pixels.max()!
        var candidates: [(Float, Int)] = []
        for y in 1..<(h - 1) { for x in 1..<(w - 1) {
            let v = s.pixels[y * w + x]
            guard v >= best * quality else { continue }
            var peak = true
            for dy in -1...1 { for dx in -1...1 where s.pixels[(y + dy) * w + x + dx] > v { peak = false } }
            let p = Vector2(Double(x), Double(y))
            if peak, occupied.allSatisfy({ ($0 - p).norm >= minDistance }) { candidates.append((v, y * w + x)) }
        } }
        candidates.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
        var kept: [Vector2] = []
        for (_, i) in candidates where kept.count < count {
            let p = Vector2(Double(i % w), Double(i / w))
            if kept.allSatisfy({ ($0 - p).norm >= minDistance }) { kept.append(p) }
        }
        return kept
    }

    @Test func withEveryCellFilledThePicksAreTheGreedyStrongestCorners() {
        let scores = Self.randomScores()
        // One live feature in each of the 2 × 2 cells: no cell is empty, only strength counts.
        let occupied = [Vector2(10, 10), Vector2(70, 12), Vector2(12, 50), Vector2(80, 55)]
        var selection = GridCornerSelection()
        selection.columns = 2
        selection.rows = 2
        selection.minDistance = 6
        selection.quality = 0.5
        for count in [1, 5, 40, 10_000] {
            let picks = selection.select(scores, occupied: occupied, count: count).map(\.position)
            #expect(picks == Self.greedy(scores, occupied: occupied, count: count, minDistance: 6, quality: 0.5))
        }
    }

    @Test func emptyCellsGetTheirBestCornerFirst() {
        // Strong corners on the left half only, one weak corner on the right.
        var s = GrayImage(width: 80, height: 40)
        for (x, y) in [(10, 10), (20, 20), (30, 30), (10, 30)] { s.pixels[y * 80 + x] = 100 }
        s.pixels[20 * 80 + 60] = 2
        var selection = GridCornerSelection()
        selection.columns = 2
        selection.rows = 1
        selection.minDistance = 5
        // One pick: the empty right cell's weak corner, although the left has stronger ones.
        #expect(selection.select(s, occupied: [Vector2(5, 5)], count: 1).map(\.position) == [Vector2(60, 20)])
        // Without a live feature both cells are empty: each gets its best, strongest first.
        #expect(selection.select(s, occupied: [], count: 2).map(\.position) == [Vector2(10, 10), Vector2(60, 20)])
    }

    @Test func picksKeepTheirDistanceFromFeaturesAndEachOther() {
        let scores = Self.randomScores(seed: 3)
        let occupied = (0..<12).map { Vector2(Double(8 * $0), Double(5 * $0)) }
        var selection = GridCornerSelection()
        selection.minDistance = 7
        let picks = selection.select(scores, occupied: occupied, count: 50).map(\.position)
        #expect(!picks.isEmpty && picks.count <= 50)
        for (i, p) in picks.enumerated() {
            #expect(occupied.allSatisfy { ($0 - p).norm >= 7 })
            #expect(picks[..<i].allSatisfy { ($0 - p).norm >= 7 })
        }
        // The same every run.
        #expect(selection.select(scores, occupied: occupied, count: 50).map(\.position) == picks)
    }

    /// With minDistance 0 nothing but identity keeps a corner from being picked twice: an empty
    /// cell's best is not picked again off the heap. One cell and no live feature is the plain
    /// greedy rule (what ShiTomasiDetector.select runs), scores included.
    @Test func noCornerTwiceAndOneCellIsGreedy() {
        let scores = Self.randomScores(seed: 9)
        var selection = GridCornerSelection()
        selection.minDistance = 0
        let picks = selection.select(scores, occupied: [], count: 300).map(\.position)
        #expect(picks.count == 300 && Set(picks.map { [$0.x, $0.y] }).count == 300)
        selection.columns = 1
        selection.rows = 1
        selection.minDistance = 5
        selection.quality = 0.3
        let corners = selection.select(scores, occupied: [], count: 1_000)
        #expect(corners.map(\.position) == Self.greedy(scores, occupied: [], count: 1_000, minDistance: 5, quality: 0.3))
        #expect(corners.allSatisfy { scores.pixels[Int($0.position.y) * scores.width + Int($0.position.x)] == $0.score })
    }

    @Test func nothingToPickGivesNothing() {
        let selection = GridCornerSelection()
        #expect(selection.select(GrayImage(width: 40, height: 30), occupied: [], count: 10).isEmpty)
        #expect(selection.select(Self.randomScores(), occupied: [], count: 0).isEmpty)
        #expect(selection.select(GrayImage(width: 2, height: 2, value: 1), occupied: [], count: 3).isEmpty)
    }

    @Test func maximumIsTheLargestValue() {
        for n in [0, 1, 7, 8, 9, 100] {
            let values = (0..<n).map { Float(($0 * 37) % 101) }
            #expect(GridCornerSelection.maximum(values) == (values.max() ?? 0))
        }
    }

    @Test func heapPopsInDescendingOrder() {
        var rng = SeededGenerator(seed: 11)
        let keys = (0..<500).map { _ in UInt64.random(in: 0...1000, using: &rng) }
        var heap = MaxHeap(keys)
        var popped: [UInt64] = []
        while let k = heap.pop() { popped.append(k) }
        #expect(popped == keys.sorted(by: >))
        #expect(heap.isEmpty)
    }
}
