import Foundation

/// A plotting area of ``SVGPlot``: data bounds widened to round ticks (1, 2 or 5 × 10ⁿ, four to
/// ten of them), their mapping to pixels, axes, title and labels. Numbers are written with fixed formatting, so plots are byte-identical
/// for identical data.
struct SVGCanvas {
    let width = 640.0, height = 480.0, margin = 60.0
    /// Room on the right (px): a legend's or a colour bar's.
    let rightMargin: Double
    private(set) var minX: Double, maxX: Double, minY: Double, maxY: Double
    private var sx = 1.0, sy = 1.0
    /// Distance between ticks on each axis (data units).
    private var xStep = 1.0, yStep = 1.0

    /// A round step (1, 2 or 5 × 10ⁿ) giving about four intervals over `span`.
    static func tickStep(_ span: Double) -> Double {
        let raw = span / 4
        let magnitude = pow(10, floor(log10(raw)))
        let r = raw / magnitude
        return (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * magnitude
    }

    /// The ticks from `low` to `high` (multiples of `step`) and their labels with as many decimals as the step needs.
    static func ticks(_ low: Double, _ high: Double, step: Double) -> [(value: Double, label: String)] {
        let decimals = max(0, Int(-floor(log10(step) + 1e-9)))
        let count = Int(((high - low) / step).rounded())
        return (0...max(0, min(count, 20))).map { k in
            let v = low + Double(k) * step
            let label = String(format: "%.\(decimals)f", abs(v) < step * 1e-6 ? 0 : v)
            return (v, label)
        }
    }

    /// Bounds of the finite points (a flat range is widened to 1), optionally with equal scales.
    /// `including` adds points the axes must span without drawing them (a fixed 0…1 range).
    init(points: [(Double, Double)], equalAspect: Bool = false, includeZeroY: Bool = false, rightMargin: Double = 60, including: [(Double, Double)] = []) {
        self.rightMargin = rightMargin
        let finite = (points + including).filter { $0.0.isFinite && $0.1.isFinite }
        minX = finite.map(\.0).min() ?? 0; maxX = finite.map(\.0).max() ?? 1
        minY = finite.map(\.1).min() ?? 0; maxY = finite.map(\.1).max() ?? 1
        if includeZeroY { minY = min(minY, 0) }
        if maxX - minX < 1e-12 { maxX = minX + 1 }
        if maxY - minY < 1e-12 { maxY = minY + 1 }
        xStep = Self.tickStep(maxX - minX)
        yStep = Self.tickStep(maxY - minY)
        (minX, maxX) = (floor(minX / xStep) * xStep, ceil(maxX / xStep) * xStep)
        (minY, maxY) = (floor(minY / yStep) * yStep, ceil(maxY / yStep) * yStep)
        sx = (width - margin - rightMargin) / (maxX - minX)
        sy = (height - 2 * margin) / (maxY - minY)
        if equalAspect { let s = min(sx, sy); sx = s; sy = s }
    }

    func px(_ x: Double) -> Double { margin + (x - minX) * sx }
    func py(_ y: Double) -> Double { height - margin - (y - minY) * sy }

    static func f(_ v: Double) -> String { String(format: "%.2f", v) }

    /// The document's opening, white background, title, axes, ticks and axis labels.
    func header(title: String, xLabel: String, yLabel: String) -> String {
        let f = Self.f
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"\(f(width / 2))\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">\(SVGPlot.escape(title))</text>\n"
        svg += "<line x1=\"\(f(margin))\" y1=\"\(f(height - margin))\" x2=\"\(f(width - rightMargin))\" y2=\"\(f(height - margin))\" stroke=\"black\"/>\n"
        svg += "<line x1=\"\(f(margin))\" y1=\"\(f(margin))\" x2=\"\(f(margin))\" y2=\"\(f(height - margin))\" stroke=\"black\"/>\n"
        for (x, label) in Self.ticks(minX, maxX, step: xStep) {
            svg += "<text x=\"\(f(px(x)))\" y=\"\(f(height - margin + 16))\" text-anchor=\"middle\">\(label)</text>\n"
        }
        for (y, label) in Self.ticks(minY, maxY, step: yStep) {
            svg += "<text x=\"\(f(margin - 6))\" y=\"\(f(py(y) + 4))\" text-anchor=\"end\">\(label)</text>\n"
            svg += "<line x1=\"\(f(margin))\" y1=\"\(f(py(y)))\" x2=\"\(f(width - rightMargin))\" y2=\"\(f(py(y)))\" stroke=\"#e5e5e5\"/>\n"
        }
        svg += "<text x=\"\(f(width / 2))\" y=\"\(f(height - 16))\" text-anchor=\"middle\">\(SVGPlot.escape(xLabel))</text>\n"
        svg += "<text x=\"16\" y=\"\(f(height / 2))\" transform=\"rotate(-90 16 \(f(height / 2)))\" text-anchor=\"middle\">\(SVGPlot.escape(yLabel))</text>\n"
        return svg
    }
}
