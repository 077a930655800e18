import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxDatasets
import ParallaxOutputs
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxSim
@testable import ParallaxEval

@Suite struct DepthEvaluationTests {
    /// A short simulated orbit (cam0 with EuRoC's distortion, 188 px wide) written to a folder,
    /// and its scene.
    static func simulated() throws -> (dataset: any DatasetSource, folder: String, scene: TexturedScene, camera: CameraCalibration) {
        let simulator = SimulationPresets.eurocOrbit(seconds: 0.2, seed: 5, width: 188, textures: [])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-depth-eval-\(UUID())").path
        let sequence = try simulator.source()
        try ParallaxFolderWriter(path: folder).write(streaming: sequence, groundTruth: sequence.groundTruth)
        return (try DatasetFolder.open(folder), folder, simulator.scene, simulator.configuration.camera)
    }

    @Test func bandsSplitAtTheirEdges() {
        #expect(DepthEvaluation.band(of: 0.5) == 0 && DepthEvaluation.band(of: 1) == 1 && DepthEvaluation.band(of: 5.9) == 4)
        #expect(DepthEvaluation.band(of: 8) == 6 && DepthEvaluation.band(of: 100) == 6)
        #expect(DepthEvaluation.bandName(1) == "1-2m" && DepthEvaluation.bandName(6) == "8m+")
    }

    /// The exact depth, 2 % too far in the left half of the image and missing in the right half:
    /// AbsRel 0.02, half the pixels valid, all within a factor 1.25, the disparity error
    /// `f·B/Z · (1 − 1/1.02)` per pixel, and maps of another kind or without a camera ignored.
    @Test func scoresAMapAgainstTheRayCastScene() throws {
        let (dataset, folder, scene, camera) = try Self.simulated()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gt = try #require(dataset.groundTruth)
        let t = Timestamp(nanoseconds: gt.poses[10].timestamp.nanoseconds)
        let body = try #require(gt.pose(at: t))
        let truth = scene.render(camera: camera.model, bearings: try TexturedScene.bearings(for: camera.model), worldFromCamera: body * camera.bodyFromSensor).depth
        let w = truth.width
        let values = truth.samples.enumerated().map { i, z in i % w < w / 2 ? z * 1.02 : Float.nan }
        let geometry = DepthMap.StereoGeometry(focalLength: 100, baseline: 0.1)
        let map = DepthMap(sensorID: "cam0", kind: .depth, values: ImageBuffer(width: w, height: truth.height, samples: values), stereo: geometry)
        let disparity = DepthMap(sensorID: "cam0", kind: .pixelDisparity, values: truth)
        let outputs = [AnyPacket(stream: "cam0/depth", timestamp: t, payload: map),
                       AnyPacket(stream: "cam0/disparity", timestamp: t, payload: disparity),
                       AnyPacket(stream: "other/depth", timestamp: t, payload: map)]
        let metadata = ["cam0/depth": StreamMetadata(depth: DepthSensor(kind: .depth, camera: camera)),
                        "cam0/disparity": StreamMetadata(depth: DepthSensor(kind: .pixelDisparity, camera: camera))]
        let result = try DepthEvaluation().evaluate(EvaluationInput(outputs: outputs, metadata: metadata, dataset: dataset, datasetPath: folder, scene: scene))
        #expect(result.metrics["maps"] == 1)
        #expect(abs((result.metrics["abs_rel"] ?? 0) - 0.02) < 1e-6)
        #expect(result.metrics["delta_1.25_percent"] == 100 && result.metrics["outliers_rel10_percent"] == 0)
        // The statistics are of |Z − Z_true| = 0.02 Z_true over the scored (every 4th) pixels of the left half.
        let stride = DepthEvaluation.pixelStride
        let scored = (0..<truth.samples.count).filter { i in (i % w) % stride == 0 && (i / w) % stride == 0 && i % w < w / 2 && truth.samples[i].isFinite }
        let meanTruth = scored.reduce(0.0) { $0 + Double(truth.samples[$1]) } / Double(scored.count)
        let known = (0..<truth.samples.count).filter { i in (i % w) % stride == 0 && (i / w) % stride == 0 && truth.samples[i].isFinite }
        #expect(result.statistics.count == scored.count)
        #expect(result.metrics["valid_percent"] == 100 * Double(scored.count) / Double(known.count))
        #expect(abs(result.statistics.mean / (0.02 * meanTruth) - 1) < 1e-4, "mean error \(result.statistics.mean) m, truth \(meanTruth) m")
        // Per band [lo, hi): the disparity error f·B/Z·(1 − 1/1.02) lies between its values at hi and lo.
        let shrink = 1 - 1 / 1.02
        var bands = 0
        for k in 0..<(DepthEvaluation.distanceBands.count - 1) {
            guard let value = result.metrics["median_disparity_error_px_\(DepthEvaluation.bandName(k))"] else { continue }
            let lo = DepthEvaluation.distanceBands[k], hi = DepthEvaluation.distanceBands[k + 1]
            #expect(value >= 10 / hi * shrink * 0.999 && value <= 10 / lo * shrink * 1.001, "band \(k): \(value) px")
            bands += 1
        }
        #expect(bands >= 2)
        #expect(result.images?.keys.sorted() == ["depth-0", "error-0"])
        let error = try #require(result.images?["error-0"])
        // Right half: truth but no prediction, white; left half: 2 % of 10 %, near turbo's blue end.
        #expect(Array(error.samples[(3 * (w - 1))..<(3 * w)]) == [255, 255, 255])
        let c = Colormap.turbo(0.2), left = try #require(scored.first)
        #expect(Array(error.samples[(3 * left)..<(3 * left + 3)]) == [c.r, c.g, c.b])
    }

    @Test func refusesRecordedDataAndRunsWithoutDepth() throws {
        let (dataset, folder, scene, _) = try Self.simulated()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: EvaluationError.needs(evaluation: "depth", what: "a simulated dataset (the scene is the ground truth)")) {
            try DepthEvaluation().evaluate(EvaluationInput(outputs: [], metadata: [:], dataset: dataset, datasetPath: folder))
        }
        let map = DepthMap(sensorID: "cam0", kind: .depth, values: ImageBuffer(width: 4, height: 4, repeating: Float(1)))
        #expect(throws: EvaluationError.nothingToEvaluate(evaluation: "depth", reason: "no metric depth map (a stereo-depth output) met the scene (streams without a camera description: cam0/depth)")) {
            try DepthEvaluation().evaluate(EvaluationInput(outputs: [AnyPacket(stream: "cam0/depth", timestamp: Timestamp(nanoseconds: 0), payload: map)],
                                                           metadata: [:], dataset: dataset, datasetPath: folder, scene: scene))
        }
    }
}
