import Foundation

/// Welch's two-sample t-test (unequal variances): whether two sets of values (a metric over
/// seeds, before and after a change) have different means.
public enum WelchTest {
    /// The two-sided p-value for the means of `a` and `b` being equal; `nil` with fewer than two
    /// values on a side. Equal means with no spread give 1, different ones 0.
    public static func pValue(_ a: [Double], _ b: [Double]) -> Double? {
        guard a.count >= 2, b.count >= 2 else { return nil }
        let (ma, va) = meanAndVariance(a), (mb, vb) = meanAndVariance(b)
        let sa = va / Double(a.count), sb = vb / Double(b.count)
        let se2 = sa + sb
        guard se2 > 0 else { return ma == mb ? 1 : 0 }
        let t = (ma - mb) / se2.squareRoot()
        // Welch–Satterthwaite degrees of freedom.
        let df = se2 * se2 / (sa * sa / Double(a.count - 1) + sb * sb / Double(b.count - 1))
        return regularizedIncompleteBeta(x: df / (df + t * t), a: df / 2, b: 0.5)
    }

    /// Mean and unbiased sample variance.
    public static func meanAndVariance(_ v: [Double]) -> (mean: Double, variance: Double) {
        let mean = v.reduce(0, +) / Double(v.count)
        guard v.count > 1 else { return (mean, 0) }
        return (mean, v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(v.count - 1))
    }

    /// I_x(a, b), the regularized incomplete beta function, by its continued fraction (modified
    /// Lentz), using the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) where that converges faster.
    static func regularizedIncompleteBeta(x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let logFront = logGammas + logPowers
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * continuedFraction(x: x, a: a, b: b) / a
        }
        return 1 - exp(logFront) * continuedFraction(x: 1 - x, a: b, b: a) / b
    }

    private static func continuedFraction(x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var f = d
        for m in 1...300 {
            let m = Double(m)
            // Even step.
            var numerator = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + numerator * d; if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            f *= d * c
            // Odd step.
            numerator = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + numerator * d; if abs(d) < tiny { d = tiny }
            c = 1 + numerator / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            f *= delta
            if abs(delta - 1) < 1e-14 { break }
        }
        return f
    }
}
