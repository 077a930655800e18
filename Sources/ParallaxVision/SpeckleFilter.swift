import ParallaxImage

/// Removes speckles from a disparity image: small patches of disparities that differ from their
/// surroundings, usually mismatches (OpenCV's `filterSpeckles`). Patches are 4-connected
/// regions of valid pixels whose neighbouring values differ by at most `maxStep`.
public enum SpeckleFilter {
    /// Sets every pixel of a patch smaller than `maxSize` pixels to NaN (invalid).
    public static func apply(_ disparity: inout ImageBuffer<Float>, maxSize: Int, maxStep: Float) {
        let w = disparity.width, h = disparity.height
        guard maxSize > 0, w > 0, h > 0 else { return }
        var values = disparity.samples
        var seen = [Bool](repeating: false, count: w * h)
        var stack: [Int] = []
        var patch: [Int] = []
        for start in 0..<(w * h) where !seen[start] && !values[start].isNaN {
            seen[start] = true
            stack.append(start)
            patch.removeAll(keepingCapacity: true)
            while let p = stack.popLast() {
                patch.append(p)
                let x = p % w, y = p / w, v = values[p]
                func visit(_ q: Int) {
                    if !seen[q], !values[q].isNaN, abs(values[q] - v) <= maxStep {
                        seen[q] = true
                        stack.append(q)
                    }
                }
                if x > 0 { visit(p - 1) }
                if x < w - 1 { visit(p + 1) }
                if y > 0 { visit(p - w) }
                if y < h - 1 { visit(p + w) }
            }
            if patch.count < maxSize { for p in patch { values[p] = .nan } }
        }
        disparity = ImageBuffer(width: w, height: h, samples: values)
    }
}
