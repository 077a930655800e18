import ParallaxMath

/// One IMU reading, in the IMU frame.
public struct VIOIMUSample: Sendable, Equatable {
    /// When it was taken (ns, IMU clock).
    public var time: Int64
    /// Angular rate (rad/s).
    public var gyroscope: Vector3
    /// Specific force (m/s²).
    public var accelerometer: Vector3

    public init(time: Int64, gyroscope: Vector3, accelerometer: Vector3) {
        self.time = time
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
    }
}

/// One feature tracked in a frame.
public struct VIOFeature: Sendable, Equatable {
    /// Stable identifier for the life of the track.
    public var id: UInt64
    /// Position in the image (px), where the world map describes it.
    public var pixel: Vector2
    /// Undistorted normalized coordinates (`z = 1` plane); `nil`: not used.
    public var normalized: Vector2?
    /// Frames the track has been seen in, this one included (1 = new).
    public var age: Int
    /// The same point in the stereo partner, undistorted and normalized, when matched.
    public var stereoNormalized: Vector2?

    public init(id: UInt64, pixel: Vector2, normalized: Vector2?, age: Int, stereoNormalized: Vector2? = nil) {
        self.id = id
        self.pixel = pixel
        self.normalized = normalized
        self.age = age
        self.stereoNormalized = stereoNormalized
    }
}

/// The feature tracks of one camera frame.
public struct VIOFeatureFrame: Sendable, Equatable {
    /// The frame's stamp (ns, camera clock: the time offset `t_d` takes it to the IMU's).
    public var time: Int64
    /// The live features, ids unique.
    public var features: [VIOFeature]
    /// Ids of the tracks that ended at this frame.
    public var ended: [UInt64]

    public init(time: Int64, features: [VIOFeature], ended: [UInt64]) {
        self.time = time
        self.features = features
        self.ended = ended
    }
}
