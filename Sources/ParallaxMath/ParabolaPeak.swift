/// Sub-sample peak location: where the parabola through three equally spaced samples
/// `(−1, minus)`, `(0, centre)`, `(1, plus)` has its vertex, for refining the maximum of a
/// sampled response (a correlation filter's peak between cells, a scale between samples).
public enum ParabolaPeak {
    /// The vertex's offset from the centre sample (in sample steps), within −½ … ½; 0 when the
    /// three do not bend down (no maximum between them).
    public static func offset<T: BinaryFloatingPoint>(_ minus: T, _ centre: T, _ plus: T) -> Double {
        let d = Double(minus) - 2 * Double(centre) + Double(plus)
        guard d < 0 else { return 0 }
        return min(0.5, max(-0.5, 0.5 * (Double(minus) - Double(plus)) / d))
    }
}
