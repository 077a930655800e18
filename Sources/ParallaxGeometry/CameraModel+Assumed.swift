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

    /// A pinhole so far from the scene that it projects like a scaled orthographic (weak-
    /// perspective) camera: focal length ``weakPerspectiveFocalScale`` × the image width, the
    /// principal point at the centre. For benchmarks whose truth was fitted under weak perspective
    /// (AFLW2000-3D, 300W-LP: 3DDFA's `Pose_Para`): angles measured under a nearer pinhole differ
    /// from theirs by the perspective the truth left out — on MediaPipe's canonical face projected
    /// orthographically at the AFLW2000 subset's poses, a pinhole of f = image width reads pitch
    /// 3.4° too high on average (its depth profile is not symmetric top to bottom, so the
    /// perspective it expects is explained by tilting the head), 0.04° at f = 100 × width.
    public static func weakPerspective(width: Int, height: Int) -> CameraModel {
        let w = Double(width), h = Double(height), f = weakPerspectiveFocalScale * w
        return CameraModel(width: width, height: height, intrinsics: PinholeIntrinsics(fx: f, fy: f, cx: (w - 1) / 2, cy: (h - 1) / 2))
    }

    /// Focal length of ``weakPerspective(width:height:)`` in image widths: a face of a third of the
    /// image is then ~3000 face widths away, and its depth (≈ 0.7 × its width) moves no landmark of
    /// a 450 px image by more than 0.1 px against the orthographic projection.
    public static let weakPerspectiveFocalScale = 1000.0

    /// What ``weakPerspective(width:height:)`` assumes, in words.
    public static let weakPerspectiveAssumption = "weak perspective (the truth's projection): focal length = 1000 × image width, principal point at the centre, no distortion"
}
