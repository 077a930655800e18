import Foundation
import Testing
@testable import ParallaxTracking

@Suite struct RealFFT2DTests {
    /// The forward transform against the DFT's definition, and the inverse undoing it, for an
    /// even and an odd width.
    @Test(arguments: [(6, 8), (5, 7)]) func matchesTheDefinitionAndInverts(rows: Int, columns: Int) throws {
        let fft = try RealFFT2D(rows: rows, columns: columns)
        let x = (0..<(rows * columns)).map { Float(sin(Double($0) * 0.7) + Double($0 % 3)) }
        let spectrum = fft.forward(x)
        #expect(spectrum.columns == columns / 2 + 1)
        for u in 0..<rows {
            for v in 0..<fft.spectrumColumns {
                var re = 0.0, im = 0.0
                for r in 0..<rows {
                    for c in 0..<columns {
                        let a = -2 * Double.pi * (Double(u * r) / Double(rows) + Double(v * c) / Double(columns))
                        re += Double(x[r * columns + c]) * cos(a)
                        im += Double(x[r * columns + c]) * sin(a)
                    }
                }
                let k = 2 * (u * fft.spectrumColumns + v)
                #expect(abs(Double(spectrum.values[k]) - re) < 1e-3 && abs(Double(spectrum.values[k + 1]) - im) < 1e-3)
            }
        }
        let back = fft.inverse(spectrum)
        for i in x.indices { #expect(abs(back[i] - x[i]) < 1e-4) }
    }

    @Test func parsevalGivesTheBlendedNorm() throws {
        let fft = try RealFFT2D(rows: 4, columns: 6)
        let a = (0..<48).map { Float($0 % 7) - 3 }, b = (0..<48).map { Float($0 % 5) }
        var x = FeatureSpectra(features: a, channels: 2, fft: fft)
        let y = FeatureSpectra(features: b, channels: 2, fft: fft)
        x.blend(toward: y, rate: 0.25, fft: fft)
        let blended = zip(a, b).map { 0.75 * $0 + 0.25 * $1 }
        #expect(abs(x.squaredNorm - blended.reduce(0) { $0 + $1 * $1 }) < 1e-2)
    }

    @Test func refusesImpossibleSizes() {
        #expect(throws: RealFFT2D.SetupError.size(rows: 0, columns: 4)) { try RealFFT2D(rows: 0, columns: 4) }
    }
}
