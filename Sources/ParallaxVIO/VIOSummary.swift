import ParallaxMath

/// What the estimator did over the run so far: the counts the `vio` analyzer reports when it
/// closes.
public struct VIOSummary: Sendable, Equatable {
    /// The camera–IMU calibration a filter started from and where it is now (or was when it
    /// was reset); the filter's σ of the time offset (s) when it estimates it.
    public struct Calibration: Sendable, Equatable {
        public var initial: VIOCalibration
        public var current: VIOCalibration
        public var timeOffsetSigma: Double?
        /// The frame stamp (ns) at which that filter was reset; `nil` while it runs.
        public var resetAt: Int64?
        /// Whether the data narrowed the σ of the time offset or of the extrinsics by a tenth or
        /// more: `false` when `current` is still the prior (nothing seen that tells them).
        public var observed = true
        /// Whether the filter estimated the extrinsics (else `current`'s are the given ones).
        public var extrinsicsEstimated = true
    }

    /// Resets of the filter (IMU gaps, failures).
    public var resets: Int
    /// Accelerometer readings at full scale.
    public var saturatedReadings: Int
    /// IMU readings skipped: an accelerometer axis beyond twice its full scale (corrupt).
    public var corruptReadings = 0
    /// Moving starts refused since the last start (or the beginning) because the frames and
    /// the IMU did not fit one motion, by reason.
    public var startMisfits: [String: Int] = [:]
    /// Zero-velocity updates made.
    public var zeroVelocityUpdates: Int
    /// Features that updated the filter (or joined it as landmarks).
    public var usedFeatures: Int
    /// Features not used, by reason ("χ² gate", "triangulation: …").
    public var rejectedFeatures: [String: Int]
    /// Relocalizations into the loaded map.
    public var relocalizations: Int
    /// Map-point rows that updated the filter.
    public var mapPointUpdates: Int
    /// The calibration of the running filter, or else of the last one that ran (a run whose
    /// last frames come after the IMU's end resets there, and what it estimated is still said).
    public var calibration: Calibration?
}

extension VIOEstimator {
    /// Filter `f`'s calibration against the one it started from.
    func calibrationSummary(of f: MSCKF, resetAt: Int64?) -> VIOSummary.Calibration? {
        initialCalibration.map {
            VIOSummary.Calibration(initial: $0, current: f.calibration, timeOffsetSigma: f.timeOffsetIndex.map { f.covariance[$0, $0].squareRoot() }, resetAt: resetAt,
                                   observed: f.calibrationObserved, extrinsicsEstimated: f.extrinsicsOffset != nil)
        }
    }

    /// The run so far.
    public var summary: VIOSummary {
        var used = 0
        var rejected: [String: Int] = [:]
        for (reason, count) in msckf.used.merging(slam.used, uniquingKeysWith: +) {
            if let reason { rejected["\(reason)", default: 0] += count } else { used += count }
        }
        let calibration = filter.flatMap { calibrationSummary(of: $0, resetAt: nil) } ?? lastCalibration
        return VIOSummary(resets: resets, saturatedReadings: propagator.saturatedCount, corruptReadings: propagator.beyondScaleCount,
                          startMisfits: initializer.misfits, zeroVelocityUpdates: zeroVelocity.count, usedFeatures: used,
                          rejectedFeatures: rejected, relocalizations: mapping.relocalizationCount, mapPointUpdates: mapping.mapUpdates,
                          calibration: calibration)
    }
}
