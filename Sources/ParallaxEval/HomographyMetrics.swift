import ParallaxMath

/// How well matches and an estimated homography agree with a ground-truth homography
/// (HPatches-style evaluation of wide-baseline matching).
public enum HomographyMetrics {
    /// For each match `(a, b)`: distance between `b` and the true position `H_true · a` (px, in
    /// the second image); infinite where `a` maps to infinity.
    public static func matchErrors(_ matches: [(Vector2, Vector2)], truth: Matrix3) -> [Double] {
        matches.map { a, b in truth.transferring(a).map { ($0 - b).norm } ?? .infinity }
    }

    /// Mean distance between the four image corners of the first image mapped by `estimated`
    /// and by `truth` (px, in the second image); HPatches' homography-estimation error.
    public static func cornerError(estimated: Matrix3, truth: Matrix3, width: Int, height: Int) -> Double {
        let corners = [Vector2(0, 0), Vector2(Double(width - 1), 0), Vector2(0, Double(height - 1)), Vector2(Double(width - 1), Double(height - 1))]
        var total = 0.0
        for c in corners {
            guard let e = estimated.transferring(c), let t = truth.transferring(c) else { return .infinity }
            total += (e - t).norm
        }
        return total / 4
    }
}
