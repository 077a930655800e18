import Foundation

/// A multi-channel feature map and its per-channel half spectra: what a correlation filter
/// learns from and searches with.
public struct FeatureSpectra: Sendable {
    /// Channels, each `rows · columns` values (cells), row-major.
    public var channels: Int
    /// Per-channel spectra, concatenated: channel `c`'s interleaved values start at
    /// `2 · c · rows · spectrumColumns`.
    public var spectra: [Float]
    /// `Σ x²` over every channel and cell (the map's squared norm).
    public var squaredNorm: Float

    /// The spectra of `features` (channel-major, `channels · fft.rows · fft.columns` values).
    public init(features: [Float], channels: Int, fft: RealFFT2D) {
        self.channels = channels
        let n = fft.rows * fft.columns, m = 2 * fft.rows * fft.spectrumColumns
        var spectra = [Float](repeating: 0, count: channels * m)
        var one = Spectrum(rows: fft.rows, columns: fft.spectrumColumns)
        var norm: Float = 0
        features.withUnsafeBufferPointer { f in
            for c in 0..<channels {
                let channel = UnsafeBufferPointer(rebasing: f[(c * n)..<((c + 1) * n)])
                for v in channel { norm += v * v }
                fft.forward(channel, into: &one)
                spectra.replaceSubrange((c * m)..<((c + 1) * m), with: one.values)
            }
        }
        self.spectra = spectra
        squaredNorm = norm
    }

    /// `self ← (1 − rate) · self + rate · other` (the model's running average); the squared
    /// norm is that of the blended map (Parseval, from the spectra).
    public mutating func blend(toward other: FeatureSpectra, rate: Float, fft: RealFFT2D) {
        for i in spectra.indices { spectra[i] += rate * (other.spectra[i] - spectra[i]) }
        // Σ x² = (1/N) Σ |X|² over the full spectrum: the kept half counts twice, but for the
        // columns that are their own mirror (0, and columns/2 when columns is even).
        let sc = fft.spectrumColumns, mirrorFree = fft.columns % 2 == 0 ? sc - 1 : -1
        var total: Double = 0
        for k in 0..<(spectra.count / 2) {
            let column = k % sc
            let weight: Double = column == 0 || column == mirrorFree ? 1 : 2
            let re = Double(spectra[2 * k]), im = Double(spectra[2 * k + 1])
            total += weight * (re * re + im * im)
        }
        squaredNorm = Float(total / Double(fft.rows * fft.columns))
    }
}

/// The Gaussian kernel correlation of KCF (Henriques et al., 2015): for every cyclic shift of
/// `z`, `k = exp(−max(0, |x|² + |z|² − 2·⟨x, shifted z⟩) / (σ² · N))` with `N` the number of
/// values (cells × channels); the cross terms for all shifts at once through the spectra:
/// `⟨x, shifted z⟩ = F⁻¹(Σ_c conj(X_c) ⊙ Z_c)`. Returns the kernel's spectrum.
public struct GaussianKernel: Sendable {
    /// σ of the kernel, in units of the features' root-mean-square value (KCF: 0.5 for HOG).
    public var sigma: Float

    public init(sigma: Float) { self.sigma = sigma }

    /// `K̂` for `x` against `z` (both of `fft`'s size).
    public func correlation(_ x: FeatureSpectra, _ z: FeatureSpectra, fft: RealFFT2D) -> Spectrum {
        let m = 2 * fft.rows * fft.spectrumColumns, n = fft.rows * fft.columns
        var cross = Spectrum(rows: fft.rows, columns: fft.spectrumColumns)
        x.spectra.withUnsafeBufferPointer { xs in
            z.spectra.withUnsafeBufferPointer { zs in
                cross.values.withUnsafeMutableBufferPointer { out in
                    for c in 0..<x.channels {
                        let base = c * m
                        for i in stride(from: 0, to: m, by: 2) {
                            let xr = xs[base + i], xi = xs[base + i + 1], zr = zs[base + i], zi = zs[base + i + 1]
                            // conj(x) · z
                            out[i] += xr * zr + xi * zi
                            out[i + 1] += xr * zi - xi * zr
                        }
                    }
                }
            }
        }
        var k = fft.inverse(cross)
        let scale = -1 / (sigma * sigma * Float(n * x.channels))
        let norms = x.squaredNorm + z.squaredNorm
        for i in k.indices { k[i] = expf(max(0, norms - 2 * k[i]) * scale) }
        return fft.forward(k)
    }
}
