import ParallaxMath

extension CameraModel {
    /// The camera assumed for images that come without a calibration (AFLW2000-3D, a detector's
    /// frames from an uncalibrated stream): focal length = image width (a 53° horizontal field of
    /// view, the usual choice of head-pose work and OpenCV's examples), square pixels, the
    /// principal point at the image centre (pixel centres at integers), no distortion.
    public static func assumed(width: Int, height: Int) -> CameraModel {
        let w = Double(width), h = Double(height)
        return CameraModel(width: width, height: height, intrinsics: PinholeIntrinsics(fx: w, fy: w, cx: (w - 1) / 2, cy: (h - 1) / 2))
    }

    /// What ``assumed(width:height:)`` assumes, in words (for warnings and calibration comments).
    public static let assumption = "focal length = image width (53° horizontal), principal point at the centre, no distortion"
}
