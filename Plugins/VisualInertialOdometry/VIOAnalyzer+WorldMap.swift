import ParallaxBus
import ParallaxGeometry
import ParallaxVision

extension VIOAnalyzer {
    /// The world map of option `map`, checked against the tracked `camera`: a map that cannot
    /// be read, was made with another calibration or holds no points is a bad option.
    func loadMap(for camera: CameraCalibration) throws -> WorldMap {
        let loaded: WorldMap
        do { loaded = try WorldMapFile.read(options.map) } catch {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "map", reason: "\(error)")
        }
        if let why = loaded.mismatch(camera: camera.model, bodyFromCamera: camera.bodyFromSensor) {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "map", reason: "\(options.map) was made with another camera calibration: \(why)")
        }
        guard !loaded.points.isEmpty else {
            throw AnalyzerError.invalidOption(analyzer: Self.name, option: "map", reason: "\(options.map) holds no points to relocalize with")
        }
        return loaded
    }
}
