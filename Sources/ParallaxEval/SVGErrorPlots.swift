import Foundation
import ParallaxImage
import ParallaxMath

/// The plots evo draws for a trajectory error, as SVG: the error over time with its mean,
/// median and RMSE, the distribution, the top view coloured by the error; and bars for timing.
extension SVGPlot {
    /// Error over time with horizontal lines at the mean, median and RMSE and a band of ±1
    /// standard deviation around the mean (evo_ape's "raw" plot).
    public static func errorOverTime(times: [Double], errors: [Double], title: String, yLabel: String, unit: String) -> String {
        let points = Array(zip(times, errors)).filter { $0.0.isFinite && $0.1.isFinite }
        let stats = ErrorStatistics(points.map(\.1))
        let canvas = SVGCanvas(points: points + [(points.first?.0 ?? 0, stats.mean + stats.std)], includeZeroY: true, rightMargin: 20)
        let f = SVGCanvas.f
        var svg = canvas.header(title: title, xLabel: "t (s)", yLabel: yLabel)
        let x0 = canvas.px(canvas.minX), x1 = canvas.px(canvas.maxX)
        let lo = canvas.py(max(canvas.minY, stats.mean - stats.std)), hi = canvas.py(stats.mean + stats.std)
        svg += "<rect x=\"\(f(x0))\" y=\"\(f(hi))\" width=\"\(f(x1 - x0))\" height=\"\(f(max(0, lo - hi)))\" fill=\"#1f77b4\" fill-opacity=\"0.12\"/>\n"
        let line = points.map { "\(f(canvas.px($0.0))),\(f(canvas.py($0.1)))" }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"#7f7f7f\" stroke-width=\"1.2\" points=\"\(line)\"/>\n"
        let references: [(String, Double, String, String)] = [("rmse", stats.rmse, "#1f77b4", ""), ("median", stats.median, "#2ca02c", ""),
                                                               ("mean", stats.mean, "#d62728", " stroke-dasharray=\"6 3\"")]
        for (k, (name, value, color, dash)) in references.enumerated() where value.isFinite {
            svg += "<line x1=\"\(f(x0))\" y1=\"\(f(canvas.py(value)))\" x2=\"\(f(x1))\" y2=\"\(f(canvas.py(value)))\" stroke=\"\(color)\" stroke-width=\"1.5\"\(dash)/>\n"
            svg += "<text x=\"\(f(x1 - 4))\" y=\"\(f(canvas.margin + 16 * Double(k + 1)))\" text-anchor=\"end\" fill=\"\(color)\">\(name) \(String(format: "%.4g", value)) \(escape(unit))</text>\n"
        }
        svg += "<text x=\"\(f(x1 - 4))\" y=\"\(f(canvas.margin + 16 * 4))\" text-anchor=\"end\" fill=\"#1f77b4\" fill-opacity=\"0.7\">band: mean ± std (\(String(format: "%.3g", stats.std)))</text>\n"
        return svg + "</svg>\n"
    }

    /// Histogram of `values` in `bins` equal bins between their minimum and maximum.
    public static func histogram(_ values: [Double], bins: Int = 30, title: String, xLabel: String) -> String {
        let finite = values.filter(\.isFinite)
        let n = max(1, bins)
        let lo = finite.min() ?? 0, hi0 = finite.max() ?? 1
        let hi = hi0 - lo < 1e-12 ? lo + 1 : hi0
        var counts = [Int](repeating: 0, count: n)
        for v in finite { counts[min(n - 1, Int((v - lo) / (hi - lo) * Double(n)))] += 1 }
        let canvas = SVGCanvas(points: [(lo, 0), (hi, Double(counts.max() ?? 1))], rightMargin: 20)
        let f = SVGCanvas.f
        var svg = canvas.header(title: title, xLabel: xLabel, yLabel: "count")
        let width = (hi - lo) / Double(n)
        for (k, c) in counts.enumerated() where c > 0 {
            let x = canvas.px(lo + Double(k) * width), top = canvas.py(Double(c))
            svg += "<rect x=\"\(f(x))\" y=\"\(f(top))\" width=\"\(f(max(0.5, canvas.px(lo + Double(k + 1) * width) - x - 1)))\" height=\"\(f(canvas.py(0) - top))\" fill=\"#1f77b4\"/>\n"
        }
        return svg + "</svg>\n"
    }

