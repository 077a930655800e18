/// How much of the place in view the world map holds (ARKit's `ARFrame.WorldMappingStatus`):
/// whether saving the map now would let a later session find its way back here.
///
/// The rule `vio` applies each frame (docs/world-maps.md):
/// - ``notAvailable``: no pose yet (initializing, or the filter reset);
/// - ``limited``: tracking is limited (also while relocalizing into a loaded map), or the map
///   has fewer than 3 keyframes;
/// - ``mapped``: a keyframe made at least 2 s earlier (or loaded with the map) lies within the
///   keyframe spacing of the camera — this view is already in the map;
/// - ``extending``: otherwise — the camera sees new ground the map is growing over.
public enum WorldMappingStatus: String, Sendable, Codable, CaseIterable {
    case notAvailable, limited, extending, mapped
}
