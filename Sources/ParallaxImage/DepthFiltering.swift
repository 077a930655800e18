import CKernels
import Foundation

/// Filters for depth images (m, NaN where invalid): the steps depth SDKs run before using depth.
public enum DepthFiltering {
    /// `depth` with values outside `range` (and non-finite ones) made invalid (NaN).
    public static func clamp(_ depth: ImageBuffer<Float>, to range: ClosedRange<Float>) -> ImageBuffer<Float> {
        let samples = depth.samples.map { v -> Float in v.isFinite && range.contains(v) ? v : .nan }
        return ImageBuffer(width: depth.width, height: depth.height, samples: samples)
    }

    /// Edge-preserving smoothing (a bilateral filter): each valid pixel becomes the weighted
    /// mean of the valid pixels within `radius`, weighted by `exp(−d²/2σs²)` for their image
    /// distance `d` (px) and `exp(−Δz²/2σr(z)²)` for their depth difference, `σr(z)` given per
    /// depth (the sensor's noise, so a step of many σ, an edge, is kept); with a `guide`
    /// (gray, same size) also by `exp(−ΔI²/2σg²)`: the joint bilateral filter, which keeps the
    /// colour image's edges too. Invalid pixels stay invalid.
    public static func bilateral(_ depth: ImageBuffer<Float>, radius: Int, sigmaSpace: Double, sigmaRange: (Float) -> Float,
                                 guide: ImageBuffer<UInt8>? = nil, sigmaGuide: Double = 10) -> ImageBuffer<Float> {
        bilateral(depth, radius: radius, sigmaSpace: sigmaSpace, sigmaRange: sigmaRange, guide: guide, sigmaGuide: sigmaGuide, kernelLevel: -1)
    }

    /// ``bilateral(_:radius:sigmaSpace:sigmaRange:guide:sigmaGuide:)`` on CKernels' variant
    /// `kernelLevel` (−1: the processor's best; tests pass each and compare).
    static func bilateral(_ depth: ImageBuffer<Float>, radius: Int, sigmaSpace: Double, sigmaRange: (Float) -> Float,
                          guide: ImageBuffer<UInt8>?, sigmaGuide: Double, kernelLevel: Int32) -> ImageBuffer<Float> {
        let w = depth.width, h = depth.height, r = max(0, radius)
        guard r > 0, w > 0, h > 0 else { return depth }
        let guide = guide.flatMap { $0.width == w && $0.height == h && $0.channels == 1 ? $0 : nil }
        var spatial = [Float](repeating: 0, count: (2 * r + 1) * (2 * r + 1))
        for dy in -r...r { for dx in -r...r {
            spatial[(dy + r) * (2 * r + 1) + dx + r] = Float(exp(-Double(dx * dx + dy * dy) / (2 * sigmaSpace * sigmaSpace)))
        } }
        // Range weights from tables: exp(−q) for q = Δz²/2σr² sampled over 0…4.5 (beyond, 1 %
        // and less, the neighbour is across an edge: weight 0), and the guide's exp(−ΔI²/2σg²)
        // per |ΔI|. Tables, not exp per neighbour: 5× faster, the same result on every run.
        let cutoff: Float = 4.5, steps = 1023
        let rangeTable = (0...steps).map { Float(exp(-Double($0) * Double(cutoff) / Double(steps))) } + [0]
        let guideTable = (0...255).map { Float(exp(-Double($0 * $0) / (2 * sigmaGuide * sigmaGuide))) }
        // Each valid centre's scale from Δz² to the range table's index (σr from the caller's
        // closure, once per run of equal depths along the rows: depth maps repeat their values);
        // the window sums in C (CKernels: 16 pixels at once where the processor has AVX-512 or
        // AVX2, each lane the same operations in the same order as one pixel alone: the same
        // bits as the Swift loop gave before).
        let toIndex = Self.rangeScales(depth, steps: steps, cutoff: cutoff, sigmaRange: sigmaRange)
        let guideSamples = guide?.samples
        // The table's exponent step: the AVX-512 variant computes its entries from it.
        let rangeStep = Double(cutoff) / Double(steps)
        // The C loop writes every pixel (invalid ones as they are).
        let out = [Float](unsafeUninitializedCapacity: w * h) { o, initialized in
            depth.withUnsafeSamples { z in
                toIndex.withUnsafeBufferPointer { ti in
                rangeTable.withUnsafeBufferPointer { rt in
                guideTable.withUnsafeBufferPointer { gt in
                spatial.withUnsafeBufferPointer { sp in
                    guard let z = z.baseAddress, let ti = ti.baseAddress, let rt = rt.baseAddress, let gt = gt.baseAddress,
                          let sp = sp.baseAddress, let o = o.baseAddress else { return }
                    let run = { (g: UnsafePointer<UInt8>?) in
                        parallax_bilateral_rows(z, ti, Int32(w), Int32(h), Int32(r), sp, rt, Int32(steps), rangeStep, g, gt, 0, Int32(h), o,
                                                kernelLevel)
                    }
                    if let guideSamples { guideSamples.withUnsafeBufferPointer { run($0.baseAddress) } } else { run(nil) }
                    initialized = w * h
                }
                }
                }
                }
            }
        }
        // (Every buffer above has an address: w, h > 0.)
        guard out.count == w * h else { return depth }
        return ImageBuffer(width: w, height: h, samples: out)
    }

