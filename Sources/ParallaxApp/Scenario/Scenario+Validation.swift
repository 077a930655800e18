import Foundation
import Parallax

extension Scenario {
    /// A setting of a scenario, with its names in a suite (`snake_case`) and on the command line
    /// (`--kebab-case`), and the scenes that use it.
    public enum Key: String, CaseIterable, Sendable {
        case scene, seconds, seed, trajectory, roomAround = "room_around", still, cameras, width, stereo, imu, textures
        case depthRate = "depth_rate", pixelNoise = "pixel_noise", depthNoise = "depth_noise", picture, pictureWidth = "picture_width"
        case format, faceModel = "face_model", landmarkNoise = "landmark_noise", motion, cameraTimeOffset = "camera_time_offset"

        /// The key in a suite's `simulate:` block.
        public var yamlName: String { rawValue }

        /// The option of `parallax simulate` (without `--`); nil for a key the command spells
        /// otherwise (`cameras` are `--camera-calibration` and `--stereo-calibration`; the
        /// built-in rig's `width` and `stereo` are a suite's).
        public var flagName: String {
            switch self {
            case .cameras: return "camera-calibration"
            case .imu: return "imu-calibration"
            default: return rawValue.replacingOccurrences(of: "_", with: "-")
            }
        }

        /// The scenes that use it; giving it with another scene is an error (it would be
        /// ignored in silence).
        public var scenes: Set<Scene> {
            switch self {
            case .scene, .seconds, .seed, .cameras: return [.room, .face, .object]
            case .trajectory, .roomAround, .still, .stereo, .imu, .depthRate, .depthNoise, .picture, .pictureWidth, .format, .cameraTimeOffset: return [.room]
            case .width, .textures, .pixelNoise: return [.room, .object]
            case .faceModel, .landmarkNoise: return [.face]
            case .motion: return [.object]
            }
        }
    }

    /// Why a scenario cannot be simulated: the key at fault and what is wrong, said by each front
    /// end in its own words (`--seconds must …`, `run 'x' simulate: seconds must …`).
    public struct Problem: Error, Equatable, Sendable {
        /// The key at fault; nil when the problem is not one key's (an unknown key).
        public var key: Key?
        /// What is wrong, without the key's name (`must be a number in 0.05…86400.0 s, got -1.0`).
        public var message: String
        public init(_ key: Key?, _ message: String) { self.key = key; self.message = message }

        /// The problem in a suite's words: `seconds must be …`.
        public var yamlText: String { key.map { "\($0.yamlName) \(message)" } ?? message }
        /// The problem in `parallax simulate`'s words: `--seconds must be …`.
        public var flagText: String { key.map { "--\($0.flagName) \(message)" } ?? message }
    }

    /// The valid range and unit of each numeric key.
    public static let ranges: [Key: (range: ClosedRange<Double>, unit: String)] = [
        .seconds: (0.05...86_400, "s"), .seed: (0...1e15, ""), .still: (0...86_400, "s"), .width: (32...4096, "px"),
        .depthRate: (0...1000, "Hz"), .pixelNoise: (0...255, "gray levels"), .landmarkNoise: (0...100, "px"), .pictureWidth: (0.05...5, "m"),
        .cameraTimeOffset: (-1...1, "s"),
    ]

    /// `value` checked against `key`'s range (a problem naming the range when outside it, or not finite).
    public static func checkNumber(_ value: Double, _ key: Key) throws(Problem) {
        guard let (range, unit) = ranges[key] else { return }
        guard value.isFinite, range.contains(value) else {
            throw Problem(key, "must be a number in \(range.lowerBound)…\(range.upperBound)\(unit.isEmpty ? "" : " " + unit), got \(value)")
        }
    }

    /// Checks the whole scenario: every number in its range, every key `given` used by the
    /// scene, and the rules between keys. `given`: the keys the user set (a default is never
    /// at fault).
    public func validate(given: Set<Key>) throws(Problem) {
        for key in Key.allCases where given.contains(key) && !key.scenes.contains(scene) {
            let scenes = Scene.allCases.filter { key.scenes.contains($0) }.map(\.rawValue).joined(separator: " or ")
            throw Problem(key, "is used only with scene \(scenes), not with scene \(scene.rawValue)")
        }
        try Self.checkNumber(seconds, .seconds)
        try Self.checkNumber(Double(seed), .seed)
        try Self.checkNumber(still, .still)
        try Self.checkNumber(Double(width), .width)
        try Self.checkNumber(depthRate, .depthRate)
        try Self.checkNumber(pixelNoise, .pixelNoise)
        try Self.checkNumber(landmarkNoise, .landmarkNoise)
        try Self.checkNumber(pictureWidth, .pictureWidth)
        try Self.checkNumber(cameraTimeOffset, .cameraTimeOffset)
        if trajectory != nil, still > 0 { throw Problem(.still, "is for the built-in orbit, not with a trajectory") }
        if !cameras.isEmpty {
            guard cameras.count <= 2 else { throw Problem(.cameras, "must list one or two camera sensor.yaml files") }
            if given.contains(.width) { throw Problem(.width, "comes from the cameras' files; leave it out") }
            if given.contains(.stereo), stereo != (cameras.count == 2) { throw Problem(.cameras, "must be two for a stereo pair and one for a single camera (stereo: \(stereo))") }
        }
        if cameras.count == 2, scene != .room { throw Problem(.cameras, "must be one for scene \(scene.rawValue) (a stereo pair is for scene room)") }
        // Settings of something that is not there would be ignored in silence.
        if given.contains(.pictureWidth), picture == nil { throw Problem(.pictureWidth, "is the width of a picture: give the picture too") }
        if given.contains(.depthNoise), depthRate == 0 { throw Problem(.depthNoise, "is the depth maps' noise: give a depth rate above 0 too") }
        if format == .euroc, depthRate > 0 { throw Problem(.format, "euroc cannot hold depth maps: set the depth rate to 0") }
        if scene == .object, textures.isEmpty { throw Problem(.textures, "must list at least one image for scene object (the last covers the object)") }
    }
}