    /// Top view (x–y, equal scales): the reference in grey, the estimate as segments coloured
    /// by `errors` (one per estimate position) on viridis, dark blue (smallest) to yellow (largest),
    /// with a colour bar (evo's `--plot_colormap_max` view).
    public static func topViewColoredByError(reference: [Vector3], estimate: [Vector3], errors: [Double], title: String, unit: String) -> String {
        let canvas = SVGCanvas(points: (reference + estimate).map { ($0.x, $0.y) }, equalAspect: true, rightMargin: 90)
        let f = SVGCanvas.f
        var svg = canvas.header(title: title, xLabel: "x (m)", yLabel: "y (m)")
        let line = reference.filter { $0.x.isFinite && $0.y.isFinite }.map { "\(f(canvas.px($0.x))),\(f(canvas.py($0.y)))" }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"#999999\" stroke-width=\"1.2\" stroke-dasharray=\"4 2\" points=\"\(line)\"/>\n"
        let finite = errors.filter(\.isFinite)
        let lo = finite.min() ?? 0, hi = max((finite.max() ?? 1), lo + 1e-12)
        for k in 1..<min(estimate.count, errors.count) {
            let a = estimate[k - 1], b = estimate[k]
            guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite, errors[k].isFinite else { continue }
            svg += "<line x1=\"\(f(canvas.px(a.x)))\" y1=\"\(f(canvas.py(a.y)))\" x2=\"\(f(canvas.px(b.x)))\" y2=\"\(f(canvas.py(b.y)))\" stroke=\"\(color((errors[k] - lo) / (hi - lo)))\" stroke-width=\"2\"/>\n"
        }
        // Colour bar.
        let barX = canvas.width - 70, top = canvas.margin, bottom = canvas.height - canvas.margin
        for k in 0..<20 {
            let y0 = bottom - (bottom - top) * Double(k + 1) / 20
            svg += "<rect x=\"\(f(barX))\" y=\"\(f(y0))\" width=\"14\" height=\"\(f((bottom - top) / 20 + 0.5))\" fill=\"\(color((Double(k) + 0.5) / 20))\"/>\n"
        }
        svg += "<text x=\"\(f(barX + 18))\" y=\"\(f(top + 4))\">\(String(format: "%.3g", hi))</text>\n"
        svg += "<text x=\"\(f(barX + 18))\" y=\"\(f(bottom + 4))\">\(String(format: "%.3g", lo))</text>\n"
        svg += "<text x=\"\(f(barX + 7))\" y=\"\(f(top - 8))\" text-anchor=\"middle\">\(escape(unit))</text>\n"
        return svg + "</svg>\n"
    }

    /// Horizontal bars, one per labelled value in the given order (timing: ms per call), scaled
    /// to the largest.
    public static func bars(_ items: [(label: String, value: Double)], title: String, unit: String) -> String {
        let rowHeight = 22.0, left = 230.0, right = 80.0, top = 50.0
        let height = top + rowHeight * Double(max(1, items.count)) + 30
        let maxValue = max(items.map(\.value).filter(\.isFinite).max() ?? 1, 1e-12)
        let f = SVGCanvas.f
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"320\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">\(escape(title))</text>\n"
        for (k, item) in items.enumerated() {
            let y = top + rowHeight * Double(k)
            let w = item.value.isFinite ? (640 - left - right) * item.value / maxValue : 0
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y + 15))\" text-anchor=\"end\">\(escape(item.label))</text>\n"
            svg += "<rect x=\"\(f(left))\" y=\"\(f(y + 3))\" width=\"\(f(max(0, w)))\" height=\"\(f(rowHeight - 6))\" fill=\"#2ca02c\"/>\n"
            svg += "<text x=\"\(f(left + max(0, w) + 4))\" y=\"\(f(y + 15))\">\(String(format: "%.3g", item.value)) \(escape(unit))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// The SVG colour of `t` in 0…1 on ``Colormap/viridis(_:)``.
    static func color(_ t: Double) -> String {
        let c = Colormap.viridis(t)
        return String(format: "#%02x%02x%02x", c.r, c.g, c.b)
    }
}
