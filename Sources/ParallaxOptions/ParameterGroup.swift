/// A struct whose fields are options: each declared with ``Parameter`` (documentation with
/// unit, valid range) where it is used. An algorithm's settings are one, so the algorithm
/// declares its options once, below any bus:
///
/// ```swift
/// public struct Settings: ParameterGroup {
///     @Parameter("detection grid spacing (px)", range: 1...64) public var step = 4
///     @Parameter("RANSAC seed") public var seed: UInt64 = 0
///     public var verbose = false      // not an option: no @Parameter
///     public init() {}
/// }
/// ```
///
/// A group stored in another group (an analyzer's options are the outermost one) adds its
/// parameters to that one's, flat, under their own `snake_case` names: with
/// `var detector = PlaneDetector.Settings()` among an analyzer's options, a chain sets `step=2`
/// (not `detector.step`), and `parallax plugins` lists `step` among the analyzer's own options,
/// sorted by name with them, with its documentation, default, range and choices. The default is
/// the group's value in the outer group's defaults. Every name must be unique across the
/// analyzer's options and its groups: a name declared twice is refused before the analyzer is
/// made. Inside a group only ``Parameter`` fields (and groups) are options; its other stored
/// properties keep their values and are not settable. A group is coded with the synthesized
/// `Codable` (its JSON keys are its property names), and is itself nothing more in JSON than
/// an object of its fields.
public protocol ParameterGroup: Codable, Sendable {}
