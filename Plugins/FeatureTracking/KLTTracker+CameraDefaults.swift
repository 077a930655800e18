import Foundation

extension KLTTracker.Settings {
    /// The Lucas–Kanade window and pyramid a camera's images call for, when the chain gives
    /// neither: klt's defaults (21 px, 3 levels), grown where the camera needs more (`klt` notes
    /// which it used). They are never shrunk: at 376×240 (the simulated rig) an 11 px window or
    /// 2 levels shortened the tracks triangulate uses from 25 to 8–9 frames (measured with
    /// `parallax bench`, median track length), so the defaults hold for every camera measured.
    public struct CameraDefaults: Equatable, Sendable {
        /// Window side (px, odd): 21, scaled with the width beyond 1280 px (at most 31), so the
        /// window covers as much of the scene on a large sensor; on an image narrower than two
        /// windows, the largest odd size that fits twice (at least 3).
        public var window: Int
        /// Highest pyramid level: 3, or more when the camera moves further per frame than the
        /// window reaches at level 3 (`f·ω / rate` px for a `motionRadiansPerSecond` turn, against
        /// half a window times `2^levels`), as long as the coarsest side keeps 40 px; fewer only
        /// where the coarsest side would fall below 8 px (tiny images).
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
        let defaults = KLTTracker.Settings()
        let side = max(1, min(width, height))
        let grown = width > 1280 ? min(31, Int((Double(defaults.window) * Double(width) / 1280).rounded()) | 1) : defaults.window
        let window = min(grown, max(3, (side / 2 - 1) | 1))
        // Levels whose coarsest side keeps 8 px: the most any image gets.
        var fitting = 0
        while fitting < 8, side >> (fitting + 1) >= 8 { fitting += 1 }
        // A rate outside what cameras record (0.1–1000 Hz) is not taken as one.
        guard let f = focalLength, let rate = rateHz, f.isFinite, f > 0, rate.isFinite, (0.1...1000).contains(rate) else {
            let ignored = rateHz.map { "; rate_hz \($0) not taken: outside 0.1–1000 Hz" } ?? ""
            return CameraDefaults(window: window, levels: min(defaults.levels, fitting), origin: "the image (\(width)×\(height) px\(ignored))")
        }
        // The coarsest level keeps a 40 px side.
        var bySize = 0
        while bySize < 8, Double(min(width, height)) / Double(1 << (bySize + 1)) >= 40 { bySize += 1 }
        let motion = f * motionRadiansPerSecond / rate  // px per frame
        let byMotion = Int(log2(max(1, motion / Double(window / 2))).rounded(.up))
        let levels = min(max(defaults.levels, min(byMotion, bySize)), fitting)
        return CameraDefaults(window: window, levels: levels,
                              origin: String(format: "the camera (%d×%d px, f %.0f px, %g Hz: %.0f px per frame at %g rad/s)",
                                             width, height, f, rate, motion, motionRadiansPerSecond))
    }
}
