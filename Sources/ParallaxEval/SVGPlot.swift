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
        /// Dots at the points instead of a line through them.
        public var markers: Bool
        public init(label: String, color: String, points: [(Double, Double)], markers: Bool = false) {
            self.label = label
            self.color = color
            self.points = points
            self.markers = markers
        }
    }

    /// Top view (x–y) of trajectories, equal scale on both axes (m).
    public static func topView(_ trajectories: [(label: String, color: String, positions: [Vector3])], title: String) -> String {
        plot(trajectories.map { Series(label: $0.label, color: $0.color, points: $0.positions.map { ($0.x, $0.y) }) },
             title: title, xLabel: "x (m)", yLabel: "y (m)", equalAspect: true)
    }

    /// Lines over a shared x axis.
    /// `spanning`: points the axes reach even where no line does (a success plot's 0…1 square).
    public static func plot(_ series: [Series], title: String, xLabel: String, yLabel: String, equalAspect: Bool = false,
                            spanning: [(Double, Double)] = []) -> String {
        let canvas = SVGCanvas(points: series.flatMap(\.points), equalAspect: equalAspect, including: spanning)
        let f = SVGCanvas.f
        var svg = canvas.header(title: title, xLabel: xLabel, yLabel: yLabel)
        for (i, s) in series.enumerated() {
            let finite = s.points.filter { $0.0.isFinite && $0.1.isFinite }
            if s.markers {
                for p in finite { svg += "<circle cx=\"\(f(canvas.px(p.0)))\" cy=\"\(f(canvas.py(p.1)))\" r=\"3\" fill=\"\(s.color)\"/>\n" }
            } else {
                let pts = finite.map { "\(f(canvas.px($0.0))),\(f(canvas.py($0.1)))" }.joined(separator: " ")
                svg += "<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"1.5\" points=\"\(pts)\"/>\n"
            }
            svg += "<text x=\"\(f(canvas.width - canvas.margin - 4))\" y=\"\(f(canvas.margin + 16 * Double(i + 1)))\" text-anchor=\"end\" fill=\"\(s.color)\">\(escape(s.label))</text>\n"
        }
        return svg + "</svg>\n"
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
