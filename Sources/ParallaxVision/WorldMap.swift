import Foundation
import ParallaxGeometry
import ParallaxMath

/// What world tracking learned about a place, kept to come back to it (ARKit's `ARWorldMap`):
/// keyframes — camera poses with the points they saw — and the points' 3D positions with their
/// binary descriptors, all in the map's world frame (gravity-aligned, z up), plus the camera
/// calibration it was made with (a map is only valid for that camera: descriptors and points
/// depend on it).
///
/// A point is a feature the odometry triangulated from many views; it keeps the ORB
/// descriptors of the keyframes it was seen in (at most ``maxDescriptorsPerPoint``), so it is
/// found again from other viewpoints. Stored as ``WorldMapFile``.
public struct WorldMap: Sendable, Equatable {
    /// One 3D point of the map.
    public struct Point: Sendable, Equatable {
        /// `p_W` (m).
        public var position: Vector3
        /// σ of the position (m): how well it was triangulated.
        public var sigma: Double
        /// Its descriptors as seen from the keyframes (at most ``WorldMap/maxDescriptorsPerPoint``).
        public var descriptors: [BinaryDescriptor]
        public init(position: Vector3, sigma: Double = 0, descriptors: [BinaryDescriptor]) {
            self.position = position
            self.sigma = sigma
            self.descriptors = descriptors
        }
    }

    /// One keyframe: where the camera was and which points it saw where.
    public struct Keyframe: Sendable, Equatable {
        /// Its time in the recording that made the map (ns).
        public var time: Int64
        /// `T_WC`: camera to map world (m).
        public var worldFromCamera: SE3
        /// The points it saw and where.
        public var observations: [Observation]
        public init(time: Int64, worldFromCamera: SE3, observations: [Observation]) {
            self.time = time
            self.worldFromCamera = worldFromCamera
            self.observations = observations
        }
    }

    /// A point seen in a keyframe: its index into ``WorldMap/points`` and the pixel where it
    /// was seen (px, distorted).
    public struct Observation: Sendable, Equatable {
        public var point: Int
        public var pixel: Vector2
        public init(point: Int, pixel: Vector2) {
            self.point = point
            self.pixel = pixel
        }
    }

    /// Descriptors a point keeps (from different keyframes): enough to be found from the views it
    /// was mapped from, few enough to match fast.
    public static let maxDescriptorsPerPoint = 4

    /// The camera the map was made with.
    public var camera: CameraModel
    /// `T_BC`: camera to body (the rig's extrinsics when the map was made).
    public var bodyFromCamera: SE3
    public var keyframes: [Keyframe]
    public var points: [Point]

    public init(camera: CameraModel, bodyFromCamera: SE3, keyframes: [Keyframe] = [], points: [Point] = []) {
        self.camera = camera
        self.bodyFromCamera = bodyFromCamera
        self.keyframes = keyframes
        self.points = points
    }

    /// Why a map does not fit the camera it is used with, or `nil` when it does: the image size,
    /// the intrinsics and the distortion must agree (to 1e-6 relative), the camera's place on
    /// the body to 1 mm and 0.1°.
    public func mismatch(camera other: CameraModel, bodyFromCamera otherExtrinsics: SE3) -> String? {
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(1, abs(a), abs(b)) }
        if camera.width != other.width || camera.height != other.height {
            return "the map was made with a \(camera.width)×\(camera.height) camera, this one is \(other.width)×\(other.height)"
        }
        let a = camera.intrinsics, b = other.intrinsics
        if !close(a.fx, b.fx) || !close(a.fy, b.fy) || !close(a.cx, b.cx) || !close(a.cy, b.cy) {
            return "the map was made with intrinsics fx \(a.fx) fy \(a.fy) cx \(a.cx) cy \(a.cy), this camera has fx \(b.fx) fy \(b.fy) cx \(b.cx) cy \(b.cy)"
        }
        if camera.distortion.name != other.distortion.name
            || !zip(camera.distortion.coefficients, other.distortion.coefficients).allSatisfy({ close($0, $1) }) {
            return "the map was made with \(camera.distortion.name) distortion \(camera.distortion.coefficients), this camera has \(other.distortion.name) \(other.distortion.coefficients)"
        }
        let d = bodyFromCamera.inverse * otherExtrinsics
        if d.translation.norm > 1e-3 || d.rotation.angle > 0.1 * .pi / 180 {
            return String(format: "the map was made with the camera %.1f mm and %.2f° elsewhere on the body", d.translation.norm * 1000, d.rotation.angle * 180 / .pi)
        }
        return nil
    }
}
