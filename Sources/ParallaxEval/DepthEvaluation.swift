import Foundation
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxSim
import ParallaxBus

/// `depth` (simulated data): each metric depth map a run emits (a ``DepthMap`` of kind depth,
/// such as `stereo-depth`'s `cam0/depth`) against the scene's exact depth, ray cast from the
/// true pose of the camera the map's stream describes (for `stereo-depth`, the rectified left
/// camera) at the map's time. Depth is metres along the optical axis.
///
/// Scored over every ``pixelStride``-th pixel of every ``pixelStride``-th row of every map
/// (the full-resolution error image is of the first map): the share of pixels with a true depth
/// that have a prediction (valid, %), the absolute error of the valid ones (m; the statistics),
/// the mean relative error (AbsRel), the RMSE (m), δ < 1.25 (% of valid predictions within a
/// factor 1.25 of the truth) and the share off by more than 10 % (outliers, %). The same figures
/// for each band of true distance in ``distanceBands``, because a stereo pair's depth error grows
/// with the square of the distance: where the map carries its stereo geometry, each band also
/// gives the error as disparity (px, `|f·B/Z − f·B/Z_true|`), which a good matcher keeps flat.
public struct DepthEvaluation: Evaluation {
    public static let name = "depth"
    public static let summary = "metric depth maps vs the ray-cast scene (m, by distance; simulated data)"
    public init() {}

    /// Band edges of true distance (m): [0, 1), [1, 2), … [8, ∞).
    public static let distanceBands: [Double] = [0, 1, 2, 3, 4, 6, 8, .infinity]
    /// Scored pixels: every 4th of every 4th row (a 752×480 map gives 22,560).
    public static let pixelStride = 4

    /// The scores of one set of pixels.
    public struct Scores: Sendable, Equatable {
        /// Pixels with a true depth.
        public var known = 0
        /// Absolute errors of the valid predictions (m).
        public var errors: [Double] = []
        /// Errors as disparity (px), when the maps carry their stereo geometry.
        public var disparityErrors: [Double] = []
        /// Sum of the relative errors `|Z − Z_true| / Z_true` of the valid predictions.
        public var relativeErrorSum = 0.0
        /// Valid predictions within a factor 1.25 of the truth, and off by more than 10 %.
        public var withinFactor = 0, outliers = 0

        public init() {}

        /// Adds one pixel: `truth` (m, NaN: nothing there), `prediction` (m, NaN: none),
        /// `fB` (focal length × baseline, px·m) when known.
        mutating func add(truth t: Double, prediction p: Double, fB: Double?) {
            guard t.isFinite, t > 0 else { return }
            known += 1
            guard p.isFinite, p > 0 else { return }
            let e = abs(p - t)
            errors.append(e)
            relativeErrorSum += e / t
            if max(p / t, t / p) < 1.25 { withinFactor += 1 }
            if e / t > 0.1 { outliers += 1 }
            if let fB { disparityErrors.append(abs(fB / p - fB / t)) }
        }

        /// The scores of both sets together.
        static func + (a: Scores, b: Scores) -> Scores {
            var s = a
            s.known += b.known
            s.errors += b.errors
            s.disparityErrors += b.disparityErrors
            s.relativeErrorSum += b.relativeErrorSum
            s.withinFactor += b.withinFactor
            s.outliers += b.outliers
            return s
        }

        /// Valid predictions.
        public var valid: Int { errors.count }
        /// Valid predictions in percent of the pixels with a true depth.
        public var validPercent: Double { known > 0 ? 100 * Double(valid) / Double(known) : .nan }
        /// Mean relative error.
        public var absRel: Double { valid > 0 ? relativeErrorSum / Double(valid) : .nan }
        /// Root mean square error (m).
        public var rmse: Double { valid > 0 ? (errors.reduce(0) { $0 + $1 * $1 } / Double(valid)).squareRoot() : .nan }
        /// δ < 1.25 in percent of the valid predictions.
        public var withinFactorPercent: Double { valid > 0 ? 100 * Double(withinFactor) / Double(valid) : .nan }
        /// Valid predictions off by more than 10 %, in percent of the valid ones.
        public var outlierPercent: Double { valid > 0 ? 100 * Double(outliers) / Double(valid) : .nan }
        /// Median absolute error (m).
        public var medianError: Double { valid > 0 ? ErrorStatistics(errors).median : .nan }
        /// Median disparity error (px), when known.
        public var medianDisparityError: Double? { disparityErrors.isEmpty ? nil : ErrorStatistics(disparityErrors).median }
    }

    /// The band of `distance` (m): index into ``distanceBands`` of its lower edge.
    static func band(of distance: Double) -> Int {
        var k = 0
        while k + 2 < distanceBands.count, distance >= distanceBands[k + 1] { k += 1 }
        return k
    }

