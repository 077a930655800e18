import ParallaxOptions

/// The depth sensor's noise, as an option (``PlaneDetector/Settings/noise``, and the depth
/// analyzers' `noise=`): what sets inlier distances, point and distance uncertainties.
public enum DepthNoiseOption: String, CaseIterable, OptionValue {
    /// Structured light (Kinect, Nguyen et al. 2012): 1.2 mm + 1.9 mm/m² · (z − 0.4 m)².
    case kinect
    /// Exact depth (simulated): no noise.
    case exact

    /// The model.
    public var model: DepthNoise { self == .kinect ? .kinect : .none }
}
