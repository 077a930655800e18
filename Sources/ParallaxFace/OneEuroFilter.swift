import Foundation
import ParallaxMath

/// The One-Euro filter (Casiez, Roussel and Vogel, CHI 2012): a low-pass filter whose cutoff
/// rises with the signal's speed, so a still signal is smoothed hard (no jitter) and a moving one
/// lightly (little lag).
///
/// Per sample, with `dt` the time since the previous one: the speed is low-passed at
/// `derivativeCutoff`; the cutoff is `minCutoff + beta·|speed|`; the value is low-passed at it,
/// `x̂ += α (x − x̂)` with `α = 1 / (1 + 1/(2π·cutoff·dt))`.
public struct OneEuroFilter: Sendable {
    /// Cutoff at rest (Hz).
    public var minCutoff: Double
    /// How fast the cutoff rises with speed (Hz per unit/s of the signal).
    public var beta: Double
    /// Cutoff of the speed's own low-pass (Hz).
    public var derivativeCutoff: Double
    private var last: (time: Double, value: Double, speed: Double)?

    public init(minCutoff: Double = 1, beta: Double = 0, derivativeCutoff: Double = 1) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }

    /// α for a cutoff (Hz) over `dt` (s).
    static func alpha(cutoff: Double, dt: Double) -> Double { 1 / (1 + 1 / (2 * Double.pi * cutoff * dt)) }

    /// The filtered value of `x` sampled at `time` (s). The first sample passes unchanged; so
    /// does one not after the previous (a repeated or earlier time restarts the filter).
    public mutating func filter(_ x: Double, at time: Double) -> Double {
        guard let last, time > last.time else {
            self.last = (time, x, 0)
            return x
        }
        let dt = time - last.time
        let speed = last.speed + Self.alpha(cutoff: derivativeCutoff, dt: dt) * ((x - last.value) / dt - last.speed)
        let value = last.value + Self.alpha(cutoff: minCutoff + beta * abs(speed), dt: dt) * (x - last.value)
        self.last = (time, value, speed)
        return value
    }

    /// Forgets the past (the next sample passes unchanged).
    public mutating func reset() { last = nil }
}

/// One-Euro filtering of a pose: each translation axis alone (`beta` in Hz per m/s), the
/// rotation along the shortest arc from the last filtered one (`rotationBeta` in Hz per rad/s).
public struct PoseSmoother: Sendable {
    private var axes: [OneEuroFilter]
    private var rotationFilter: OneEuroFilter
    private var rotation: SO3?
    private var rotationAngle = 0.0

    public init(minCutoff: Double = 1, beta: Double = 0.5, rotationBeta: Double = 0.05) {
        axes = [OneEuroFilter](repeating: OneEuroFilter(minCutoff: minCutoff, beta: beta), count: 3)
        rotationFilter = OneEuroFilter(minCutoff: minCutoff, beta: rotationBeta)
    }

    /// The filtered pose of `pose` at `time` (s).
    public mutating func filter(_ pose: SE3, at time: Double) -> SE3 {
        let t = pose.translation
        let translation = Vector3(axes[0].filter(t.x, at: time), axes[1].filter(t.y, at: time), axes[2].filter(t.z, at: time))
        guard let previous = rotation else {
            rotation = pose.rotation
            rotationAngle = 0
            _ = rotationFilter.filter(0, at: time)
            return SE3(rotation: pose.rotation, translation: translation)
        }
        // The rotation travelled, as an angle along the arc to the new one: filter that angle.
        let step = (previous.inverse * pose.rotation).log
        let angle = step.norm
        let travelled = rotationFilter.filter(rotationAngle + angle, at: time)
        let fraction = angle > 1e-12 ? min(1, max(0, (travelled - rotationAngle) / angle)) : 1
        let filtered = previous * SO3.exp(fraction * step)
        rotation = filtered
        rotationAngle = travelled
        return SE3(rotation: filtered, translation: translation)
    }

    public mutating func reset() {
        for i in axes.indices { axes[i].reset() }
        rotationFilter.reset()
        rotation = nil
        rotationAngle = 0
    }
}
