import ParallaxGeometry
import ParallaxMath

/// What the estimator's inputs were sensed with: the tracked camera, the IMU and, when stereo
/// matches are used, the tracked camera's partner.
public struct VIOSensors: Sendable, Equatable {
    /// The camera the features are tracked in (intrinsics, `T_BC`).
    public var camera: CameraCalibration
    /// The IMU (noise, rate, `T_BI`).
    public var imu: IMUCalibration
    /// `T_C1C0`: the stereo partner from the tracked camera, when the features' stereo matches
    /// are to be used; `nil`: monocular.
    public var stereoFromCamera: SE3?

    public init(camera: CameraCalibration, imu: IMUCalibration, stereoFromCamera: SE3? = nil) {
        self.camera = camera
        self.imu = imu
        self.stereoFromCamera = stereoFromCamera
    }
}
