import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles

/// A simulated scene's geometry as text (`scene.txt` beside a simulated folder): one rectangle
/// per line, `ox oy oz ux uy uz vx vy vz` (origin and its two edges, world frame, m), numbers
/// with round-trip precision. It makes a folder written by `parallax simulate` carry its whole
/// ground truth: evaluations that ray-cast the scene (`landmarks`) work on the folder as they do
/// on a simulation in memory.
///
/// Geometry only: textures are not stored, so a scene read back ray-casts exactly (``TexturedScene/intersect(origin:direction:)``)
/// but renders flat gray.
public enum SceneGeometryFile {
    /// The file's name in a simulated folder.
    public static let fileName = "scene.txt"

    /// Writes `scene`'s rectangles to `path`.
    public static func write(_ scene: TexturedScene, to path: String) throws {
        var text = "# one rectangle per line: origin xyz, edge u xyz, edge v xyz [m], world frame (the simulated scene's geometry)\n"
        for r in scene.rectangles {
            text += [r.origin, r.edgeU, r.edgeV].flatMap { [$0.x, $0.y, $0.z] }.map { "\($0)" }.joined(separator: " ") + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The rectangles at `path` (each with a flat gray texture), or an error naming the line.
    public static func read(path: String) throws -> TexturedScene {
        guard let text = FileContents.string(atPath: path) else { throw CalibrationError.unreadable(path: path, reason: "cannot read the file") }
        let flat = ImageBuffer<UInt8>(width: 1, height: 1, channels: 1, samples: [128])
        var rectangles: [TexturedScene.Rectangle] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let values = trimmed.split(separator: " ").compactMap { Double($0) }.filter(\.isFinite)
            guard values.count == 9, trimmed.split(separator: " ").count == 9 else {
                throw CalibrationError.invalidValue(path: path, key: "rectangle", line: i + 1, reason: "expected 9 finite numbers (origin, edge u, edge v), found '\(trimmed)'")
            }
            let u = Vector3(values[3], values[4], values[5]), v = Vector3(values[6], values[7], values[8])
            guard u.cross(v).norm > 0 else {
                throw CalibrationError.invalidValue(path: path, key: "rectangle", line: i + 1, reason: "its edges are parallel or zero: no rectangle")
            }
            rectangles.append(TexturedScene.Rectangle(origin: Vector3(values[0], values[1], values[2]), edgeU: u, edgeV: v, texture: flat))
        }
        guard !rectangles.isEmpty else { throw CalibrationError.invalidValue(path: path, key: "rectangle", line: nil, reason: "no rectangle") }
        return TexturedScene(rectangles: rectangles)
    }
}
