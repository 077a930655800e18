import Foundation
import ParallaxMath

/// How a face's landmarks spread in the image, summed in one pass over them: whether they span an
/// area (a line of landmarks, or one point, fits many poses) and the face's size (√ of the area
/// of their box, px). The moments are taken about the first landmark, so faces far from the
/// image's origin lose no precision.
struct LandmarkSpread {
    /// Landmarks added.
    private(set) var count = 0
    private var origin = Vector2.zero
    private var sum = Vector2.zero
    private var sxx = 0.0, sxy = 0.0, syy = 0.0
    private var lo = Vector2.zero, hi = Vector2.zero

    init() {}

    init(_ points: [Vector2]) {
        for p in points { add(p) }
    }

    /// Adds one landmark (px).
    mutating func add(_ p: Vector2) {
        if count == 0 { origin = p; lo = p; hi = p }
        count += 1
        let d = p - origin
        sum += d
        sxx += d.x * d.x; sxy += d.x * d.y; syy += d.y * d.y
        lo = pointwiseMin(lo, p)
        hi = pointwiseMax(hi, p)
    }

    /// √ of the area of the landmarks' box (px); 0 without landmarks.
    var size: Double { count > 0 ? ((hi.x - lo.x) * (hi.y - lo.y)).squareRoot() : 0 }

    /// Throws unless the landmarks span an area: the square root of the scatter's smaller over
    /// its larger eigenvalue at least ``HeadPoseEstimator/minimumSpreadRatio``. Fewer than three
    /// landmarks pass (the solver says there are too few).
    func requireArea() throws {
        guard count >= 3 else { return }
        let n = Double(count)
        let mean = sum / n
        // Central moments from the ones about the first landmark.
        let cxx = max(0, sxx - n * mean.x * mean.x), cyy = max(0, syy - n * mean.y * mean.y), cxy = sxy - n * mean.x * mean.y
        // Eigenvalues of the 2 × 2 scatter matrix.
        let half = (cxx + cyy) / 2, root = (((cxx - cyy) / 2) * ((cxx - cyy) / 2) + cxy * cxy).squareRoot()
        let major = half + root, minor = max(0, half - root)
        guard major > 0, (minor / major).squareRoot() >= HeadPoseEstimator.minimumSpreadRatio else {
            throw HeadPoseEstimator.FitError.collinear("the landmarks lie on a line (spread across it \(String(format: "%.1f", (minor / n).squareRoot())) px, along it \(String(format: "%.1f", (major / n).squareRoot())) px)")
        }
    }
}
