import ParallaxBus
import ParallaxGeometry
import ParallaxMath

/// One descriptor match between a reference frame and the current frame.
public struct FeatureMatch: Sendable, Codable, Equatable {
    /// Position in the reference frame (px).
    public var referencePixel: Vector2
    /// Position in the current frame (px).
    public var pixel: Vector2
    /// Descriptor distance (bits differing, for 256-bit binary descriptors).
    public var distance: Int
    /// Consistent with the fitted model (always true when no model was fitted).
    public var inlier: Bool

    public init(referencePixel: Vector2, pixel: Vector2, distance: Int, inlier: Bool) {
        self.referencePixel = referencePixel
        self.pixel = pixel
        self.distance = distance
        self.inlier = inlier
    }
}

/// A two-view geometric model fitted to matches.
public struct TwoViewModel: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// `x ~ H x_ref` (a plane, or a camera that only rotates).
        case homography
        /// `xᵀ F x_ref = 0` (general scene and motion).
        case fundamental
    }

    public var kind: Kind
    /// The 3×3 matrix, row-major (9 values).
    public var rowMajor: [Double]

    public init(kind: Kind, matrix: Matrix3) {
        self.kind = kind
        rowMajor = (0..<9).map { matrix[$0 / 3, $0 % 3] }
    }

    /// The matrix.
    public var matrix: Matrix3 {
        Matrix3(rows: Vector3(rowMajor[0], rowMajor[1], rowMajor[2]), Vector3(rowMajor[3], rowMajor[4], rowMajor[5]),
                Vector3(rowMajor[6], rowMajor[7], rowMajor[8]))
    }
}

/// The descriptor matches of one camera frame against a reference frame (wide-baseline
/// matching, relocalization): the output of `orb-match`.
public struct FeatureMatches: Sendable, Codable, Equatable {
    /// Camera stream name.
    public var camera: String
    /// Time of the frame matched against.
    public var referenceTimestamp: Timestamp
    /// Features found in this frame and in the reference frame.
    public var featureCount: Int
    public var referenceFeatureCount: Int
    /// Matches, in the order of the reference frame's features.
    public var matches: [FeatureMatch]
    /// The model fitted by RANSAC, when one was asked for and found. It maps undistorted pixels
    /// (``CameraModel/undistortedPixel(_:)``) when the camera is calibrated, raw pixels otherwise.
    public var model: TwoViewModel?

    /// Matches of one frame; the camera's calibration travels as the stream's metadata.
    public init(camera: String, referenceTimestamp: Timestamp, featureCount: Int, referenceFeatureCount: Int,
                matches: [FeatureMatch], model: TwoViewModel?) {
        self.camera = camera
        self.referenceTimestamp = referenceTimestamp
        self.featureCount = featureCount
        self.referenceFeatureCount = referenceFeatureCount
        self.matches = matches
        self.model = model
    }
}
