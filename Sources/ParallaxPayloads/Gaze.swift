import ParallaxBus
import ParallaxMath

/// ARKit's blend shapes of one face in one frame (`ARFaceAnchor.blendShapes`): coefficients in
/// [0, 1] by name (`EyeBlinkLeft`, `JawOpen`, … as the recording names them).
public struct FaceBlendShapes: Sendable, Codable, Equatable {
    public var names: [String]
    public var values: [Double]

    public init(names: [String], values: [Double]) {
        self.names = names
        self.values = values
    }

    /// The coefficient called `name`, if present.
    public subscript(name: String) -> Double? { names.firstIndex(of: name).map { values[$0] } }
}

/// Where one face looks in one frame: each eye's line of sight in the camera frame, where the
/// combined line of sight meets the screen, and whether the eye is fixating (I-VT).
public struct GazeSample: Sendable, Codable, Equatable {
    /// Eyeball centres (camera frame, m) and unit lines of sight (camera frame).
    public var leftOrigin: Vector3, leftDirection: Vector3
    public var rightOrigin: Vector3, rightDirection: Vector3
    /// The point on the screen (m from its top-left corner, along its width and height) where
    /// the combined line of sight (from between the eyes, along the mean direction) meets it;
    /// `nil` when it looks away from the screen's plane.
    public var screenPoint: Vector2?
    /// Whether that point lies on the screen.
    public var onScreen: Bool
    /// Angular speed of the combined line of sight since the previous sample (°/s; 0 first).
    public var angularSpeed: Double
    /// Below the I-VT threshold.
    public var fixating: Bool

    public init(leftOrigin: Vector3, leftDirection: Vector3, rightOrigin: Vector3, rightDirection: Vector3,
                screenPoint: Vector2?, onScreen: Bool, angularSpeed: Double, fixating: Bool) {
        self.leftOrigin = leftOrigin
        self.leftDirection = leftDirection
        self.rightOrigin = rightOrigin
        self.rightDirection = rightDirection
        self.screenPoint = screenPoint
        self.onScreen = onScreen
        self.angularSpeed = angularSpeed
        self.fixating = fixating
    }
}

/// A fixation: consecutive samples whose line of sight moves slower than the I-VT threshold,
/// lasting at least the minimum duration.
public struct Fixation: Sendable, Codable, Equatable {
    /// First and last sample (ns on the dataset clock).
    public var start: Timestamp, end: Timestamp
    /// Duration (s): last − first sample.
    public var duration: Double
    /// Mean screen point of its samples that meet the screen's plane (m), `nil` if none does.
    public var screenPoint: Vector2?
    /// Mean combined line of sight (unit, camera frame).
    public var direction: Vector3
    /// Largest angle of a sample's line of sight from the mean (°).
    public var dispersion: Double
    /// Samples in it.
    public var samples: Int

    public init(start: Timestamp, end: Timestamp, duration: Double, screenPoint: Vector2?, direction: Vector3, dispersion: Double, samples: Int) {
        self.start = start
        self.end = end
        self.duration = duration
        self.screenPoint = screenPoint
        self.direction = direction
        self.dispersion = dispersion
        self.samples = samples
    }
}
