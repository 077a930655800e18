import Foundation
import ParallaxMath

/// Minimal, dependency-free SVG line plots for reports: trajectories seen from above and
/// errors over time. Output is deterministic text (fixed number formatting).
public enum SVGPlot {
    /// A named polyline.
    public struct Series {
        public var label: String
        public var color: String
        public var points: [(Double, Double)]
        public init(label: String, color: String, points: [(Double, Double)]) {
            self.label = label
            self.color = color
            self.points = points
        }
    }

    /// Top view (x–y) of trajectories, equal scale on both axes (m).
    public static func topView(_ trajectories: [(label: String, color: String, positions: [Vector3])], title: String) -> String {
        plot(trajectories.map { Series(label: $0.label, color: $0.color, points: $0.positions.map { ($0.x, $0.y) }) },
             title: title, xLabel: "x (m)", yLabel: "y (m)", equalAspect: true)
    }

    /// Lines over a shared x axis.
    public static func plot(_ series: [Series], title: String, xLabel: String, yLabel: String, equalAspect: Bool = false) -> String {
        let width = 640.0, height = 480.0, margin = 60.0
        let all = series.flatMap(\.points).filter { $0.0.isFinite && $0.1.isFinite }
        var minX = all.map(\.0).min() ?? 0, maxX = all.map(\.0).max() ?? 1
        var minY = all.map(\.1).min() ?? 0, maxY = all.map(\.1).max() ?? 1
        if maxX - minX < 1e-12 { maxX = minX + 1 }
        if maxY - minY < 1e-12 { maxY = minY + 1 }
        var sx = (width - 2 * margin) / (maxX - minX), sy = (height - 2 * margin) / (maxY - minY)
        if equalAspect {
            let s = min(sx, sy)
            sx = s; sy = s
        }
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        func px(_ x: Double) -> Double { margin + (x - minX) * sx }
        func py(_ y: Double) -> Double { height - margin - (y - minY) * sy }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        svg += "<text x=\"\(f(width / 2))\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">\(escape(title))</text>\n"
        svg += "<line x1=\"\(f(margin))\" y1=\"\(f(height - margin))\" x2=\"\(f(width - margin))\" y2=\"\(f(height - margin))\" stroke=\"black\"/>\n"
        svg += "<line x1=\"\(f(margin))\" y1=\"\(f(margin))\" x2=\"\(f(margin))\" y2=\"\(f(height - margin))\" stroke=\"black\"/>\n"
        for k in 0...4 {
            let x = minX + (maxX - minX) * Double(k) / 4, y = minY + (maxY - minY) * Double(k) / 4
            svg += "<text x=\"\(f(px(x)))\" y=\"\(f(height - margin + 16))\" text-anchor=\"middle\">\(String(format: "%.3g", x))</text>\n"
            svg += "<text x=\"\(f(margin - 6))\" y=\"\(f(py(y) + 4))\" text-anchor=\"end\">\(String(format: "%.3g", y))</text>\n"
        }
        svg += "<text x=\"\(f(width / 2))\" y=\"\(f(height - 16))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        svg += "<text x=\"16\" y=\"\(f(height / 2))\" transform=\"rotate(-90 16 \(f(height / 2)))\" text-anchor=\"middle\">\(escape(yLabel))</text>\n"
        for (i, s) in series.enumerated() {
            let pts = s.points.filter { $0.0.isFinite && $0.1.isFinite }.map { "\(f(px($0.0))),\(f(py($0.1)))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"1.5\" points=\"\(pts)\"/>\n"
            svg += "<text x=\"\(f(width - margin - 4))\" y=\"\(f(margin + 16 * Double(i + 1)))\" text-anchor=\"end\" fill=\"\(s.color)\">\(escape(s.label))</text>\n"
        }
        return svg + "</svg>\n"
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
