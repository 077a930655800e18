import Foundation
import ParallaxMath

/// Fixations by velocity threshold (I-VT, Salvucci and Goldberg 2000), one sample at a time: a
/// sample whose line of sight turned slower than `speedThreshold` since the previous one is a
/// fixation sample; a run of them lasting at least `minimumDuration` is a fixation, reported
/// when the run ends (or at ``finish()``). Everything else is saccade (or noise).
public struct FixationFilter: Sendable {
    /// Angular speed below which a sample is fixating (°/s).
    public var speedThreshold: Double
    /// Shortest fixation (s).
    public var minimumDuration: Double

    /// One sample as the filter keeps it.
    public struct Sample: Sendable {
        public var time: Double
        public var direction: Vector3
        public var screenPoint: Vector2?
        public init(time: Double, direction: Vector3, screenPoint: Vector2?) {
            self.time = time
            self.direction = direction
            self.screenPoint = screenPoint
        }
    }

    /// A fixation found: its samples' first and last times (s), mean direction and screen point,
    /// dispersion (°) and sample count.
    public struct Found: Sendable, Equatable {
        public var start: Double, end: Double
        public var direction: Vector3
        public var screenPoint: Vector2?
        public var dispersion: Double
        public var samples: Int
    }

    private var previous: Sample?
    private var run: [Sample] = []

    public init(speedThreshold: Double = 30, minimumDuration: Double = 0.1) {
        self.speedThreshold = speedThreshold
        self.minimumDuration = minimumDuration
    }

    /// Adds a sample; returns its angular speed (°/s, 0 for the first), whether it is fixating,
    /// and the fixation that its arrival ended, if any. A time not after the previous one
    /// restarts the filter (the run so far is closed).
    public mutating func add(_ sample: Sample) -> (speed: Double, fixating: Bool, ended: Found?) {
        guard let last = previous, sample.time > last.time else {
            let ended = close()
            previous = sample
            run = [sample]
            return (0, true, ended)
        }
        let angle = acos(max(-1, min(1, last.direction.normalized.dot(sample.direction.normalized)))) * 180 / .pi
        let speed = angle / (sample.time - last.time)
        previous = sample
        if speed < speedThreshold {
            if run.isEmpty { run = [last] }  // the fixation started where the slow movement did
            run.append(sample)
            return (speed, true, nil)
        }
        let ended = close()
        return (speed, false, ended)
    }

    /// Closes the current run: the fixation it makes, if long enough.
    public mutating func finish() -> Found? { close() }

    private mutating func close() -> Found? {
        defer { run = [] }
        guard let first = run.first, let last = run.last, last.time - first.time >= minimumDuration else { return nil }
        let mean = run.reduce(Vector3.zero) { $0 + $1.direction.normalized }.normalized
        let dispersion = run.map { acos(max(-1, min(1, $0.direction.normalized.dot(mean)))) * 180 / .pi }.max() ?? 0
        let points = run.compactMap(\.screenPoint)
        let point = points.isEmpty ? nil : points.reduce(Vector2.zero, +) / Double(points.count)
        return Found(start: first.time, end: last.time, direction: mean, screenPoint: point, dispersion: dispersion, samples: run.count)
    }
}
