import Testing
@testable import ParallaxResults

@Suite struct WelchTestTests {
    /// Reference values from scipy.stats.ttest_ind(a, b, equal_var=False).
    @Test func pValuesMatchSciPy() throws {
        let a = [0.91, 1.02, 0.97, 1.05, 0.99], b = [1.11, 1.19, 1.08, 1.21, 1.15]
        let p = try #require(WelchTest.pValue(a, b))
        #expect(abs(p - 0.0014990508816) < 1e-9, "\(p)")
        let c = [1.0, 2.0, 3.0], d = [1.5, 2.5, 3.5, 4.5]
        let q = try #require(WelchTest.pValue(c, d))
        #expect(abs(q - 0.3008027072552) < 1e-9, "\(q)")
    }

    @Test func edgeCases() {
        #expect(WelchTest.pValue([1], [1, 2]) == nil)
        #expect(WelchTest.pValue([2, 2], [2, 2]) == 1)
        #expect(WelchTest.pValue([2, 2], [3, 3]) == 0)
        #expect(abs(WelchTest.regularizedIncompleteBeta(x: 0.3, a: 2, b: 3) - 0.3483) < 1e-4)
    }
}
