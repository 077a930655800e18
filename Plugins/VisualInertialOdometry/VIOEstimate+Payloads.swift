import ParallaxPayloads
import ParallaxVIO

extension TrackingState {
    /// The estimator's tracking state as the bus says it.
    init(_ state: VIOTrackingState) {
        switch state {
        case .normal: self = .normal
        case .notAvailable: self = .notAvailable
        case .limited(.initializing): self = .limited(.initializing)
        case .limited(.excessiveMotion): self = .limited(.excessiveMotion)
        case .limited(.insufficientFeatures): self = .limited(.insufficientFeatures)
        case .limited(.relocalizing): self = .limited(.relocalizing)
        }
    }
}

extension WorldMappingStatus {
    /// The estimator's world-mapping status as the bus says it.
    init(_ status: VIOMappingStatus) {
        switch status {
        case .notAvailable: self = .notAvailable
        case .limited: self = .limited
        case .extending: self = .extending
        case .mapped: self = .mapped
        }
    }
}
