import Foundation
import Parallax
import ParallaxFiles
import ParallaxCodecs

/// What the browser reports (`bench`'s and `run`'s report.html) are made of: a page with the
/// reports' style, frames with what a chain found drawn over them, escaping. Pages stand alone:
/// images are data URIs, plots inline SVG, links relative.
public enum HTMLPages {
    /// A frame as a JPEG under an SVG layer of its features, boxes and landmarks (pixel
    /// coordinates: the SVG's view box is the image).
    public static func figure(_ overlay: OverlayFrame) throws -> String {
        let image = overlay.frame.image, w = image.width, h = image.height
        let jpeg = try ImageEncoder.jpegData(image, quality: 85, name: "\(overlay.camera) at \(overlay.time.nanoseconds) ns")
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" width=\"\(w)\" height=\"\(h)\">"
        svg += "<image width=\"\(w)\" height=\"\(h)\" href=\"data:image/jpeg;base64,\(jpeg.base64EncodedString())\"/>"
        let drawn = overlay.overlay
        for f in drawn.points {
            let a = min(1, Double(f.age) / 20)
            let color = String(format: "rgb(%d,%d,%d)", Int(255 * (1 - a)), Int(255 * (1 - 0.5 * a)), Int(255 * a))
            svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"none\" stroke=\"%@\" stroke-width=\"1.5\"/>", f.pixel.x, f.pixel.y, color)
        }
        for (box, label) in drawn.boxes.map({ ($0.box, $0.label) }) {
            svg += String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"rgb(60,255,60)\" stroke-width=\"2\"/>", box.x, box.y, box.width, box.height)
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" fill=\"rgb(60,255,60)\" font-size=\"14\" font-family=\"sans-serif\">%@</text>", box.x, max(14, box.y - 4), escape(label))
        }
        for points in drawn.outlines {
            for p in points where p.x.isFinite && p.y.isFinite {
                svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"rgb(255,100,50)\"/>", p.x, p.y)
            }
        }
        svg += "</svg>"
        let what = [drawn.points.isEmpty ? nil : "\(drawn.points.count) features", drawn.boxes.isEmpty ? nil : "\(drawn.boxes.count) boxes"].compactMap { $0 }
        let caption = "\(overlay.camera) at \(overlay.time.nanoseconds) ns" + (what.isEmpty ? "" : ": " + what.joined(separator: ", "))
        return "<figure>\(svg)<figcaption>\(escape(caption))</figcaption></figure>\n"
    }

    /// The "Frames" section: `overlays` with what the chain found (empty without frames).
    public static func frames(_ overlays: [OverlayFrame]) throws -> String {
        guard !overlays.isEmpty else { return "" }
        var html = "<h2>Frames</h2>\n<p>The first camera at the start, middle and end of the data, with what the chain found there"
            + " (features yellow when new, blue after 20 frames; boxes and landmarks).</p>\n"
        for overlay in overlays { html += try figure(overlay) }
        return html
    }

    /// The "Speed" section: per analyzer, calls and p50/p95/max time per call.
    public static func speed(_ timing: [RunReport.AnalyzerTiming], realtimeFactor: Double) -> String {
        var html = "<h2>Speed</h2>\n<table>\n<tr><th>analyzer</th><th>calls</th><th>p50 (ms)</th><th>p95 (ms)</th><th>max (ms)</th></tr>\n"
        for a in timing {
            html += "<tr><td>\(escape(a.instance))</td><td class=\"n\">\(a.calls)</td>"
                + [a.p50Milliseconds, a.p95Milliseconds, a.maxMilliseconds].map { "<td class=\"n\">\(String(format: "%.3f", $0))</td>" }.joined() + "</tr>\n"
        }
        return html + "</table>\n" + String(format: "<p>%.1f× real time.</p>\n", realtimeFactor)
    }

    /// A two-column table of `rows` (values shown as code).
    public static func facts(_ rows: [(String, String)]) -> String {
        "<table>\n" + rows.map { "<tr><th>\(escape($0.0))</th><td><code>\(escape($0.1))</code></td></tr>" }.joined(separator: "\n") + "\n</table>\n"
    }

    /// Where and how a command ran: its command line, Parallax's version, the machine.
    public static var environment: [(String, String)] {
        let info = ProcessInfo.processInfo
        return [("Parallax", ParallaxVersion.current), ("command", CommandLine.arguments.joined(separator: " ")),
                ("system", info.operatingSystemVersionString), ("processors", "\(info.activeProcessorCount)"),
                ("memory", String(format: "%.1f GiB", Double(info.physicalMemory) / Double(1 << 30)))]
    }

    public static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; padding: 0 1em; color: #222; }
        table { border-collapse: collapse; margin: 1em 0; } th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
        th { background: #f3f3f3; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
        td.ok { color: #176f2c; } td.failed, td.invalid { color: #b00020; font-weight: bold; } td.skipped, td.interrupted { color: #8a6d00; }
        figure { margin: 1em 0; } figure svg, figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
        code { font-size: 0.9em; } .nav { font-size: 0.9em; }
        </style></head>
        <body>
        \(body)
        </body></html>

        """
    }

    /// A case name as a file name: the one rule of ``OutputPath/fileName(_:)``.
    public static func fileName(_ name: String) -> String { OutputPath.fileName(name) }

    public static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
