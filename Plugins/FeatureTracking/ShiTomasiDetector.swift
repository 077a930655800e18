import ParallaxImage
import ParallaxMath

/// Shi–Tomasi corners ("good features to track"): the minimum eigenvalue of the gradient
/// structure tensor over a `blockSize` window, kept when ≥ `quality` × the best score, local
/// maxima in 3×3, strongest first with at least `minDistance` px between corners.
public struct ShiTomasiDetector: Sendable {
    /// Most corners returned; default 200.
    public var maxCorners = 200
    /// Relative quality threshold (fraction of the best score); default 0.01.
    public var quality: Float = 0.01
    /// Minimum distance between corners (px); default 10.
    public var minDistance: Float = 10
    /// Structure-tensor window (px, odd); default 3.
    public var blockSize = 3
    /// Pixels this close to the border are ignored (px); default 4.
    public var border = 4

    public init() {}

    /// A scored corner.
    public struct Corner: Sendable, Equatable {
        public var position: Vector2
        public var score: Float
    }

    /// Minimum-eigenvalue score of every pixel (0 at the border).
    public func scores(_ image: GrayImage) -> GrayImage {
        let (dx, dy) = Gradients.sobel(image)
        let w = image.width, h = image.height, r = blockSize / 2
        var out = GrayImage(width: w, height: h)
        // Box sums of dx², dx·dy, dy² via running sums per row then per column.
        var xx = [Float](repeating: 0, count: w * h), xy = xx, yy = xx
        for i in 0..<(w * h) {
            let a = dx.pixels[i], b = dy.pixels[i]
            xx[i] = a * a; xy[i] = a * b; yy[i] = b * b
        }
        func box(_ src: [Float]) -> [Float] {
            var tmp = [Float](repeating: 0, count: w * h), res = tmp
            for y in 0..<h {
                for x in 0..<w {
                    var s: Float = 0
                    for k in -r...r { s += src[y * w + ImagePyramid.reflect(x + k, w)] }
                    tmp[y * w + x] = s
                }
            }
            for y in 0..<h {
                for x in 0..<w {
                    var s: Float = 0
                    for k in -r...r { s += tmp[ImagePyramid.reflect(y + k, h) * w + x] }
                    res[y * w + x] = s
                }
            }
            return res
        }
        let a = box(xx), b = box(xy), c = box(yy)
        for y in border..<max(border, h - border) {
            for x in border..<max(border, w - border) {
                let i = y * w + x
                let half = (a[i] + c[i]) / 2, diff = (a[i] - c[i]) / 2
                out.pixels[i] = half - (diff * diff + b[i] * b[i]).squareRoot()
            }
        }
        return out
    }

    /// Detects corners. `occupied` positions (existing tracks) block new corners within
    /// `minDistance` and count against `maxCorners`.
    public func detect(_ image: GrayImage, occupied: [Vector2] = []) -> [Corner] {
        let s = scores(image)
        let w = s.width, h = s.height
        guard let best = s.pixels.max(), best > 0 else { return [] }
        let threshold = best * quality
        var candidates: [(Float, Int)] = []
        for y in 1..<max(1, h - 1) {
            for x in 1..<max(1, w - 1) {
                let i = y * w + x
                let v = s.pixels[i]
                guard v >= threshold, v > 0 else { continue }
                var isMax = true
                for dy in -1...1 where isMax { for dx in -1...1 where (dx != 0 || dy != 0) && s.pixels[i + dy * w + dx] > v { isMax = false } }
                if isMax { candidates.append((v, i)) }
            }
        }
        // Strongest first; ties by raster order (deterministic).
        candidates.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
        let cell = max(minDistance, 1)
        let gw = Int(Float(w) / cell) + 1, gh = Int(Float(h) / cell) + 1
        var grid = [[Vector2]](repeating: [], count: gw * gh)
        let d2 = Double(minDistance * minDistance)
        func free(_ p: Vector2) -> Bool {
            let cx = Int(Float(p.x) / cell), cy = Int(Float(p.y) / cell)
            for gy in max(0, cy - 1)...min(gh - 1, cy + 1) {
                for gx in max(0, cx - 1)...min(gw - 1, cx + 1) {
                    for q in grid[gy * gw + gx] where ((q - p) * (q - p)).sum() < d2 { return false }
                }
            }
            return true
        }
        func occupy(_ p: Vector2) {
            let cx = min(gw - 1, Int(Float(p.x) / cell)), cy = min(gh - 1, Int(Float(p.y) / cell))
            grid[cy * gw + cx].append(p)
        }
        for p in occupied where p.x >= 0 && p.y >= 0 && p.x < Double(w) && p.y < Double(h) { occupy(p) }
        var out: [Corner] = []
        let budget = maxCorners - occupied.count
        for (v, i) in candidates where out.count < budget {
            let p = Vector2(Double(i % w), Double(i / w))
            if minDistance > 0 && !free(p) { continue }
            occupy(p)
            out.append(Corner(position: p, score: v))
        }
        return out
    }
}
