import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
import ParallaxCodecs
import ParallaxGeometry
import ParallaxImage
import ParallaxVision

/// The known pictures of `image-track` and `image-detect`: loaded from the `reference` files
/// with their `width`s, one ``PlanarTargetTracker`` each, updated together every frame (one LK
/// pyramid and, only when a picture is looked for, one set of ORB features per frame), the
/// pictures out of view looked for `searchPerFrame` at a time, in turn.
struct ReferencePictureSet {
    private(set) var trackers: [PlanarTargetTracker]
    private let searchPerFrame: Int
    private var searchCursor = 0
    private var previous: PyramidalLucasKanade.Prepared?
    private let lk: PyramidalLucasKanade
    private let extractor: ORBExtractor

    /// Loads the pictures; errors name the analyzer's option and the file (bad input).
    init(analyzer: String, reference: [String], width: [Double], minInliers: Int, threshold: Double, searchPerFrame: Int) throws {
        guard width.count == reference.count || width.count == 1 else {
            throw AnalyzerError.invalidOption(analyzer: analyzer, option: "width", reason: "give one width (m) per reference picture (\(reference.count)), or one for all; got \(width.count)")
        }
        var settings = PlanarTargetTracker.Settings()
        settings.minimumInliers = minInliers
        settings.threshold = threshold
        var trackers: [PlanarTargetTracker] = []
        for (k, file) in reference.enumerated() {
            let w = width.count == 1 ? width[0] : width[k]
            let image: ImageBuffer<UInt8>
            do { image = try ImageDecoder.decodeGray8(path: file) } catch {
                throw AnalyzerError.invalidOption(analyzer: analyzer, option: "reference", reason: "'\(file)': \(error)")
            }
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            do {
                trackers.append(PlanarTargetTracker(reference: try ReferencePicture(name: name, image: GrayImage(image), physicalWidth: w), settings: settings))
            } catch {
                throw AnalyzerError.invalidOption(analyzer: analyzer, option: w <= 0 || !w.isFinite ? "width" : "reference", reason: "'\(file)': \(error)")
            }
        }
        // Each picture's results go to a file named after it (`<stream>/<name>.csv`): two pictures
        // whose names make one file name (`a/poster.png`, `b/poster.jpg`) are refused at open.
        if let group = OutputPath.collisions(trackers.map(\.reference.name)).first {
            let files = reference.filter { group.contains(URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent) }
            throw AnalyzerError.invalidOption(analyzer: analyzer, option: "reference",
                                              reason: "pictures \(files.map { "'\($0)'" }.joined(separator: " and ")) would share one result file '\(OutputPath.fileName(group[0])).csv' "
                                                  + "(a picture is named by its file name without extension); rename one")
        }
        self.trackers = trackers
        self.searchPerFrame = searchPerFrame
        var lk = PyramidalLucasKanade()
        lk.window = 21
        lk.maxLevel = 3
        self.lk = lk
        var extractor = ORBExtractor()
        extractor.maxFeatures = 1500
        self.extractor = extractor
    }

    /// Refuses an empty set when the run opens (not at init: the defaults, no picture, must make
    /// an analyzer that `parallax plugins` can describe).
    func requirePictures(instance: String) throws {
        guard trackers.isEmpty else { return }
        throw AnalyzerError.invalidOption(analyzer: instance, option: "reference", reason: "give at least one picture file (reference=[poster.jpg])")
    }

    /// Every picture's observation in `gray` (seen by `camera`), in the order given.
    mutating func update(_ gray: GrayImage, camera: CameraModel) -> [PlanarTargetTracker.Observation] {
        let current = lk.prepare(gray)
        var cached: [ORBFeature]?
        let extractor = self.extractor
        // The pictures out of view that are looked for in this frame, in turn.
        let lost = trackers.indices.filter { !trackers[$0].isTracked }
        var searched = Set<Int>()
        if searchPerFrame == 0 {
            searched = Set(lost)
        } else if !lost.isEmpty {
            let start = lost.firstIndex { $0 >= searchCursor } ?? 0
            let n = min(searchPerFrame, lost.count)
            for j in 0..<n { searched.insert(lost[(start + j) % lost.count]) }
            searchCursor = (lost[(start + n - 1) % lost.count] + 1) % trackers.count
        }
        var observations: [PlanarTargetTracker.Observation] = []
        for k in trackers.indices {
            observations.append(trackers[k].update(previous: previous, current: current, lk: lk, features: {
                if let cached { return cached }
                let f = extractor.extract(gray)
                cached = f
                return f
            }, camera: camera, search: searched.contains(k)))
        }
        previous = current
        return observations
    }
}
