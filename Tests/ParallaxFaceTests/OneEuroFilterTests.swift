import Foundation
import Testing
import ParallaxFace
import ParallaxMath

@Suite struct OneEuroFilterTests {
    /// A still signal with jitter comes out with far less of it; a ramp comes out with little lag
    /// when beta lets the cutoff rise.
    @Test func jitterIsSmoothedAndMotionFollowed() {
        var rng = SeededGenerator(seed: 3)
        var filter = OneEuroFilter(minCutoff: 1, beta: 0)
        var raw: [Double] = [], out: [Double] = []
        for k in 0..<300 {
            let x = 0.01 * rng.nextGaussian()
            raw.append(x)
            out.append(filter.filter(x, at: Double(k) / 30))
        }
        func spread(_ v: [Double]) -> Double { (v.dropFirst(30).map { $0 * $0 }.reduce(0, +) / Double(v.count - 30)).squareRoot() }
        #expect(spread(out) < 0.5 * spread(raw))

        var slow = OneEuroFilter(minCutoff: 1, beta: 0), fast = OneEuroFilter(minCutoff: 1, beta: 5)
        var lagSlow = 0.0, lagFast = 0.0
        for k in 0..<60 {
            let t = Double(k) / 30, x = 2 * t
            lagSlow = x - slow.filter(x, at: t)
            lagFast = x - fast.filter(x, at: t)
        }
        #expect(lagFast < 0.5 * lagSlow)
        #expect(lagFast > 0)
    }

    @Test func firstAndRepeatedTimesPassUnchanged() {
        var filter = OneEuroFilter()
        #expect(filter.filter(5, at: 1) == 5)
        #expect(filter.filter(7, at: 1) == 7)  // not after the previous: restarts
        #expect(filter.filter(9, at: 1.1) != 9)
    }

    /// The pose smoother on a still, jittering rotation: the filtered one scatters less.
    @Test func poseSmootherSmoothsRotations() {
        var rng = SeededGenerator(seed: 5)
        var smoother = PoseSmoother(minCutoff: 1, beta: 0, rotationBeta: 0)
        let truth = SO3.exp(Vector3(0.1, 0.4, -0.2))
        var rawError = 0.0, filteredError = 0.0
        for k in 0..<200 {
            let noisy = truth * SO3.exp(0.02 * Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()))
            let out = smoother.filter(SE3(rotation: noisy, translation: Vector3(0, 0, 0.5)), at: Double(k) / 30)
            if k >= 30 {
                rawError += (truth.inverse * noisy).angle
                filteredError += (truth.inverse * out.rotation).angle
            }
        }
        #expect(filteredError < 0.5 * rawError)
    }
}
