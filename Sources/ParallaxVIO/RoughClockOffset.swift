/// A rough clock offset found once moving (``ClockOffsetSearch/Outcome/rough(_:)``): where a
/// smooth motion leaves the search's cost a broad valley, its answer can be right (a rendered
/// orbit, camera 100 ms late: −105 ± 16 ms) or far off where the translation mimics a turn
/// (VIOEstimatorTests' orbit, no offset: 102 ± 14 ms). What tells them apart is the filter's own
/// estimate of the offset: linearized at its start, it closes a large offset slowly but heads
/// for it, and stays where it is when it is right.
struct RoughClockOffset: Equatable {
    /// The offset found (s, t_IMU − t_camera) and its σ (s).
    var offset: Double
    var sigma: Double
    /// The filter's estimate of the offset when it was found (s).
    var filter: Double

    /// How far (s) the filter's estimate must have moved toward the offset since the search
    /// before (a second earlier) for it to count. Rendered orbits started moving (bench/vio-
    /// offsets.yaml): camera 100 ms late, the filter went −1.6 → −4.6 → −8.4 ms while the searches
    /// said −105 ± 16, −103 ± 11 ms; 30 ms late −1.1 → −4.6; 100 ms early 6.3 → 11.6. Synchronized,
    /// it moved 0.2–0.9 ms either way from one second to the next.
    static let leadMinimum = 0.002

    /// Whether this answer is the one the filter heads for: the answer `before` (the search
    /// before, a second earlier) was rough too and agrees within 3 σ of the larger σ, and the
    /// filter's estimate moved toward this one since by more than ``leadMinimum``.
    func leadsTheFilter(after before: RoughClockOffset?) -> Bool {
        guard let before, abs(offset - before.offset) <= 3 * max(sigma, before.sigma) else { return false }
        let toward: Double = offset > filter ? 1 : -1
        return (filter - before.filter) * toward > Self.leadMinimum
    }
}