    /// A band's name: `1-2m`, `8m+`.
    static func bandName(_ k: Int) -> String {
        let lo = distanceBands[k], hi = distanceBands[k + 1]
        return hi.isFinite ? "\(Int(lo))-\(Int(hi))m" : "\(Int(lo))m+"
    }

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        let (scene, gt) = try input.requireScene(for: Self.name)
        var bands = [Scores](repeating: Scores(), count: Self.distanceBands.count - 1)
        var bearingsByCamera: [String: [Vector3]] = [:]
        var maps = 0, withoutPose = 0, withoutCamera: Set<String> = []
        var images: [String: ImageBuffer<UInt8>] = [:]
        for packet in input.outputs {
            guard let map = packet.payload as? DepthMap, map.kind == .depth else { continue }
            guard let camera = input.metadata[packet.stream]?.depth?.camera else { withoutCamera.insert(packet.stream); continue }
            guard map.values.width == camera.model.width, map.values.height == camera.model.height else {
                throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "the depth map of \(packet.stream) at \(packet.timestamp.nanoseconds) ns is "
                                                        + "\(map.values.width)×\(map.values.height), its camera \(camera.model.width)×\(camera.model.height)")
            }
            guard let body = gt.pose(at: packet.timestamp) else { withoutPose += 1; continue }
            let bearings: [Vector3]
            if let known = bearingsByCamera[packet.stream] {
                bearings = known
            } else {
                do { bearings = try TexturedScene.bearings(for: camera.model) } catch {
                    throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "the camera of \(packet.stream) cannot be ray cast: \(error)")
                }
                bearingsByCamera[packet.stream] = bearings
            }
            let worldFromCamera = body * camera.bodyFromSensor
            let fB = map.stereo.map { $0.focalLength * $0.baseline }
            let width = map.values.width
            if maps == 0 {
                let truth = scene.render(camera: camera.model, bearings: bearings, worldFromCamera: worldFromCamera).depth
                images["error-\(maps)"] = Self.errorImage(map.values, truth: truth)
                images["depth-\(maps)"] = Colormap.turbo(map.values, range: 0...Double(truth.samples.filter(\.isFinite).max() ?? 1))
            }
            let origin = worldFromCamera.translation, rotation = worldFromCamera.rotation.matrix
            for y in stride(from: 0, to: map.values.height, by: Self.pixelStride) {
                for x in stride(from: 0, to: width, by: Self.pixelStride) {
                    let b = bearings[y * width + x]
                    guard let hit = scene.intersect(origin: origin, direction: rotation * b) else { continue }
                    let t = hit.t * b.z, p = Double(map.values[x, y])
                    bands[Self.band(of: t)].add(truth: t, prediction: p, fB: fB)
                }
            }
            maps += 1
        }
        let total = bands.reduce(Scores(), +)
        guard total.known > 0 else {
            var reasons: [String] = []
            if !withoutCamera.isEmpty { reasons.append("streams without a camera description: \(withoutCamera.sorted().joined(separator: ", "))") }
            if withoutPose > 0 { reasons.append("\(withoutPose) maps outside the ground truth's time span") }
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: "no metric depth map (a stereo-depth output) met the scene"
                                                    + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))"))
        }
        var result = EvaluationResult(metric: "|depth − truth| of the valid predictions (m)", statistics: ErrorStatistics(total.errors))
        var metrics: [String: Double] = ["maps": Double(maps), "valid_percent": total.validPercent, "abs_rel": total.absRel,
                                         "rmse_m": total.rmse, "delta_1.25_percent": total.withinFactorPercent, "outliers_rel10_percent": total.outlierPercent]
        var notes = [String(format: "%d maps; valid %.1f %%, AbsRel %.4f, RMSE %.4f m, δ<1.25 %.2f %%, >10 %% off %.2f %%",
                            maps, total.validPercent, total.absRel, total.rmse, total.withinFactorPercent, total.outlierPercent)
                     + (withoutPose > 0 ? "; \(withoutPose) maps outside the ground truth's time span not scored" : "")]
        for (k, scores) in bands.enumerated() where scores.known > 0 {
            let name = Self.bandName(k)
            metrics["valid_percent_\(name)"] = scores.validPercent
            guard scores.valid > 0 else { notes.append("\(name): \(scores.known) px, none valid"); continue }
            metrics["median_abs_error_m_\(name)"] = scores.medianError
            metrics["abs_rel_\(name)"] = scores.absRel
            var line = String(format: "%@: %d px, %.1f %% valid, median %.4f m, AbsRel %.4f", name, scores.known, scores.validPercent, scores.medianError, scores.absRel)
            if let d = scores.medianDisparityError {
                metrics["median_disparity_error_px_\(name)"] = d
                line += String(format: " (%.3f px)", d)
            }
            notes.append(line)
        }
        result.metrics = metrics
        result.note = notes.joined(separator: "; ")
        result.images = images
        return result
    }

    /// The error image: black where the truth is unknown, white where a known pixel has no
    /// prediction, else turbo of the relative error over 0…10 % (blue: exact, red: 10 % or more).
    public static func errorImage(_ prediction: ImageBuffer<Float>, truth: ImageBuffer<Float>) -> ImageBuffer<UInt8> {
        ErrorImage.render(prediction, truth: truth, truthFloor: 0) { p, t in Double(abs(p - t) / t) / 0.1 }
    }
}
