import ParallaxInertial
import ParallaxMath

/// The camera–IMU calibration the estimator carries (and estimates when its settings say so):
/// `T_IC`, the time offset of the camera's stamps and the IMU's scale errors.
public struct VIOCalibration: Sendable, Equatable {
    /// `T_IC`: camera to IMU.
    public var imuFromCamera: SE3
    /// `t_d = t_IMU − t_camera` (s): add it to a camera stamp to get the IMU clock's time.
    public var timeOffset: Double
    /// The IMU's scale errors, by which its readings are corrected before they are integrated.
    public var imuIntrinsics: IMUIntrinsics

    public init(imuFromCamera: SE3, timeOffset: Double, imuIntrinsics: IMUIntrinsics = .none) {
        self.imuFromCamera = imuFromCamera
        self.timeOffset = timeOffset
        self.imuIntrinsics = imuIntrinsics
    }

    /// The IMU's scale errors in percent (accelerometer, gyroscope; per axis of `I`).
    public var imuScalePercent: (accelerometer: Vector3, gyroscope: Vector3) {
        (imuIntrinsics.accelerometerScale * 100, imuIntrinsics.gyroscopeScale * 100)
    }
}
