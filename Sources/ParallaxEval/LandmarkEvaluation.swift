import Foundation
import ParallaxPayloads
import ParallaxGeometry
import ParallaxSim
import ParallaxMath
import ParallaxBus

/// `landmarks` (simulated data): each ``Landmark`` against the true point of its track — the
/// first observation's ray cast into the scene from the true camera pose; error in metres for
/// true depths of 1–5 m.
public struct LandmarkEvaluation: Evaluation {
    public static let name = "landmarks"
    public static let summary = "triangulated landmarks vs the ray-cast scene points (m; simulated data)"
    public init() {}

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        let (scene, gt) = try input.requireScene(for: Self.name)
        var firstView: [UInt64: (time: Double, normalized: Vector2, bodyFromCamera: SE3)] = [:]
        var ages: [Double] = []
        for p in input.outputs {
            guard let tracks = p.payload as? FeatureTracks, let cal = input.metadata[p.stream]?.camera else { continue }
            for f in tracks.features where firstView[f.id] == nil {
                if let n = f.normalized { firstView[f.id] = (p.timestamp.seconds, n, cal.bodyFromSensor) }
            }
            ages += tracks.ended.map { Double($0.age) }
        }
        var errors: [Double] = []
        for p in input.outputs {
            guard let l = p.payload as? Landmark, let v = firstView[l.id], let body = gt.pose(at: v.time) else { continue }
            let camera = body * v.bodyFromCamera
            let ray = camera.rotation * Vector3(v.normalized.x, v.normalized.y, 1).normalized
            guard let hit = scene.intersect(origin: camera.translation, direction: ray) else { continue }
            let truth = camera.translation + hit.t * ray
            let depth = (camera.inverse * truth).z
            guard depth >= 1, depth <= 5 else { continue }
            errors.append((l.position - truth).norm)
        }
        guard !errors.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "no landmark seen at 1–5 m from a tracked feature (\(firstView.count) tracked feature(s); run feature tracking and triangulate)")
        }
        var result = EvaluationResult(metric: "landmark position error, true depth 1–5 m (m)", statistics: ErrorStatistics(errors))
        let sortedAges = ages.sorted()
        let p90 = ErrorStatistics.percentile(errors, 0.9)
        result.metrics = ["p90_m": p90, "median_track_length": sortedAges.isEmpty ? 0 : sortedAges[sortedAges.count / 2]]
        result.note = String(format: "90th percentile %.4f m over %d landmarks; median track length %.0f frames", p90, errors.count,
                             sortedAges.isEmpty ? 0 : sortedAges[sortedAges.count / 2])
        return result
    }
}
