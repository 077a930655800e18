import Foundation
import ParallaxImage
import ParallaxMath
import ParallaxVision

/// DSST's scale filter (Danelljan et al. 2014, as CSRT estimates scale): a one-dimensional
/// correlation filter over a pyramid of samples of the box itself at `count` scales `step`
/// apart, each resampled to one small size and described by FHOG cells. Learned per feature
/// dimension in the Fourier domain along the scale axis (`A_d = Ĝ ⊙ conj(F̂_d)`,
/// `B = Σ_d |F̂_d|²`, running averages); the response `F⁻¹(Σ_d A_d ⊙ Ẑ_d / (B + λ))` peaks at
/// the scale change, refined between samples by a parabola. Made for changes of up to about
/// 5 % per frame (within 1 % of the truth, tests): the samples farther out are tapered down, so
/// a jump of 10 % in one frame is not found.
///
/// One dedicated filter instead of running the translation filter at several scales: finer
/// steps (2 % rather than 5 %) at a fraction of the cost, and a box of constant size keeps it
/// (the translation filter's scales favoured the smaller window on smooth textures).
struct ScaleFilter: Sendable {
    /// Scale factors of the samples, ascending; the middle one is 1.
    let factors: [Double]
    let step: Double
    /// Sample size (px): the box's aspect, at most ``maxArea`` px, a whole number of cells.
    let sampleWidth: Int, sampleHeight: Int
    static let cellSize = 4
    /// DSST's scale model area (px).
    static let maxArea = 16.0 * 16.0
    let lambda = 1e-2
    let learningRate: Double
    /// Hann weights over the samples.
    private let taper: [Double]
    /// The label's DFT, its kept half (a Gaussian over the sample index, centred on the middle
    /// sample).
    private let label: [(re: Double, im: Double)]
    /// `cos` and `sin` of 2π·k·j/count for the kept frequencies k < ``half`` (row k).
    private let cosines: [Double], sines: [Double]
    /// Learned numerator per feature dimension (dimension-major, ``half`` frequencies each)
    /// and the shared denominator.
    private var numerator: [(re: Double, im: Double)] = []
    private var denominator: [Double] = []

