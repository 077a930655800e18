import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
import ParallaxDatasets
import ParallaxImage
@testable import ParallaxEval

@Suite struct StereoEvaluationTests {
    /// Six pixels: unknown truth, exact, 1.5 off, 3 off, 5 off, no prediction; the last three
    /// occluded.
    static let truth = DisparityTruth(disparity: ImageBuffer(width: 6, height: 1, samples: [.nan, 10, 10, 10, 10, 10]),
                                      nonOccluded: [true, true, true, false, false, false], file: "t.pfm")
    static let prediction = ImageBuffer<Float>(width: 6, height: 1, samples: [3, 10, 11.5, 13, 5, .nan])

    @Test func scoresCountInvalidPredictionsAsBad() {
        var errors: [Double] = []
        let (all, nonOccluded) = StereoEvaluation.score(Self.prediction, truth: Self.truth, errors: &errors)
        #expect(errors == [0, 1.5, 3, 5])
        #expect(all.known == 5 && all.invalid == 1 && all.valid == 4)
        #expect(all.bad == [4, 3, 2])   // > 1 px: 1.5, 3, 5 and the invalid; > 2: 3, 5, invalid; > 4: 5, invalid
        #expect(all.badPercent(1) == 60 && all.invalidPercent == 20)
        #expect(abs(all.averageError - (0 + 1.5 + 3 + 5) / 4) < 1e-12)
        let n = try? #require(nonOccluded)
        #expect(n?.known == 2 && n?.bad == [1, 0, 0] && n?.averageError == 0.75)
    }

    @Test func theErrorImageShowsUnknownMissingAndErrors() {
        let image = StereoEvaluation.errorImage(Self.prediction, truth: Self.truth.disparity)
        func pixel(_ i: Int) -> [UInt8] { Array(image.samples[(3 * i)..<(3 * i + 3)]) }
        #expect(pixel(0) == [0, 0, 0])          // no truth: black
        #expect(pixel(5) == [255, 255, 255])    // no prediction: white
        let exact = Colormap.turbo(0), far = Colormap.turbo(1)
        #expect(pixel(1) == [exact.r, exact.g, exact.b] && pixel(4) == [far.r, far.g, far.b])
    }

    /// The evaluation over a Middlebury folder: the maps of the truth's camera at frames with
    /// truth, totals and the per-pair images; other datasets are refused.
    @Test func evaluatesTheDisparityMapsOfTheTruthsCamera() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-stereo-eval-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "cam0=[500 0 2; 0 500 0; 0 0 1]\ncam1=[500 0 2; 0 500 0; 0 0 1]\nbaseline=100\nwidth=6\nheight=1\n"
            .write(to: dir.appendingPathComponent("calib.txt"), atomically: true, encoding: .utf8)
        for name in ["im0.png", "im1.png"] { try ImageEncoder.writePNG(ImageBuffer(width: 6, height: 1, repeating: UInt8(9)), to: dir.appendingPathComponent(name).path) }
        try DenseFiles.writePFM(Self.truth.disparity, path: dir.appendingPathComponent("disp0.pfm").path)
        let dataset = try DatasetFolder.open(dir.path)
        let map = DepthMap(sensorID: "cam0", kind: .pixelDisparity, values: Self.prediction)
        let other = DepthMap(sensorID: "cam1", kind: .pixelDisparity, values: ImageBuffer(width: 6, height: 1, repeating: .nan))
        let outputs = [AnyPacket(stream: "cam0/disparity", timestamp: Timestamp(nanoseconds: 0), payload: map),
                       AnyPacket(stream: "cam1/disparity", timestamp: Timestamp(nanoseconds: 0), payload: other)]
        let result = try StereoEvaluation().evaluate(EvaluationInput(outputs: outputs, metadata: [:], dataset: dataset, datasetPath: dir.path))
        #expect(result.metrics["bad2.0_all_percent"] == 60)
        #expect(result.metrics["invalid_all_percent"] == 20)
        #expect(result.metrics["bad2.0_nonocc_percent"] == nil)   // no mask0nocc.png
        #expect(result.statistics.count == 4)
        #expect(result.images?.keys.sorted() == ["disparity-0", "error-0"])
        #expect(throws: EvaluationError.nothingToEvaluate(evaluation: "stereo", reason: "no 'cam0' disparity map (a stereo-depth output) met a frame with known truth")) {
            try StereoEvaluation().evaluate(EvaluationInput(outputs: [outputs[1]], metadata: [:], dataset: dataset, datasetPath: dir.path))
        }
        let tum = try DatasetFolder.open(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../datasets/tum_rgbd_frame").standardized.path)
        #expect(throws: EvaluationError.needs(evaluation: "stereo", what: "a dataset with disparity truth (a Middlebury or KITTI stereo folder)")) {
            try StereoEvaluation().evaluate(EvaluationInput(outputs: outputs, metadata: [:], dataset: tum, datasetPath: ""))
        }
    }
}
