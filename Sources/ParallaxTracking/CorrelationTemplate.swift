import Foundation
import ParallaxImage
import ParallaxVision

/// What a correlation filter's windows look like, fixed when tracking starts: the window's size
/// around the box (at scale 1), the grid of cells it is resampled to, the FFT of that size, the
/// cosine window, the Gaussian label and kernel, and which cells lie inside the box. It turns a
/// window of a frame into features, learns a filter from features, and computes a filter's
/// response: the parts of KCF that do not change from frame to frame.
struct CorrelationTemplate: Sendable {
    /// The windowed features of one window: values (channel-major, `channels · cells`) and
    /// their spectra.
    struct Features {
        var values: [Float]
        var channels: Int
        var spectra: FeatureSpectra
    }

    /// Feature channels: 31 FHOG and the cells' mean intensity.
    static let channels = HOGFeatures.channels + 1

    let cellSize: Int
    /// Cells across and down (even).
    let cellsX: Int, cellsY: Int
    /// Window size (frame px) at scale 1: the box grown by the padding.
    let windowWidth: Double, windowHeight: Double
    let fft: RealFFT2D
    let kernel: GaussianKernel
    let lambda: Float
    /// The cosine (Hann) window over the cells.
    let window: [Float]
    /// Spectrum of the Gaussian label, peaked at shift (0, 0), cyclic.
    let label: Spectrum
    /// Cells inside the box (not the padding), indices into a channel.
    let boxCells: [Int]
    /// Cells the peak-to-sidelobe ratio leaves out around the peak, each way.
    let peakExclusion: Int

    /// The template of a box of `width × height` px under `settings`.
    init(boxWidth width: Double, boxHeight height: Double, settings: CorrelationFilterTracker.Settings) throws {
        cellSize = settings.cellSize
        lambda = settings.lambda
        let grown = 1 + settings.padding
        windowWidth = width * grown
        windowHeight = height * grown
        // Cells keeping the window's aspect, about templateCells of them, even counts.
        let aspect = windowWidth / windowHeight
        let cy = max(8, Int((Double(settings.templateCells) / aspect).squareRoot() / 2 + 0.5) * 2)
        let cx = max(8, Int(Double(settings.templateCells) / Double(cy) / 2 + 0.5) * 2)
        cellsX = cx
        cellsY = cy
        fft = try RealFFT2D(rows: cy, columns: cx)
        kernel = GaussianKernel(sigma: settings.kernelSigma)
        let hx = (0..<cx).map { 0.5 - 0.5 * cos(2 * Float.pi * Float($0) / Float(cx - 1)) }
        let hy = (0..<cy).map { 0.5 - 0.5 * cos(2 * Float.pi * Float($0) / Float(cy - 1)) }
        window = (0..<(cx * cy)).map { hy[$0 / cx] * hx[$0 % cx] }
        let sigma = (Double(cx * cy) / (grown * grown)).squareRoot() * settings.labelSigma
        var y = [Float](repeating: 0, count: cx * cy)
        for j in 0..<cy {
            let dy = Double(j < cy / 2 ? j : j - cy)
            for i in 0..<cx {
                let dx = Double(i < cx / 2 ? i : i - cx)
                y[j * cx + i] = Float(exp(-0.5 * (dx * dx + dy * dy) / (sigma * sigma)))
            }
        }
        label = fft.forward(y)
        let halfX = Double(cx) / grown / 2, halfY = Double(cy) / grown / 2
        boxCells = (0..<(cx * cy)).filter { i in
            abs(Double(i % cx) + 0.5 - Double(cx) / 2) < halfX && abs(Double(i / cx) + 0.5 - Double(cy) / 2) < halfY
        }
        peakExclusion = max(1, Int((Double(min(cx, cy)) / grown * 0.25).rounded()))
    }

    /// The features of the window centred at `(cx, cy)` (frame px) at `scale`.
    func features(frame: inout FramePyramid, centerX cx: Double, centerY cy: Double, scale: Double) -> Features {
        let cell = cellSize
        let patch = frame.window(centerX: cx, centerY: cy, windowWidth: windowWidth * scale, windowHeight: windowHeight * scale,
                                 width: cellsX * cell, height: cellsY * cell)
        let cells = cellsX * cellsY
        var values = HOGFeatures(patch, cellSize: cell).values
        values.reserveCapacity(Self.channels * cells)
        let pw = patch.width, inverseArea = 1 / Float(cell * cell * 255)
        for cy in 0..<cellsY {
            for cx in 0..<cellsX {
                var sum: Float = 0
                for y in (cy * cell)..<((cy + 1) * cell) {
                    for x in (cx * cell)..<((cx + 1) * cell) { sum += patch.pixels[y * pw + x] }
                }
                values.append(sum * inverseArea - 0.5)
            }
        }
        for c in 0..<Self.channels {
            for i in 0..<cells { values[c * cells + i] *= window[i] }
        }
        return Features(values: values, channels: Self.channels, spectra: FeatureSpectra(features: values, channels: Self.channels, fft: fft))
    }

    /// The filter learned from `x` alone: `α̂ = ŷ / (k̂ˣˣ + λ)`.
    func filter(learnedFrom x: FeatureSpectra) -> Spectrum {
        let k = kernel.correlation(x, x, fft: fft)
        var a = Spectrum(rows: k.rows, columns: k.columns)
        for i in stride(from: 0, to: a.values.count, by: 2) {
            let yr = label.values[i], yi = label.values[i + 1]
            let kr = k.values[i] + lambda, ki = k.values[i + 1]
            let d = kr * kr + ki * ki
            a.values[i] = (yr * kr + yi * ki) / d
            a.values[i + 1] = (yi * kr - yr * ki) / d
        }
        return a
    }

    /// The response of the filter `alpha` over `model` to `z`, for every cyclic shift (cells,
    /// row-major): `F⁻¹(α̂ ⊙ k̂ˣᶻ)`.
    func response(model: FeatureSpectra, alpha: Spectrum, to z: FeatureSpectra) -> [Float] {
        let kz = kernel.correlation(model, z, fft: fft)
        var product = Spectrum(rows: kz.rows, columns: kz.columns)
        for i in stride(from: 0, to: product.values.count, by: 2) {
            let ar = alpha.values[i], ai = alpha.values[i + 1], kr = kz.values[i], ki = kz.values[i + 1]
            product.values[i] = ar * kr - ai * ki
            product.values[i + 1] = ar * ki + ai * kr
        }
        return fft.inverse(product)
    }
}
