/// How much of the place in view the world map holds (ARKit's `ARFrame.WorldMappingStatus`;
/// the bus's `WorldMappingStatus` payload says the same), by ``MapBuilder``'s rule:
/// - ``notAvailable``: no pose yet (initializing, or the filter reset);
/// - ``limited``: tracking is limited (also while relocalizing into a loaded map), or the map
///   has fewer than 3 keyframes;
/// - ``mapped``: a keyframe made at least 2 s earlier (or loaded with the map) lies within the
///   keyframe spacing of the camera;
/// - ``extending``: otherwise, the camera sees new ground the map is growing over.
public enum VIOMappingStatus: Sendable, Equatable, Hashable {
    case notAvailable, limited, extending, mapped
}