    /// A filter for a box of `width × height` px with `count` scales `step` apart.
    init(boxWidth: Double, boxHeight: Double, count: Int, step: Double, learningRate: Double) {
        let n = max(3, count | 1)   // odd: no Nyquist frequency
        self.step = step
        self.learningRate = learningRate
        factors = (0..<n).map { pow(step, Double($0 - n / 2)) }
        let shrink = min(1, (Self.maxArea / (boxWidth * boxHeight)).squareRoot())
        func cells(_ v: Double) -> Int { max(2, Int((v * shrink / Double(Self.cellSize)).rounded())) * Self.cellSize }
        sampleWidth = cells(boxWidth)
        sampleHeight = cells(boxHeight)
        taper = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0 + 1) / Double(n + 1)) }
        let h = n / 2 + 1
        var c = [Double](repeating: 0, count: h * n), s = [Double](repeating: 0, count: h * n)
        for k in 0..<h {
            for j in 0..<n {
                let angle = 2 * Double.pi * Double(k * j % n) / Double(n)
                c[k * n + j] = cos(angle)
                s[k * n + j] = sin(angle)
            }
        }
        cosines = c
        sines = s
        let sigma = 0.25 * Double(n).squareRoot()
        let g = (0..<n).map { exp(-0.5 * pow(Double($0 - n / 2) / sigma, 2)) }
        label = (0..<h).map { k in
            var re = 0.0, im = 0.0
            for j in 0..<n { re += g[j] * c[k * n + j]; im -= g[j] * s[k * n + j] }
            return (re, im)
        }
    }

    var count: Int { factors.count }

    /// The samples' features around `(cx, cy)` for a box of `width × height` px: `d × count`
    /// values, dimension-major, tapered.
    private func samples(frame: inout FramePyramid, centerX cx: Double, centerY cy: Double, width: Double, height: Double) -> [Double] {
        var out: [Double] = []
        var dimensions = 0
        var columns: [[Float]] = []
        for f in factors {
            let patch = frame.window(centerX: cx, centerY: cy, windowWidth: width * f, windowHeight: height * f, width: sampleWidth, height: sampleHeight)
            let h = HOGFeatures(patch, cellSize: Self.cellSize).values
            dimensions = h.count
            columns.append(h)
        }
        out.reserveCapacity(dimensions * count)
        for d in 0..<dimensions { for k in 0..<count { out.append(Double(columns[k][d]) * taper[k]) } }
        return out
    }

    /// Frequencies kept of a row's DFT: the rows are real (and `count` odd), so frequency
    /// `count − k` is the conjugate of `k`.
    var half: Int { count / 2 + 1 }

    /// The DFT of each dimension's row of `x` (`count` values each): its first ``half``
    /// frequencies, dimension-major.
    private func transform(_ x: [Double]) -> [(re: Double, im: Double)] {
        let n = count, h = half
        var out = [(re: Double, im: Double)](repeating: (0, 0), count: x.count / n * h)
        for d in 0..<(x.count / n) {
            for k in 0..<h {
                var re = 0.0, im = 0.0
                for j in 0..<n {
                    let v = x[d * n + j]
                    re += v * cosines[k * n + j]
                    im -= v * sines[k * n + j]
                }
                out[d * h + k] = (re, im)
            }
        }
        return out
    }

    /// Learns from the box `width × height` px centred at `(cx, cy)` (the first call sets the
    /// model, later ones blend it in at the learning rate).
    mutating func learn(frame: inout FramePyramid, centerX cx: Double, centerY cy: Double, width: Double, height: Double) {
        let f = transform(samples(frame: &frame, centerX: cx, centerY: cy, width: width, height: height))
        let h = half
        var num = [(re: Double, im: Double)](repeating: (0, 0), count: f.count)
        var den = [Double](repeating: 0, count: h)
        for i in f.indices {
            let g = label[i % h]
            // Ĝ ⊙ conj(F̂)
            num[i] = (g.re * f[i].re + g.im * f[i].im, g.im * f[i].re - g.re * f[i].im)
            den[i % h] += f[i].re * f[i].re + f[i].im * f[i].im
        }
        if numerator.isEmpty {
            numerator = num
            denominator = den
            return
        }
        let r = learningRate
        for i in num.indices { numerator[i] = (numerator[i].re + r * (num[i].re - numerator[i].re), numerator[i].im + r * (num[i].im - numerator[i].im)) }
        for k in 0..<h { denominator[k] += r * (den[k] - denominator[k]) }
    }

    /// The scale change of the box `width × height` px centred at `(cx, cy)`: the factor by
    /// which it should grow (1 when the model is not learned yet).
    func estimate(frame: inout FramePyramid, centerX cx: Double, centerY cy: Double, width: Double, height: Double) -> Double {
        guard !numerator.isEmpty else { return 1 }
        let z = transform(samples(frame: &frame, centerX: cx, centerY: cy, width: width, height: height))
        let n = count, h = half
        guard z.count == numerator.count else { return 1 }
        var spectrum = [(re: Double, im: Double)](repeating: (0, 0), count: h)
        for i in z.indices {
            let a = numerator[i], b = z[i]
            spectrum[i % h].re += a.re * b.re - a.im * b.im
            spectrum[i % h].im += a.re * b.im + a.im * b.re
        }
        // The inverse DFT of a real signal from its kept half: frequency 0 once, the others
        // twice (with their conjugates).
        var response = [Double](repeating: 0, count: n)
        for j in 0..<n {
            var v = 0.0
            for k in 0..<h {
                let d = denominator[k] + lambda
                let term = (spectrum[k].re * cosines[k * n + j] - spectrum[k].im * sines[k * n + j]) / d
                v += k == 0 ? term : 2 * term
            }
            response[j] = v
        }
        var peak = 0
        for j in 1..<n where response[j] > response[peak] { peak = j }
        let offset = peak > 0 && peak < n - 1 ? ParabolaPeak.offset(response[peak - 1], response[peak], response[peak + 1]) : 0
        return factors[peak] * pow(step, offset)
    }
}
