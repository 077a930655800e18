import Foundation
import Parallax

/// The browser report of a bench run: `report.html` (summary, speed, how it was run) and a page
/// per case under `runs/` (metrics, plots, a few camera frames with what the chain found on
/// them). Every page stands alone: plots are inline SVG, images are data URIs, links are
/// relative — it opens from the file system, offline, and can be mailed as a folder.
/// Written after ``BenchReport`` (whose SVG files it inlines).
enum BenchHTMLReport {
    static func write(suite: BenchSuite, results: [BenchRunner.Result], to folder: URL) throws {
        let runs = folder.appendingPathComponent("runs")
        try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
        func svg(_ file: String) -> String {
            (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
        }
        var body = "<h1>Benchmark report: \(escape(suite.name))</h1>\n"
        body += "<p>Suite <code>\(escape(suite.file))</code>, \(results.count) cases. Metrics are deterministic; times are from this machine and run. "
        body += "Also as <a href=\"report.md\">report.md</a> and <a href=\"report.json\">report.json</a>.</p>\n"
        body += "<table>\n<tr><th>case</th><th>dataset</th><th>status</th><th>metric</th><th>rmse</th><th>mean</th><th>median</th><th>max</th><th>n</th></tr>\n"
        for r in results {
            let link = "<a href=\"runs/\(fileName(r.name)).html\">\(escape(r.name))</a>"
            let status = "<td class=\"\(escape(r.status))\">\(escape(r.status))</td>"
            if r.evaluations.isEmpty {
                body += "<tr><td>\(link)</td><td>\(escape(r.dataset))</td>\(status)<td colspan=\"6\">\(escape(r.note ?? "—"))</td></tr>\n"
            }
            for e in r.evaluations {
                let s = e.result.statistics
                body += "<tr><td>\(link)</td><td>\(escape(r.dataset))</td>\(status)<td>\(escape(e.result.metric))</td>"
                    + [s.rmse, s.mean, s.median, s.max].map { "<td class=\"n\">\(String(format: "%.4f", $0))</td>" }.joined() + "<td class=\"n\">\(s.count)</td></tr>\n"
            }
        }
        body += "</table>\n"
        let timing = svg("timing.svg")
        if !timing.isEmpty { body += "<h2>Speed</h2>\n<figure>\(timing)</figure>\n" }
        body += "<h2>How it was run</h2>\n" + environment(suite: suite)
        try page(title: "Benchmark report: \(suite.name)", body: body).write(to: folder.appendingPathComponent("report.html"), atomically: true, encoding: .utf8)

        for (k, r) in results.enumerated() {
            var body = "<p class=\"nav\"><a href=\"../report.html\">← report</a>"
            if k > 0 { body += " · <a href=\"\(fileName(results[k - 1].name)).html\">← \(escape(results[k - 1].name))</a>" }
            if k + 1 < results.count { body += " · <a href=\"\(fileName(results[k + 1].name)).html\">\(escape(results[k + 1].name)) →</a>" }
            body += "</p>\n<h1>\(escape(r.name))</h1>\n<table>\n"
            body += "<tr><th>status</th><td class=\"\(escape(r.status))\">\(escape(r.status))</td></tr>\n"
            body += "<tr><th>dataset</th><td>\(escape(r.dataset))</td></tr>\n<tr><th>chain</th><td><code>\(escape(r.chain))</code></td></tr>\n"
            if let note = r.note { body += "<tr><th>note</th><td>\(escape(note))</td></tr>\n" }
            let packets = r.packets.sorted { $0.key < $1.key }.map { "\(escape($0.key)) \($0.value)" }.joined(separator: ", ")
            if !packets.isEmpty { body += "<tr><th>packets</th><td>\(packets)</td></tr>\n" }
            body += "</table>\n"
            for e in r.evaluations {
                let s = e.result.statistics
                body += "<h2>\(escape(e.evaluation)): \(escape(e.result.metric))</h2>\n<table>\n<tr><th>rmse</th><th>mean</th><th>median</th><th>max</th><th>n</th></tr>\n<tr>"
                    + [s.rmse, s.mean, s.median, s.max].map { "<td class=\"n\">\(String(format: "%.6g", $0))</td>" }.joined() + "<td class=\"n\">\(s.count)</td></tr>\n</table>\n"
                let metrics = e.result.metrics.sorted { $0.key < $1.key }
                if !metrics.isEmpty {
                    body += "<table>\n" + metrics.map { "<tr><th>\(escape($0.key))</th><td class=\"n\">\(String(format: "%.6g", $0.value))</td></tr>" }.joined(separator: "\n") + "\n</table>\n"
                }
                let plots = ["error", "histogram"].map { "\(r.name)-\(e.evaluation)-\($0).svg" } + (e.result.plots ?? [:]).keys.sorted().map { "\(r.name)-\(e.evaluation)-\($0).svg" }
                for plot in plots { let text = svg(plot); if !text.isEmpty { body += "<figure>\(text)</figure>\n" } }
                for name in (e.result.images ?? [:]).keys.sorted() {
                    if let png = try? Data(contentsOf: folder.appendingPathComponent("\(r.name)-\(e.evaluation)-\(name).png")) {
                        body += "<figure><img alt=\"\(escape(name))\" src=\"data:image/png;base64,\(png.base64EncodedString())\"><figcaption>\(escape(name))</figcaption></figure>\n"
                    }
                }
            }
            if !r.overlays.isEmpty {
                body += "<h2>Frames</h2>\n<p>The first camera at the start, middle and end of the data, with what the chain found there"
                    + " (features yellow when new, blue after 20 frames; boxes and landmarks).</p>\n"
                for overlay in r.overlays { body += try figure(overlay) }
            }
            if !r.timing.isEmpty {
                body += "<h2>Speed</h2>\n<table>\n<tr><th>analyzer</th><th>calls</th><th>p50 (ms)</th><th>p95 (ms)</th><th>max (ms)</th></tr>\n"
                for a in r.timing {
                    body += "<tr><td>\(escape(a.instance))</td><td class=\"n\">\(a.calls)</td>"
                        + [a.p50Milliseconds, a.p95Milliseconds, a.maxMilliseconds].map { "<td class=\"n\">\(String(format: "%.3f", $0))</td>" }.joined() + "</tr>\n"
                }
                body += "</table>\n" + String(format: "<p>%.1f× real time.</p>\n", r.realtimeFactor)
            }
            try page(title: "\(r.name) — \(suite.name)", body: body).write(to: runs.appendingPathComponent("\(fileName(r.name)).html"), atomically: true, encoding: .utf8)
        }
    }

    /// A frame as a JPEG under an SVG layer of its features, boxes and landmarks (pixel
    /// coordinates: the SVG's view box is the image).
    static func figure(_ overlay: OverlayFrame) throws -> String {
        let image = overlay.frame.image, w = image.width, h = image.height
        let jpeg = try ImageEncoder.jpegData(image, quality: 85, name: "\(overlay.camera) at \(overlay.time.nanoseconds) ns")
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" width=\"\(w)\" height=\"\(h)\">"
        svg += "<image width=\"\(w)\" height=\"\(h)\" href=\"data:image/jpeg;base64,\(jpeg.base64EncodedString())\"/>"
        for f in overlay.features {
            let a = min(1, Double(f.age) / 20)
            let color = String(format: "rgb(%d,%d,%d)", Int(255 * (1 - a)), Int(255 * (1 - 0.5 * a)), Int(255 * a))
            svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"none\" stroke=\"%@\" stroke-width=\"1.5\"/>", f.x, f.y, color)
        }
        for (box, label) in overlay.boxes {
            svg += String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"rgb(60,255,60)\" stroke-width=\"2\"/>", box.x, box.y, box.width, box.height)
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" fill=\"rgb(60,255,60)\" font-size=\"14\" font-family=\"sans-serif\">%@</text>", box.x, max(14, box.y - 4), escape(label))
        }
        for points in overlay.landmarks {
            for p in points where p.x.isFinite && p.y.isFinite {
                svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"rgb(255,100,50)\"/>", p.x, p.y)
            }
        }
        svg += "</svg>"
        let what = [overlay.features.isEmpty ? nil : "\(overlay.features.count) features", overlay.boxes.isEmpty ? nil : "\(overlay.boxes.count) boxes"].compactMap { $0 }
        let caption = "\(overlay.camera) at \(overlay.time.nanoseconds) ns" + (what.isEmpty ? "" : ": " + what.joined(separator: ", "))
        return "<figure>\(svg)<figcaption>\(escape(caption))</figcaption></figure>\n"
    }

    /// What the run was: suite, versions, machine, options.
    static func environment(suite: BenchSuite) -> String {
        let info = ProcessInfo.processInfo
        let rows: [(String, String)] = [
            ("suite file", suite.file), ("Parallax", "0.1.0"), ("command", CommandLine.arguments.joined(separator: " ")),
            ("system", info.operatingSystemVersionString), ("processors", "\(info.activeProcessorCount)"),
            ("memory", String(format: "%.1f GiB", Double(info.physicalMemory) / Double(1 << 30))),
        ]
        return "<table>\n" + rows.map { "<tr><th>\(escape($0.0))</th><td><code>\(escape($0.1))</code></td></tr>" }.joined(separator: "\n") + "\n</table>\n"
    }

    static func page(title: String, body: String) -> String {
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

    /// A case name as a file name (letters, digits, `-`, `_`, `.`; anything else `_`).
    static func fileName(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
    }

    static func escape(_ s: String) -> String {
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
