import Testing
import ParallaxMath
@testable import ParallaxVIO

/// The images' word on standing still: the median motion (px) of the features seen at both ends
/// of a window.
@Suite struct RecentViewsTests {
    /// A frame of `count` features, all shifted by `shift` (normalized units).
    static func frame(_ time: Int64, count: Int, shift: Double) -> VIOFeatureFrame {
        VIOFeatureFrame(time: time, features: (0..<count).map { i in
            let n = Vector2(0.01 * Double(i) + shift, 0.02)
            return VIOFeature(id: UInt64(i), pixel: .zero, normalized: n, age: 1)
        }, ended: [])
    }

    @Test func theMedianMotionOverTheWindowInPixels() throws {
        var views = RecentViews(fx: 400)
        for k in 0...10 { views.append(Self.frame(Int64(k), count: 20, shift: 0.001 * Double(k)), at: 0.1 * Double(k), keeping: 2) }
        // Over the last 0.3 s the features moved 3 × 0.001 normalized units: 1.2 px.
        let motion = try #require(views.motion(over: 0.3, at: 1.0))
        #expect(abs(motion - 1.2) < 1e-9)
        var sparse = RecentViews(fx: 400)
        for k in 0...3 { sparse.append(Self.frame(Int64(k), count: 9, shift: 0), at: 0.1 * Double(k), keeping: 2) }
        #expect(sparse.motion(over: 0.3, at: 0.3) == nil, "fewer than 10 features at both ends: no word")
    }

    /// After a gap in the frames the window may hold the newest frame alone, which has not moved
    /// against itself: with a minimum span the views say nothing rather than "still" (the
    /// zero-velocity update then held a moving platform in place after a 1 s camera gap).
    @Test func aWindowHoldingOnlyTheFrameAfterAGapSaysNothing() throws {
        var views = RecentViews(fx: 400)
        for k in 0...5 { views.append(Self.frame(Int64(k), count: 20, shift: 0.01 * Double(k)), at: 0.1 * Double(k), keeping: 2) }
        views.append(Self.frame(6, count: 20, shift: 0.2), at: 1.5, keeping: 2)
        #expect(views.motion(over: 0.4, at: 1.5) == 0)
        #expect(views.motion(over: 0.4, at: 1.5, minimumSpan: 0.3) == nil)
        let before = try #require(views.motion(over: 0.4, at: 0.5, minimumSpan: 0.3))
        #expect(before > 0)
    }

    @Test func framesOlderThanTheSpanAreForgotten() {
        var views = RecentViews(fx: 400)
        for k in 0...20 { views.append(Self.frame(Int64(k), count: 1, shift: 0), at: 0.1 * Double(k), keeping: 0.5) }
        // Kept: those at least 2.0 − 0.5 − 0.1 s.
        #expect(views.frames.map(\.time).first.map { abs($0 - 1.4) < 1e-9 } == true)
    }
}
