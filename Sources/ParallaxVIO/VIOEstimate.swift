import ParallaxMath

/// The estimator's word on one frame: the body's pose and velocity, their covariance, the IMU
/// biases, how far to trust them, and the world map's status.
public struct VIOEstimate: Sendable, Equatable {
    /// The IMU biases (in the IMU frame).
    public struct Biases: Sendable, Equatable {
        /// Gyroscope bias (rad/s).
        public var gyroscope: Vector3
        /// Accelerometer bias (m/s²).
        public var accelerometer: Vector3

        public init(gyroscope: Vector3, accelerometer: Vector3) {
            self.gyroscope = gyroscope
            self.accelerometer = accelerometer
        }
    }

    /// The frame's stamp (ns, camera clock); the pose is the body's at this time on the IMU
    /// clock.
    public var time: Int64
    /// `T_WB` (world gravity-aligned, z up; m); identity when there is no pose (initializing,
    /// reset, relocalizing).
    public var worldFromBody: SE3
    /// `v_WB` (m/s), when there is a pose.
    public var velocity: Vector3?
    /// 6 × 6 covariance of `(δp, δθ)` in the world frame (m², rad²), when there is a pose.
    public var covariance: Matrix?
    /// The biases, whenever the filter runs (also while relocalizing).
    public var biases: Biases?
    public var trackingState: VIOTrackingState
    /// The world map's status, when the estimator builds one (``VIOSettings/mapping``).
    public var mappingStatus: VIOMappingStatus?

    public init(time: Int64, worldFromBody: SE3 = .identity, velocity: Vector3? = nil, covariance: Matrix? = nil, biases: Biases? = nil,
                trackingState: VIOTrackingState, mappingStatus: VIOMappingStatus? = nil) {
        self.time = time
        self.worldFromBody = worldFromBody
        self.velocity = velocity
        self.covariance = covariance
        self.biases = biases
        self.trackingState = trackingState
        self.mappingStatus = mappingStatus
    }
}
