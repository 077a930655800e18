/// Something the estimator did or met that a user should hear of, in the order it happened
/// (the `vio` analyzer words each: a warning for what went wrong, a note for a start or a
/// relocalization).
public enum VIOEvent: Sendable, Equatable {
    /// How the filter started.
    public enum Start: Sendable, Equatable {
        /// From a still IMU (and still features): gravity levels it, the mean gyro is its bias.
        case still
        /// From the closed-form visual-inertial alignment over frames spanning `span` s.
        case moving(span: Double)
    }

    /// Before the start, the rotations the frames and the gyro see agreed best at the camera–IMU
    /// time offset `offset` (s, t_IMU − t_camera; σ `sigma`, from `pairs` pairs of frames,
    /// searched within ± `range` s of `centre`, the offset the frames stood at: the prior, or
    /// after a loss the offset kept from before); the filter starts from `start` (s).
    case clockOffset(offset: Double, sigma: Double, pairs: Int, start: Double, centre: Double, range: Double)
    /// Before the start, the rotations fit better and better toward the end of the searched
    /// range (± `range` s of `centre`), the offset `edge` s (t_IMU − t_camera): the offset lies beyond it.
    case clockOffsetBeyondSearch(edge: Double, centre: Double, range: Double)
    /// Before the start, the rotations the frames show agree with the gyro's at no clock offset
    /// searched (± `range` s of `centre`): the fit's cost is `costPerDegree` times what the
    /// bearings' noise explains. The camera's calibration (its orientation on the body, or the
    /// images' orientation) is likely wrong, or the offset lies beyond the range.
    case rotationMismatch(costPerDegree: Double, centre: Double, range: Double)
    /// Before a moving start the rotations had not determined the offset, and the frames and the
    /// IMU fit one motion clearly best at `offset` (s, t_IMU − t_camera, σ `sigma`): the refined
    /// visual–inertial alignment of `frames` frames, `rms` px RMS there against `rmsBefore` px
    /// (`nil`: no fit) at `centre`, the offset the frames stood at. The start waits
    /// for the next frame, from `offset`.
    case clockOffsetFromAlignment(offset: Double, sigma: Double, frames: Int, rms: Double, rmsBefore: Double?, centre: Double)
    /// The filter started before the search determined the camera–IMU time offset (a still start,
    /// a steady turn, too few frames): it starts from `start` (s) and estimates it online.
    case clockOffsetUndetermined(start: Double)
    /// Once moving, the search (see ``clockOffset(offset:sigma:pairs:start:range:)``) found the
    /// offset the start left undetermined: `offset` (s, σ `sigma`, `pairs` pairs of frames),
    /// against the filter's online estimate `filter` (s, σ `filterSigma`). `restarted`: the two
    /// disagree, and the filter started again from the search's.
    case clockOffsetOnceMoving(offset: Double, sigma: Double, pairs: Int, filter: Double, filterSigma: Double, restarted: Bool)
    /// The start just made came after this many moving starts refused because the frames and
    /// the IMU did not fit one motion, by reason (``DynamicInitializer/Refusal/misfit``): a clock
    /// offset beyond the search or a wrong camera calibration holds a start back so.
    case startAfterMisfits([String: Int])
    /// An IMU sample at `time` (ns) was not finite: skipped, and so will all such samples be
    /// (said once).
    case nonFiniteIMU(time: Int64)
    /// An IMU sample at `time` (ns) read `accelerometer` m/s² and `gyroscope` rad/s on its
    /// largest axes, one beyond twice the accelerometer's full scale
    /// (``VIOSettings/accelerometerRange``) or beyond 140 rad/s: a corrupt record, skipped, and
    /// so will all such samples be (said once; counted in the summary).
    case implausibleIMU(time: Int64, accelerometer: Double, gyroscope: Double)
    /// The filter started at `time` s after the first IMU sample.
    case initialized(time: Double, start: Start)
    /// No IMU data for `seconds` before the frame at `frame` (ns), more than
    /// ``VIOSettings/maxImuGapMs``: the filter was reset.
    case imuGap(seconds: Double, frame: Int64)
    /// No frame for `seconds` before the frame at `frame` (ns), more than
    /// ``VIOSettings/maxCameraGapMs``: the IMU carried the state, and every track seen before the
    /// gap ended there (its observations after it count as a new feature's).
    case cameraGap(seconds: Double, frame: Int64)
    /// The filter failed at the frame at `frame` (ns) for `reason` (diverged, too fast, a
    /// numerical failure): it was reset.
    case failed(frame: Int64, reason: String)
    /// A reset at the frame at `frame` (ns) without a loaded map: the world map keeps what was
    /// mapped before and stops growing (a new start is a new frame).
    case mapFrozen(frame: Int64)
    /// The filter found itself in the loaded map at the frame at `frame` (ns), `time` s after
    /// the first IMU sample, with `inliers` of `matches` descriptor matches, `rmsPixels` px RMS.
    case relocalized(frame: Int64, time: Double, inliers: Int, matches: Int, rmsPixels: Double)
}