    /// Each pixel's scale from Δz² (m²) to the range table's index, `steps / (cutoff · 2σr²)`
    /// with `σr = max(sigmaRange(z), 10⁻⁶ m)` at its depth `z` (0 where `z` is not finite; NaN
    /// where the closure gives NaN). The closure runs once per run of equal depths.
    static func rangeScales(_ depth: ImageBuffer<Float>, steps: Int, cutoff: Float, sigmaRange: (Float) -> Float) -> [Float] {
        let count = depth.samples.count
        return depth.samples.withUnsafeBufferPointer { z in
            [Float](unsafeUninitializedCapacity: count) { scales, initialized in
                var lastBits: UInt32 = Float.nan.bitPattern, lastScale: Float = 0
                for i in 0..<count {
                    let c = z[i]
                    if !c.isFinite {
                        scales.initializeElement(at: i, to: 0)
                        continue
                    }
                    if c.bitPattern != lastBits {
                        let s = max(sigmaRange(c), 1e-6)
                        lastBits = c.bitPattern
                        lastScale = Float(steps) / (cutoff * 2 * s * s)
                    }
                    scales.initializeElement(at: i, to: lastScale)
                }
                initialized = count
            }
        }
    }

    /// `depth` with its small holes filled: each 4-connected region of invalid pixels of at
    /// most `maxArea` pixels that does not touch the image border is filled from its rim, ring
    /// by ring inward, each pixel the median of its already valid 8-neighbours. Larger holes
    /// (and those open to the border: what lies beyond is unknown) stay invalid.
    public static func fillHoles(_ depth: ImageBuffer<Float>, maxArea: Int) -> ImageBuffer<Float> {
        let w = depth.width, h = depth.height
        guard maxArea > 0, w > 0, h > 0 else { return depth }
        var z = depth.samples
        var label = [Int32](repeating: -1, count: w * h)
        var stack: [Int] = []
        for start in 0..<(w * h) where !z[start].isFinite && label[start] < 0 {
            var region: [Int] = []
            var border = false
            label[start] = 0
            stack.append(start)
            while let i = stack.popLast() {
                region.append(i)
                let x = i % w, y = i / w
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 { border = true }
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < w && ny < h {
                    let n = ny * w + nx
                    if !z[n].isFinite && label[n] < 0 { label[n] = 0; stack.append(n) }
                }
            }
            guard !border, region.count <= maxArea else { continue }
            var pending = Set(region)
            while !pending.isEmpty {
                // This ring: the pending pixels with a valid neighbour, filled together.
                var ring: [(Int, Float)] = []
                for i in pending.sorted() {
                    let x = i % w, y = i / w
                    var values: [Float] = []
                    for ny in max(0, y - 1)...min(h - 1, y + 1) { for nx in max(0, x - 1)...min(w - 1, x + 1) where z[ny * w + nx].isFinite {
                        values.append(z[ny * w + nx])
                    } }
                    guard !values.isEmpty else { continue }
                    values.sort()
                    ring.append((i, values.count % 2 == 1 ? values[values.count / 2] : (values[values.count / 2 - 1] + values[values.count / 2]) / 2))
                }
                guard !ring.isEmpty else { break }
                for (i, v) in ring { z[i] = v; pending.remove(i) }
            }
        }
        return ImageBuffer(width: w, height: h, samples: z)
    }
}
