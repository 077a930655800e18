import Foundation

/// How sure a correlation filter is of its peak: the peak-to-sidelobe ratio (Bolme et al.,
/// MOSSE 2010) of its response, `(peak − mean) / std` of the response outside a window around
/// the peak, mapped to a confidence in [0, 1] by a logistic curve.
///
/// A clean single peak over a flat sidelobe gives a large PSR; a response of noise a small one.
/// The PSR alone does not tell an absent object: on a still background, a hidden object's window
/// still gave PSR 5–16 in the tests (the padding it learned still matches), so the tracker
/// combines it with the box's own appearance.
public struct ResponseConfidence: Sendable, Equatable {
    /// PSR at confidence ½.
    public var midpoint: Double
    /// PSR change from confidence ½ to ≈ 0.73 (one logistic unit).
    public var width: Double

    public init(midpoint: Double, width: Double) {
        self.midpoint = midpoint
        self.width = width
    }

    /// The tracker's mapping: confidence 0.3 at PSR 5.1, 0.5 at 6.5, 0.9 at 10. Chosen by hand,
    /// not fitted; how well the resulting confidence is calibrated is measured by the `tracking`
    /// evaluation (`confidence_ece`).
    public static let standard = ResponseConfidence(midpoint: 6.5, width: 1.6)

    /// The confidence of a response with this PSR.
    public func confidence(psr: Double) -> Double {
        guard psr.isFinite else { return 0 }
        return 1 / (1 + exp(-(psr - midpoint) / width))
    }

    /// The peak-to-sidelobe ratio of `response` (`rows × columns`, row-major, cyclic) with its
    /// peak at `(px, py)`, the sidelobe being every value farther than `exclusion` cells (each
    /// way, cyclically) from the peak. 0 when the sidelobe is flat or empty.
    public static func peakToSidelobe(_ response: [Float], rows: Int, columns: Int, peakX px: Int, peakY py: Int, exclusion: Int) -> Double {
        var sum = 0.0, sumSquares = 0.0, count = 0
        for y in 0..<rows {
            var dy = abs(y - py)
            dy = min(dy, rows - dy)
            for x in 0..<columns {
                var dx = abs(x - px)
                dx = min(dx, columns - dx)
                guard dx > exclusion || dy > exclusion else { continue }
                let v = Double(response[y * columns + x])
                sum += v
                sumSquares += v * v
                count += 1
            }
        }
        guard count > 1 else { return 0 }
        let mean = sum / Double(count)
        let variance = max(0, sumSquares / Double(count) - mean * mean)
        guard variance > 0 else { return 0 }
        return (Double(response[py * columns + px]) - mean) / variance.squareRoot()
    }
}
