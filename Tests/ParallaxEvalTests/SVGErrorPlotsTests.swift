import Foundation
import Testing
import ParallaxMath
@testable import ParallaxEval

/// The evo-style plots: reference lines at the right values, bins that add up, colours that
/// follow the error, and no NaN written into a file.
@Suite struct SVGErrorPlotsTests {
    func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func aPlotSpansThePointsItIsGiven() {
        let series = SVGPlot.Series(label: "a", color: "#000", points: [(0.2, 0.4), (0.6, 0.8)])
        let square = SVGPlot.plot([series], title: "t", xLabel: "x", yLabel: "y", spanning: [(0, 0), (1, 1)])
        #expect(square.contains(">0.0</text>") && square.contains(">1.0</text>") && square.contains(">0.2</text>"))
        #expect(!SVGPlot.plot([series], title: "t", xLabel: "x", yLabel: "y").contains(">1.0</text>"))
    }

    @Test func errorOverTimeDrawsMeanMedianAndRMSE() {
        let errors = [1.0, 2, 3, 4, 10]
        let svg = SVGPlot.errorOverTime(times: [0, 1, 2, 3, 4], errors: errors, title: "t", yLabel: "APE (m)", unit: "m")
        let stats = ErrorStatistics(errors)
        #expect(svg.contains("rmse \(String(format: "%.4g", stats.rmse)) m"))
        #expect(svg.contains("median 3 m") && svg.contains("mean 4 m"))
        let withNaN = SVGPlot.errorOverTime(times: [0, 1, 2], errors: [1, .nan, 2], title: "t", yLabel: "e", unit: "m")
        #expect(!withNaN.lowercased().contains("nan"))
    }

    @Test func histogramBinsCountEveryValue() {
        let svg = SVGPlot.histogram([0, 0, 0.1, 0.9, 1], bins: 2, title: "h", xLabel: "e")
        // Two bars (3 values below 0.5, 2 above); tick labels show the counts' range 0…3.
        #expect(count("fill=\"#1f77b4\"", in: svg) == 2)
        #expect(svg.contains(">3</text>"))
        #expect(!SVGPlot.histogram([.nan, .infinity], title: "h", xLabel: "e").lowercased().contains("nan"))
    }

    @Test func topViewColoursSegmentsByError() {
        let estimate = (0..<5).map { Vector3(Double($0), 0, 0) }
        let svg = SVGPlot.topViewColoredByError(reference: estimate, estimate: estimate, errors: [0, 0, 1, 2, 4], title: "top", unit: "m")
        #expect(count("stroke-width=\"2\"", in: svg) == 4)
        #expect(svg.contains("stroke=\"#fde725\""), "the largest error is yellow")
        #expect(svg.contains("stroke=\"#440154\""), "the smallest is dark blue")
        #expect(SVGPlot.color(0) == "#440154" && SVGPlot.color(1) == "#fde725")
    }

    /// The general line plot (public, for plugins' own reports) shares the canvas.
    @Test func linePlotsDrawOnePolylinePerSeries() {
        let svg = SVGPlot.topView([("a", "#111111", [Vector3(0, 0, 0), Vector3(1, 1, 0)]), ("b", "#222222", [Vector3(0, 1, 0), Vector3(2, 0, 0)])], title: "top")
        #expect(count("<polyline", in: svg) == 2 && svg.contains(">a</text>") && svg.contains(">b</text>"))
    }

    @Test func barsLabelEveryValue() {
        let svg = SVGPlot.bars([(label: "case/klt", value: 12.5), (label: "case/vio", value: 2)], title: "timing", unit: "ms")
        #expect(svg.contains(">case/klt</text>") && svg.contains(">12.5 ms</text>") && svg.contains(">2 ms</text>"))
        #expect(count("fill=\"#2ca02c\"", in: svg) == 2)
    }

    /// Roll, pitch and yaw are the Z-Y-X angles the rotation was built from.
    @Test func attitudeAnglesAreZYXEulerAngles() {
        let (roll, pitch, yaw) = (0.3, -0.2, 2.5)
        let r = SO3.exp(Vector3(0, 0, yaw)) * SO3.exp(Vector3(0, pitch, 0)) * SO3.exp(Vector3(roll, 0, 0))
        let angles = SVGPlot.rollPitchYawDegrees(r)
        for (a, b) in zip(angles, [roll, pitch, yaw]) { #expect(abs(a - b * 180 / .pi) < 1e-9) }
    }

    /// An angle crossing ±180° goes on past it (no jump across the plot), and the estimate is
    /// drawn on the turn nearest the reference's.
    @Test func attitudeAnglesAreUnwrappedAndTheEstimateFollowsTheReference() {
        let reference = [[179.0, 0, -170], [-179, 0, 175], [-170, 0, 170]]
        let estimate = [[-179.5, 0, 190], [179.0, 0, -185], [-171, 0, -190]]
        let (truth, estimated) = SVGPlot.unwrappedDegrees(reference: reference, estimate: estimate)
        #expect(truth.map { $0[0] } == [179, 181, 190] && truth.map { $0[2] } == [-170, -185, -190])
        #expect(estimated.map { $0[0] } == [180.5, 179, 189] && estimated.map { $0[2] } == [-170, -185, -190])
    }

    /// Ticks fall on round values (1, 2 or 5 × 10ⁿ) with the decimals they need, the axes
    /// widened to hold them.
    @Test func ticksAreRoundNumbers() {
        #expect(SVGCanvas.tickStep(0.0124) == 0.005 && SVGCanvas.tickStep(0.0084) == 0.002 && SVGCanvas.tickStep(19) == 5 && SVGCanvas.tickStep(360) == 100)
        #expect(SVGCanvas.ticks(-0.004, 0.006, step: 0.002).map(\.label) == ["-0.004", "-0.002", "0.000", "0.002", "0.004", "0.006"])
        let svg = SVGPlot.positionAxes(times: [0, 19.1], reference: [Vector3(4.52, -1.9, 0.3), Vector3(5.01, -1.45, 0.9)],
                                       estimate: [Vector3(4.52, -1.9, 0.3), Vector3(5.01, -1.45, 0.9)], title: "p")
        #expect(svg.contains(">20</text>") && svg.contains(">0</text>") && !svg.contains(">19.1</text>"))
    }
}
