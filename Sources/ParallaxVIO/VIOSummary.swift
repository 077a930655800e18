import ParallaxMath

/// What the estimator did over the run so far: the counts the `vio` analyzer reports when it
/// closes.
public struct VIOSummary: Sendable, Equatable {
    /// The camera–IMU calibration the running filter started from and where it is now; the
    /// filter's σ of the time offset (s) when it estimates it.
    public struct Calibration: Sendable, Equatable {
        public var initial: VIOCalibration
        public var current: VIOCalibration
        public var timeOffsetSigma: Double?
    }

    /// Resets of the filter (IMU gaps, failures).
    public var resets: Int
    /// Accelerometer readings at full scale.
    public var saturatedReadings: Int
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
    /// The calibration, while a filter runs.
    public var calibration: Calibration?
}

extension VIOEstimator {
    /// The run so far.
    public var summary: VIOSummary {
        var used = 0
        var rejected: [String: Int] = [:]
        for (reason, count) in msckf.used.merging(slam.used, uniquingKeysWith: +) {
            if let reason { rejected["\(reason)", default: 0] += count } else { used += count }
        }
        var calibration: VIOSummary.Calibration?
        if let f = filter, let start = initialCalibration {
            calibration = VIOSummary.Calibration(initial: start, current: f.calibration, timeOffsetSigma: f.timeOffsetIndex.map { f.covariance[$0, $0].squareRoot() })
        }
        return VIOSummary(resets: resets, saturatedReadings: propagator.saturatedCount, zeroVelocityUpdates: zeroVelocity.count, usedFeatures: used,
                          rejectedFeatures: rejected, relocalizations: mapping.relocalizationCount, mapPointUpdates: mapping.mapUpdates,
                          calibration: calibration)
    }
}
