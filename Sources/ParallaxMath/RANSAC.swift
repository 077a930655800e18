import Foundation

/// Random sample consensus over any model type, deterministic by seed.
///
/// Scoring is MSAC (truncated quadratic: `Σ min(r², τ²)`), which ranks models better than
/// plain inlier counting at the same cost. The iteration budget adapts to the best inlier
/// ratio seen: `N = log(1 − confidence) / log(1 − wˢ)`, capped by ``maxIterations``.
///
/// ```swift
/// var ransac = RANSAC<Line>(minimalSampleSize: 2, threshold: 0.5)
/// let result = try ransac.run(dataCount: points.count,
///                             fit: { idx in Line(through: points[idx[0]], points[idx[1]]) },
///                             residual: { line, i in line.distance(to: points[i]) })
/// ```
public struct RANSAC<Model> {
    /// Points in a minimal sample (e.g. 8 for the 8-point fundamental matrix).
    public var minimalSampleSize: Int
    /// Inlier threshold τ on the residual, in the residual's unit (e.g. px).
    public var threshold: Double
    /// Probability of drawing at least one all-inlier sample; default 0.999.
    public var confidence: Double
    /// Hard cap on iterations; default 1000.
    public var maxIterations: Int
    /// Seed of the sampling sequence; default 0.
    public var seed: UInt64

    /// A configured estimator.
    public init(minimalSampleSize: Int, threshold: Double, confidence: Double = 0.999, maxIterations: Int = 1000, seed: UInt64 = 0) {
        self.minimalSampleSize = minimalSampleSize
        self.threshold = threshold
        self.confidence = confidence
        self.maxIterations = maxIterations
        self.seed = seed
    }

    /// The winning model and its support.
    public struct Result {
        /// The best model (refitted on all inliers when a `refit` was given and succeeded).
        public let model: Model
        /// Indices of the data points within the threshold, ascending.
        public let inliers: [Int]
        /// Iterations performed.
        public let iterations: Int
    }

    /// Why RANSAC found nothing.
    public enum RANSACError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Fewer data points than a minimal sample needs.
        case notEnoughData(count: Int, needed: Int)
        /// Every minimal sample was degenerate (fit returned nil) or no model had an inlier.
        case noModel(iterations: Int)

        public var description: String {
            switch self {
            case let .notEnoughData(c, n): return "RANSAC: \(c) data points, a minimal sample needs \(n)"
            case let .noModel(it): return "RANSAC: no model found in \(it) iterations (all samples degenerate)"
            }
        }
    }

    /// Runs the estimator.
    /// - Parameters:
    ///   - dataCount: number of data points, addressed by index.
    ///   - fit: a model from a minimal sample of distinct indices, or `nil` if degenerate.
    ///   - residual: the residual of point `i` under a model (non-negative, same unit as τ).
    ///   - refit: optional: a model from all inlier indices (least squares), tried at the end.
    public func run(dataCount: Int,
                    fit: ([Int]) -> Model?,
                    residual: (Model, Int) -> Double,
                    refit: (([Int]) -> Model?)? = nil) throws -> Result {
        guard dataCount >= minimalSampleSize, minimalSampleSize > 0 else {
            throw RANSACError.notEnoughData(count: dataCount, needed: minimalSampleSize)
        }
        var rng = SeededGenerator(seed: seed)
        let tau2 = threshold * threshold
        var best: (model: Model, cost: Double, inliers: Int)?
        var budget = maxIterations
        var iteration = 0
        var sample = [Int](repeating: 0, count: minimalSampleSize)
        while iteration < budget {
            iteration += 1
            drawSample(into: &sample, from: dataCount, using: &rng)
            guard let model = fit(sample) else { continue }
            var cost = 0.0
            var inliers = 0
            for i in 0..<dataCount {
                let r = residual(model, i)
                let r2 = r.isFinite ? r * r : .infinity
                if r2 <= tau2 { inliers += 1; cost += r2 } else { cost += tau2 }
            }
            if inliers > 0, best.map({ cost < $0.cost }) ?? true {
                best = (model, cost, inliers)
                let w = Double(inliers) / Double(dataCount)
                let allInlier = pow(w, Double(minimalSampleSize))
                if allInlier >= 1 - 1e-12 {
                    budget = iteration
                } else if allInlier > 0 {
                    let needed = log(1 - confidence) / log(1 - allInlier)
                    if needed.isFinite { budget = min(budget, max(iteration, Int(needed.rounded(.up)))) }
                }
            }
        }
        guard var winner = best?.model else { throw RANSACError.noModel(iterations: iteration) }
        var inlierIndices = indices(of: winner, dataCount: dataCount, residual: residual)
        if let refit, inlierIndices.count >= minimalSampleSize, let refined = refit(inlierIndices) {
            let refinedInliers = indices(of: refined, dataCount: dataCount, residual: residual)
            if refinedInliers.count >= inlierIndices.count {
                winner = refined
                inlierIndices = refinedInliers
            }
        }
        return Result(model: winner, inliers: inlierIndices, iterations: iteration)
    }

    private func indices(of model: Model, dataCount: Int, residual: (Model, Int) -> Double) -> [Int] {
        (0..<dataCount).filter { residual(model, $0) <= threshold }
    }

    /// Draws `sample.count` distinct indices from `0..<n` (rejection; samples are tiny).
    private func drawSample(into sample: inout [Int], from n: Int, using rng: inout SeededGenerator) {
        var k = 0
        while k < sample.count {
            let candidate = Int(rng.next() % UInt64(n))
            if !sample[0..<k].contains(candidate) {
                sample[k] = candidate
                k += 1
            }
        }
    }
}
