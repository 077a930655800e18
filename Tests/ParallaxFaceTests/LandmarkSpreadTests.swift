import Foundation
import Testing
import ParallaxMath
@testable import ParallaxFace

@Suite struct LandmarkSpreadTests {
    /// The two-pass scatter (mean first, then the centred moments): the reference.
    static func ratio(_ points: [Vector2]) -> Double {
        let n = Double(points.count)
        let mean = points.reduce(Vector2.zero, +) / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in points {
            let d = p - mean
            sxx += d.x * d.x; sxy += d.x * d.y; syy += d.y * d.y
        }
        let half = (sxx + syy) / 2, root = (((sxx - syy) / 2) * ((sxx - syy) / 2) + sxy * sxy).squareRoot()
        return (max(0, half - root) / (half + root)).squareRoot()
    }

    @Test func pointsOnALineAreRefusedAndAnAreaPasses() throws {
        let line = (0..<20).map { Vector2(100 + 3 * Double($0), 50 + 2 * Double($0)) }
        #expect(throws: HeadPoseEstimator.FitError.self) { try LandmarkSpread(line).requireArea() }
        let face = (0..<20).map { Vector2(100 + 10 * cos(Double($0)), 50 + 6 * sin(Double($0))) }
        #expect(throws: Never.self) { try LandmarkSpread(face).requireArea() }
        // Fewer than three points: the solver's to refuse.
        #expect(throws: Never.self) { try LandmarkSpread([Vector2(1, 1), Vector2(2, 2)]).requireArea() }
    }

    /// The threshold sits where the two-pass ratio crosses it, also a million pixels from the
    /// origin (the moments are taken about the first point).
    @Test func theThresholdMatchesTheTwoPassScatterFarFromTheOrigin() throws {
        for offset in [0.0, 1e6] {
            for thickness in [0.02, 0.04, 0.06, 0.1] {
                let points = (0..<68).map { i -> Vector2 in
                    let t = Double(i) / 67 - 0.5
                    return Vector2(offset + 200 * t, offset + 200 * thickness * (i % 2 == 0 ? 1 : -1) / 2)
                }
                let reference = Self.ratio(points)
                let passes = (try? LandmarkSpread(points).requireArea()) != nil
                #expect(passes == (reference >= HeadPoseEstimator.minimumSpreadRatio), "offset \(offset) thickness \(thickness): ratio \(reference)")
            }
        }
    }

    @Test func sizeIsTheRootOfTheBoxArea() {
        let points = [Vector2(10, 20), Vector2(50, 30), Vector2(30, 120), Vector2(-10, 60)]
        #expect(LandmarkSpread(points).size == (60.0 * 100.0).squareRoot())
        #expect(LandmarkSpread([]).size == 0)
        #expect(LandmarkSpread([]).count == 0)
    }
}
