import ParallaxBus

/// A box as an analyzer option (`box={x: 10, y: 20, width: 64, height: 48}`).
extension BoundingBox: StructuredOptionValue {
    public static var typeDescription: String { "a box {x, y, width, height}" }
}
