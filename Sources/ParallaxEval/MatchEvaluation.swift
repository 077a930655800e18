import Foundation
import ParallaxPayloads
import ParallaxGeometry
import ParallaxSim
import ParallaxMath
import ParallaxBus

/// `matches` (simulated data): descriptor matches against the simulator's truth — the
/// reference pixel's ray is cast into the scene from the true reference pose and the hit
/// projected into the true current pose; the error is the matched pixel's distance from that
/// projection (px), over the RANSAC inliers.
public struct MatchEvaluation: Evaluation {
    public static let name = "matches"
    public static let summary = "feature matches vs the ray-cast truth (px; simulated data)"
    public init() {}

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        let (scene, gt) = try input.requireScene(for: Self.name)
        var inlierErrors: [Double] = [], all = 0, correct = 0, inliers = 0, inliersCorrect = 0
        for p in input.outputs {
            guard let m = p.payload as? FeatureMatches, let cal = input.metadata[p.stream]?.camera,
                  let a = gt.pose(at: m.referenceTimestamp), let b = gt.pose(at: p.timestamp) else { continue }
            let referenceCamera = a * cal.bodyFromSensor, currentCamera = b * cal.bodyFromSensor
            for match in m.matches {
                guard let n = try? cal.model.normalized(match.referencePixel) else { continue }
                let ray = referenceCamera.rotation * Vector3(n.x, n.y, 1).normalized
                guard let hit = scene.intersect(origin: referenceCamera.translation, direction: ray),
                      let expected = cal.model.project(currentCamera.inverse * (referenceCamera.translation + hit.t * ray)) else { continue }
                let error = (expected - match.pixel).norm
                all += 1
                if error <= 3 { correct += 1 }
                if match.inlier {
                    inliers += 1
                    if error <= 3 { inliersCorrect += 1 }
                    inlierErrors.append(error)
                }
            }
        }
        func percent(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : 100 * Double(a) / Double(b) }
        guard !inlierErrors.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "no RANSAC inlier match could be compared with the scene (\(all) match(es) compared)")
        }
        var result = EvaluationResult(metric: "matched pixel vs ray-cast truth, RANSAC inliers (px)", statistics: ErrorStatistics(inlierErrors))
        result.metrics = ["matches_within_3px_percent": percent(correct, all), "inliers_within_3px_percent": percent(inliersCorrect, inliers)]
        result.note = String(format: "%d matches, %.1f %% within 3 px of the truth; %d RANSAC inliers, %.1f %% of them within 3 px",
                             all, percent(correct, all), inliers, percent(inliersCorrect, inliers))
        return result
    }
}
