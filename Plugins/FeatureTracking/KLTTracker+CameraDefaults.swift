import Foundation

extension KLTTracker.Settings {
    /// The Lucas–Kanade window and pyramid a camera's images call for, when the chain gives
    /// neither: the defaults follow the data (`klt` notes which it used).
    public struct CameraDefaults: Equatable, Sendable {
        /// Window side (px, odd): the default 21 px at EuRoC's 752 px width, scaled with the width
        /// (in 9…31), so the window covers the same part of the scene whatever the resolution.
        public var window: Int
        /// Highest pyramid level: enough for the window to follow `motionRadiansPerSecond` at the
        /// camera's rate (`f·ω / rate` px per frame against half a window times `2^levels`), and
        /// no coarser than a 40 px image side; without a rate, the size alone, at most 3.
        public var levels: Int
        /// Why, in words, for the run's note.
        public var origin: String
    }

    /// The angular speed (rad/s) the pyramid is sized to follow: a hand-held or flying camera's
    /// brisk turn (EuRoC's MAV peaks near 1.5 rad/s).
    public static let motionRadiansPerSecond = 2.0

    /// The window and levels for images `width × height` (px) from a camera with focal length
    /// `focalLength` (px) and frame rate `rateHz`, when known.
    public static func cameraDefaults(width: Int, height: Int, focalLength: Double?, rateHz: Double?) -> CameraDefaults {
        let window = min(31, max(9, Int((21 * Double(width) / 752).rounded()) | 1))
        // The coarsest level keeps a 40 px side.
        var bySize = 0
        while bySize < 8, Double(min(width, height)) / Double(1 << (bySize + 1)) >= 40 { bySize += 1 }
        guard let f = focalLength, let rate = rateHz, f.isFinite, f > 0, rate.isFinite, rate > 0 else {
            let levels = min(3, bySize)
            return CameraDefaults(window: window, levels: levels, origin: "the image (\(width)×\(height) px)")
        }
        let motion = f * motionRadiansPerSecond / rate  // px per frame
        let half = Double(window / 2)
        let byMotion = max(1, Int(log2(max(1, motion / half)).rounded(.up)))
        let levels = min(byMotion, bySize)
        return CameraDefaults(window: window, levels: levels,
                              origin: String(format: "the camera (%d×%d px, f %.0f px, %g Hz: %.0f px per frame at %g rad/s)",
                                             width, height, f, rate, motion, motionRadiansPerSecond))
    }
}
