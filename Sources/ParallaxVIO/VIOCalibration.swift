import ParallaxMath

/// The camera–IMU calibration the estimator carries (and estimates when its settings say so):
/// `T_IC` and the time offset of the camera's stamps.
public struct VIOCalibration: Sendable, Equatable {
    /// `T_IC`: camera to IMU.
    public var imuFromCamera: SE3
    /// `t_d = t_IMU − t_camera` (s): add it to a camera stamp to get the IMU clock's time.
    public var timeOffset: Double

    public init(imuFromCamera: SE3, timeOffset: Double) {
        self.imuFromCamera = imuFromCamera
        self.timeOffset = timeOffset
    }
}
