/// A source that hands on another's packets unchanged and only describes them differently
/// (``CalibratedDatasetSource``): what the wrapped source offers besides its packets (face, box
/// or disparity truth) holds for the wrapper too, and is found through it with
/// ``DatasetSource/provider(_:)``. A source that changes packets (resized frames) must not
/// conform: the truth would no longer fit them.
public protocol WrappedDatasetSource: DatasetSource {
    /// The source whose packets this one hands on.
    var wrapped: any DatasetSource { get }
}

extension DatasetSource {
    /// This source as a `T` (`any FaceTruthProviding`), or else the source it wraps
    /// (``WrappedDatasetSource``), looked through; `nil` when neither is one.
    public func provider<T>(_ type: T.Type) -> T? {
        if let found = self as? T { return found }
        return (self as? any WrappedDatasetSource)?.wrapped.provider(type)
    }

    /// The calibrations given for this source's streams (``CalibrationOverride``), as applied;
    /// empty when none was given.
    public var appliedCalibrations: [AppliedCalibration] { provider(CalibratedDatasetSource.self)?.applied ?? [] }
}
