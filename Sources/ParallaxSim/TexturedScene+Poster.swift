import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath

extension TexturedScene {
    /// A known picture on the room's ceiling above `point` (x, y), 1 mm below it: a static
    /// picture for `image-detect` to find and anchor (the simulated cameras look up, as EuRoC's
    /// cam0 on its MAV). The picture frame I (``ImageAnchor``): origin at its centre, x along
    /// world x, y along world y (its rows), z up into the ceiling, away from the viewer.
    /// Returns the scene with the picture and `T_WI`.
    public func hangingPicture(_ picture: ImageBuffer<UInt8>, width: Double, above point: Vector3) -> (scene: TexturedScene, worldFromPicture: SE3, size: Vector2) {
        let ceiling = rectangles.flatMap(\.corners).map(\.z).max() ?? 3
        let height = width * Double(picture.height) / Double(max(1, picture.width))
        let centre = Vector3(point.x, point.y, ceiling - 0.001)
        let rotation = SO3.identity
        let pose = SE3(rotation: rotation, translation: centre)
        let origin = pose * Vector3(-width / 2, -height / 2, 0)
        var scene = self
        scene.rectangles.append(Rectangle(origin: origin, edgeU: rotation * Vector3(width, 0, 0), edgeV: rotation * Vector3(0, height, 0), texture: picture))
        return (scene, pose, Vector2(width, height))
    }
}
