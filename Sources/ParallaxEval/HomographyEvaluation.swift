import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
import ParallaxDatasets

/// `homography` (image folders with HPatches-style `H_<a>_<b>` files): matches between images
/// `a` and `b` against the ground-truth homography beside them; the error of a match is its
/// distance from `H · reference` (px, in image b). Statistics over the RANSAC inliers; per pair,
/// the share of all matches within 3 px and the corner error of the fitted homography.
public struct HomographyEvaluation: Evaluation {
    public static let name = "homography"
    public static let summary = "matches vs ground-truth homographies H_a_b beside the images (px)"
    public init() {}

    public func evaluate(_ input: EvaluationInput) throws -> EvaluationResult {
        guard let folder = input.dataset as? ImageFolderSource else {
            throw EvaluationError.needs(evaluation: Self.name, what: "a folder of images with ground-truth homographies H_<a>_<b>")
        }
        func stem(_ t: Timestamp) -> String? {
            folder.file(at: t).map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension }
        }
        var inlierErrors: [Double] = [], pairs: [String] = [], missing = 0
        for p in input.outputs {
            guard let m = p.payload as? FeatureMatches, let a = stem(m.referenceTimestamp), let b = stem(p.timestamp) else { continue }
            let file = URL(fileURLWithPath: input.datasetPath).appendingPathComponent("H_\(a)_\(b)").path
            guard FileManager.default.fileExists(atPath: file) else { missing += 1; continue }
            let truth = try HomographyFile.read(path: file)
            let errors = HomographyMetrics.matchErrors(m.matches.map { ($0.referencePixel, $0.pixel) }, truth: truth)
            let inliers = zip(m.matches, errors).filter { $0.0.inlier }.map(\.1)
            inlierErrors += inliers
            var text = String(format: "%@→%@: %d/%d matches within 3 px, %d inliers, median %.2f px", a, b,
                              errors.filter { $0 <= 3 }.count, errors.count, inliers.count, inliers.isEmpty ? .nan : ErrorStatistics(inliers).median)
            if let model = m.model, model.kind == .homography, let frame = folder.files.indices.contains(0) ? folder.files[0] : nil,
               let size = try? ImageDecoder.decode(path: frame).size {
                text += String(format: ", corner error %.1f px", HomographyMetrics.cornerError(estimated: model.matrix, truth: truth, width: size.width, height: size.height))
            }
            pairs.append(text)
        }
        guard !inlierErrors.isEmpty else {
            throw EvaluationError.nothingToEvaluate(evaluation: Self.name, reason: pairs.isEmpty
                ? "no matched pair of images has a ground-truth homography" + (missing > 0 ? " (\(missing) pair(s) without an H_a_b file)" : " (run a matcher)")
                : "no RANSAC inlier among the matches of \(pairs.count) pair(s)")
        }
        var result = EvaluationResult(metric: "matched pixel vs ground-truth homography, RANSAC inliers (px)", statistics: ErrorStatistics(inlierErrors))
        result.note = pairs.joined(separator: "; ") + (missing > 0 ? "; \(missing) pairs without a ground-truth file" : "")
        return result
    }
}
