import ParallaxMath

extension CameraModel {
    /// The camera whose images are this camera's shrunk by `factor` with area resampling
    /// (``ImageBuffer/areaDownsampled(by:)``): size ⌊size / f⌋, `fx, fy` divided by `f`, and the
    /// principal point moved as every pixel is, `c' = (c + 0.5)/f − 0.5` (pixel centres at
    /// integers). Distortion acts on normalized coordinates and is unchanged, so
    /// `project(p)` of the result is exactly `(project(p) + 0.5)/f − 0.5` of this camera.
    public func binned(by factor: Int) -> CameraModel {
        guard factor > 1 else { return self }
        let f = Double(factor)
        let k = intrinsics
        return CameraModel(width: width / factor, height: height / factor,
                           intrinsics: PinholeIntrinsics(fx: k.fx / f, fy: k.fy / f, cx: (k.cx + 0.5) / f - 0.5, cy: (k.cy + 0.5) / f - 0.5),
                           distortion: distortion)
    }
}
