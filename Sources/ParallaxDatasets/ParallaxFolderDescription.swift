import Foundation
import ParallaxFiles
import ParallaxPayloads

/// A Parallax folder's `parallax.yaml` as written, decoded by ``YAMLDecoding`` (every key known,
/// every error at its line and column): what ``ParallaxFolderSource`` reads its streams from.
struct ParallaxFolderDescription: Decodable {
    /// One `streams:` entry.
    struct Stream: Decodable {
        var name: String
        var type: ParallaxFolder.StreamKind
        /// The stream's `sensor.yaml`, relative to the folder.
        var calibration: String?
        /// Depth units per metre of 16-bit depth PNGs.
        var depthScale: Float = 1000
        var kind: DepthMap.Kind = .depth
        /// The depths the sensor measures, `[near, far]` (m), when the folder says.
        var range: ClosedRange<Double>?
        /// A video file holding the camera's frames, relative to the folder.
        var video: String?
        /// The video's pixels: `rgb` or `gray`.
        var gray = false
        /// Face landmarks: numbers per point (2: u v; 5: u v X Y Z).
        var dimensions = 2
        /// Lines of the values that name files (for errors about those files).
        var line: Int
        var calibrationLine = 0
        var videoLine = 0

        enum CodingKeys: String, YAMLKnownKeys {
            case name, type, calibration, depthScale = "depth_scale", kind, range, video, pixels, dimensions
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            line = decoder.yamlLine ?? 1
            name = try c.decode(String.self, forKey: .name)
            guard !name.isEmpty else { throw decoder.yamlProblem("a stream name may not be empty", at: CodingKeys.name) }
            let typeText = try c.decode(String.self, forKey: .type)
            guard let type = ParallaxFolder.StreamKind(rawValue: typeText) else {
                throw decoder.yamlProblem("unknown stream type '\(typeText)' (camera, imu, depth, accelerometer, face_landmarks, face_anchor, box)", at: CodingKeys.type)
            }
            self.type = type
            calibration = try c.decodeIfPresent(String.self, forKey: .calibration)
            if calibration != nil { calibrationLine = try c.superDecoder(forKey: .calibration).yamlLine ?? line }
            if let scale = try c.decodeIfPresent(Double.self, forKey: .depthScale) {
                guard scale.isFinite, scale > 0 else { throw decoder.yamlProblem("depth_scale must be a number > 0 (units per metre), got \(scale)", at: CodingKeys.depthScale) }
                depthScale = Float(scale)
            }
            if let kindText = try c.decodeIfPresent(String.self, forKey: .kind) {
                guard let kind = DepthMap.Kind(rawValue: kindText) else {
                    throw decoder.yamlProblem("unknown depth kind '\(kindText)' (depth, disparity, pixelDisparity)", at: CodingKeys.kind)
                }
                self.kind = kind
            }
            if let bounds = try c.decodeIfPresent([Double].self, forKey: .range) {
                guard bounds.count == 2, bounds.allSatisfy({ $0.isFinite }), bounds[0] >= 0, bounds[1] > bounds[0] else {
                    throw decoder.yamlProblem("range must be [near, far] in metres with 0 ≤ near < far, got \(bounds)", at: CodingKeys.range)
                }
                range = bounds[0]...bounds[1]
            }
            video = try c.decodeIfPresent(String.self, forKey: .video)
            if video != nil { videoLine = try c.superDecoder(forKey: .video).yamlLine ?? line }
            if let pixels = try c.decodeIfPresent(String.self, forKey: .pixels) {
                guard pixels == "rgb" || pixels == "gray" else { throw decoder.yamlProblem("pixels must be gray or rgb, got '\(pixels)'", at: CodingKeys.pixels) }
                gray = pixels == "gray"
            }
            if let dims = try c.decodeIfPresent(Int.self, forKey: .dimensions) {
                guard dims == 2 || dims == 5 else { throw decoder.yamlProblem("dimensions must be 2 (u v) or 5 (u v X Y Z)", at: CodingKeys.dimensions) }
                dimensions = dims
            }
        }
    }

    var streams: [Stream]
    /// The EuRoC ground-truth CSV, relative to the folder.
    var groundTruth: String?
    var groundTruthLine = 0

    enum CodingKeys: String, YAMLKnownKeys { case format, version, streams, groundTruth = "ground_truth" }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard (try? c.decode(String.self, forKey: .format)) == ParallaxFolder.formatTag else {
            throw decoder.yamlProblem("expected 'format: \(ParallaxFolder.formatTag)'", at: CodingKeys.format)
        }
        let version = try c.decode(Int.self, forKey: .version)
        guard (1...ParallaxFolder.version).contains(version) else {
            throw decoder.yamlProblem("unsupported version \(version) (this build reads versions 1…\(ParallaxFolder.version))", at: CodingKeys.version)
        }
        // Stream names are folder names and stream keys: one each.
        streams = try c.decodeUniquelyNamed(Stream.self, forKey: .streams, name: \.name, what: "stream name")
        groundTruth = try c.decodeIfPresent(String.self, forKey: .groundTruth)
        if groundTruth != nil { groundTruthLine = try c.superDecoder(forKey: .groundTruth).yamlLine ?? 1 }
    }
}
