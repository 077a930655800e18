/// A colour bar with its range written beside it, appended to the right of a false-colour
/// image, so that a colorized depth map can be read without the tool that made it.
///
/// The bar runs from the range's upper bound (top) to its lower bound (bottom); labels at the
/// top, middle and bottom give their values with the unit (e.g. `4.20 m`), drawn in a 3 × 5
/// pixel font scaled ×2 (digits, point, minus, `m`: all a range needs, no font library).
public enum ColorLegend {
    /// Width (px) the legend adds.
    public static let width = 76

    /// `image` (RGB) with the legend of `map` over `range` to its right.
    public static func appended(to image: ImageBuffer<UInt8>, map: Colormap.Map, range: ClosedRange<Double>, unit: String = "m") -> ImageBuffer<UInt8> {
        let w = image.width + width, h = image.height
        var out = [UInt8](repeating: 255, count: w * h * 3)
        image.withUnsafeSamples { src in
            for y in 0..<h {
                for x in 0..<image.width {
                    for c in 0..<3 { out[(y * w + x) * 3 + c] = image.channels == 3 ? src[(y * image.width + x) * 3 + c] : src[y * image.width + x] }
                }
            }
        }
        // The bar: 12 px wide, 6 px from the image, 8 px margins top and bottom.
        let top = 8, bottom = max(top + 1, h - 9), x0 = image.width + 6
        for y in top...bottom {
            let t = Double(bottom - y) / Double(max(1, bottom - top))
            let color = map.color(t)
            for x in x0..<(x0 + 12) { put(&out, w, x, y, (color.r, color.g, color.b)) }
        }
        let labels = [(range.upperBound, top), ((range.lowerBound + range.upperBound) / 2, (top + bottom) / 2), (range.lowerBound, bottom)]
        for (value, y) in labels {
            let text = format(value) + unit
            draw(text, into: &out, width: w, height: h, x: x0 + 19, y: min(max(0, y - 5), h - 10))
            for x in (x0 + 12)..<(x0 + 15) { put(&out, w, x, y, (0, 0, 0)) }
        }
        return ImageBuffer(width: w, height: h, channels: 3, samples: out)
    }

    /// `value` with two decimals (one when 100 or more).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let decimals = abs(value) >= 100 ? 1 : 2
        let scale = decimals == 1 ? 10.0 : 100.0
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        let digits = String(fraction)
        return (value < 0 && scaled > 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    private static func put(_ out: inout [UInt8], _ w: Int, _ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
        let i = (y * w + x) * 3
        guard i >= 0, i + 2 < out.count else { return }
        out[i] = c.0; out[i + 1] = c.1; out[i + 2] = c.2
    }

    /// Glyph widths other than 3.
    static let wide: [Character: Int] = ["m": 5]

    /// 3 × 5 glyphs (`m` 5 × 5), rows top to bottom, bits left to right.
    static let glyphs: [Character: [UInt8]] = [
        "0": [0b111, 0b101, 0b101, 0b101, 0b111], "1": [0b010, 0b110, 0b010, 0b010, 0b111],
        "2": [0b111, 0b001, 0b111, 0b100, 0b111], "3": [0b111, 0b001, 0b111, 0b001, 0b111],
        "4": [0b101, 0b101, 0b111, 0b001, 0b001], "5": [0b111, 0b100, 0b111, 0b001, 0b111],
        "6": [0b111, 0b100, 0b111, 0b101, 0b111], "7": [0b111, 0b001, 0b010, 0b010, 0b010],
        "8": [0b111, 0b101, 0b111, 0b101, 0b111], "9": [0b111, 0b101, 0b111, 0b001, 0b111],
        ".": [0b000, 0b000, 0b000, 0b000, 0b010], "-": [0b000, 0b000, 0b111, 0b000, 0b000],
        "m": [0b00000, 0b00000, 0b11010, 0b10101, 0b10101], " ": [0, 0, 0, 0, 0],
    ]

    /// Draws `text` in black at `(x, y)` (top-left), each glyph pixel 2 × 2; unknown characters are blank.
    static func draw(_ text: String, into out: inout [UInt8], width: Int, height: Int, x: Int, y: Int) {
        var cx = x
        for ch in text {
            let rows = glyphs[ch] ?? glyphs[" "] ?? []
            let glyphWidth = wide[ch] ?? 3
            for (r, bits) in rows.enumerated() {
                for c in 0..<glyphWidth where bits & (1 << (glyphWidth - 1 - c)) != 0 {
                    for dy in 0..<2 { for dx in 0..<2 {
                        let px = cx + 2 * c + dx, py = y + 2 * r + dy
                        if px < width, py < height { put(&out, width, px, py, (0, 0, 0)) }
                    } }
                }
            }
            cx += 2 * glyphWidth + 2
        }
    }
}
