import Foundation
import Parallax
import ParallaxFiles

extension Scenario.Key: YAMLKnownKeys {}

extension Scenario: Decodable {
    /// A suite's `simulate:` block: every ``Key`` by its `snake_case` name, from the suite
    /// defaults (``init()``), checked by ``validate(given:)``; a problem is located at the value
    /// at fault (``YAMLDecoding``). Relative paths stay as written: ``resolvingPaths(against:)``
    /// makes them the suite folder's.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init()
        func problem(_ p: Problem) -> any Error { decoder.yamlProblem(p.yamlText, at: p.key) }
        func number(_ key: Key) throws -> Double? {
            guard let v = try c.decodeIfPresent(Double.self, forKey: key) else { return nil }
            do { try Self.checkNumber(v, key) } catch { throw problem(error) }
            return v
        }
        func whole(_ key: Key) throws -> Double? {
            guard let v = try number(key) else { return nil }
            guard v == v.rounded() else { throw problem(Problem(key, "must be a whole number, got \(v)")) }
            return v
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: Key, _ type: T.Type) throws -> T? where T.RawValue == String {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let value = T(rawValue: text) else { throw problem(Problem(key, "must be \(T.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")) }
            return value
        }
        if let v = try choice(.scene, Scene.self) { scene = v }
        if let v = try number(.seconds) { seconds = v }
        if let v = try whole(.seed) { seed = UInt64(v) }
        trajectory = try c.decodeIfPresent(String.self, forKey: .trajectory)
        roomAround = try c.decodeIfPresent(String.self, forKey: .roomAround)
        if let v = try number(.still) { still = v }
        if let v = try number(.cameraTimeOffset) { cameraTimeOffset = v }
        if let v = try c.decodeIfPresent([String].self, forKey: .cameras) {
            guard (1...2).contains(v.count) else { throw problem(Problem(.cameras, "must list one or two camera sensor.yaml files")) }
            cameras = v
        }
        if let v = try whole(.width) { width = Int(v) }
        stereo = try c.decodeIfPresent(Bool.self, forKey: .stereo) ?? (cameras.count == 2)
        imu = try c.decodeIfPresent(String.self, forKey: .imu)
        if let v = try c.decodeIfPresent([String].self, forKey: .textures) { textures = v }
        if let v = try number(.depthRate) { depthRate = v }
        if let v = try number(.pixelNoise) { pixelNoise = v }
        if let v = try choice(.depthNoise, DepthNoiseOption.self) { depthNoise = v }
        picture = try c.decodeIfPresent(String.self, forKey: .picture)
        if let v = try number(.pictureWidth) { pictureWidth = v }
        if let v = try choice(.format, Layout.self) { format = v }
        faceModel = try c.decodeIfPresent(String.self, forKey: .faceModel)
        if let v = try number(.landmarkNoise) { landmarkNoise = v }
        if let v = try choice(.motion, ObjectMotion.self) { motion = v }
        do { try validate(given: Set(c.allKeys)) } catch { throw problem(error) }
    }

    /// The scenario with its relative file paths taken from `base` (a suite's folder).
    public func resolvingPaths(against base: URL) -> Scenario {
        func path(_ text: String) -> String { text.hasPrefix("/") ? text : base.appendingPathComponent(text).standardized.path }
        var s = self
        s.trajectory = trajectory.map(path)
        s.roomAround = roomAround.map(path)
        s.cameras = cameras.map(path)
        s.imu = imu.map(path)
        s.textures = textures.map(path)
        s.picture = picture.map(path)
        s.faceModel = faceModel.map(path)
        return s
    }
}
