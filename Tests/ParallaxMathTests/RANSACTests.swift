import Testing
@testable import ParallaxMath

@Suite struct RANSACTests {
    struct Line { var slope: Double; var intercept: Double }

    static func data(seed: UInt64) -> [Vector2] {
        var rng = SeededGenerator(seed: seed)
        var points: [Vector2] = (0..<70).map { i in
            let x = Double(i) / 10
            return Vector2(x, 0.5 * x - 1 + 0.01 * rng.nextGaussian())
        }
        for _ in 0..<30 { points.append(Vector2(Double.random(in: 0...7, using: &rng), Double.random(in: -10...10, using: &rng))) }
        return points
    }

    func estimate(_ points: [Vector2], seed: UInt64) throws -> RANSAC<Line>.Result {
        let ransac = RANSAC<Line>(minimalSampleSize: 2, threshold: 0.05, seed: seed)
        return try ransac.run(dataCount: points.count, fit: { idx in
            let a = points[idx[0]], b = points[idx[1]]
            guard abs(b.x - a.x) > 1e-9 else { return nil }
            let slope = (b.y - a.y) / (b.x - a.x)
            return Line(slope: slope, intercept: a.y - slope * a.x)
        }, residual: { line, i in abs(points[i].y - (line.slope * points[i].x + line.intercept)) })
    }

    @Test func findsTheLineAmongOutliers() throws {
        let points = Self.data(seed: 5)
        let result = try estimate(points, seed: 1)
        #expect(abs(result.model.slope - 0.5) < 0.01)
        #expect(abs(result.model.intercept + 1) < 0.03)
        #expect(result.inliers.count >= 68)
        #expect(result.iterations < 1000)  // adaptive stopping kicked in
    }

    @Test func sameSeedSameResult() throws {
        let points = Self.data(seed: 6)
        let a = try estimate(points, seed: 42), b = try estimate(points, seed: 42)
        #expect(a.model.slope == b.model.slope && a.inliers == b.inliers && a.iterations == b.iterations)
    }

    @Test func tooFewPointsThrows() {
        #expect(throws: RANSAC<Line>.RANSACError.notEnoughData(count: 1, needed: 2)) {
            _ = try estimate([Vector2(0, 0)], seed: 0)
        }
    }
}
