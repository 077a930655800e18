import Foundation
import Testing
import TestSupport
import ParallaxPayloads
import ParallaxCodecs
import ParallaxMath
@testable import ParallaxEval

@Suite struct AnalyzerMetricsTests {
    static let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/data").standardized

    @Test(.enabled(if: RepositoryPaths.hasSharedData("flow/middlebury/RubberWhale/flow10.flo"), "../shared/data/flow/middlebury/RubberWhale/flow10.flo is not present on this machine"))
    func realMiddleburyFlowReadsAndScores() throws {
        let path = Self.shared.appendingPathComponent("flow/middlebury/RubberWhale/flow10.flo").path
        let flow = try DenseFiles.readFlo(path: path)
        #expect(flow.width == 584 && flow.height == 388)
        let unknown = stride(from: 0, to: flow.vectors.count, by: 2).filter { flow.vectors[$0].isNaN }.count
        #expect(abs(Double(unknown) / Double(584 * 388) - 0.016) < 0.002)   // README: 1.6 % unknown
        // The ground truth scored against itself has zero error; zero flow has the GT magnitude as error.
        let points = stride(from: 10.0, to: 370, by: 23).flatMap { y in stride(from: 10.0, to: 570, by: 31).map { Vector2($0, y) } }
        let gt: [Vector2?] = points.map { p in flow.sample(x: p.x, y: p.y).map { Vector2($0.u, $0.v) } }
        let known = gt.compactMap { $0 }
        #expect(known.count > 250)
        #expect(ErrorStatistics(AnalyzerMetrics.endpointErrors(predicted: known, groundTruth: known)).max == 0)
        let zero = AnalyzerMetrics.endpointErrors(predicted: [Vector2](repeating: .zero, count: gt.count), groundTruth: gt)
        #expect(zero.count == known.count)
        #expect(abs(ErrorStatistics(zero).max - known.map(\.norm).max()!) < 1e-12)
        #expect(ErrorStatistics(zero).max < 4.7)   // README: max |flow| 4.6 px
    }

    @Test func floFilesAreValidated() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-\(UUID()).flo")
        try Data([0, 1, 2]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: DenseFileError.self) { _ = try DenseFiles.readFlo(path: url.path) }
        var header = Data()
        for v: UInt32 in [Float(202021.25).bitPattern, 4, 4] { withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) } }
        try header.write(to: url)
        #expect { _ = try DenseFiles.readFlo(path: url.path) } throws: { "\($0)".contains("truncated") }
    }

    @Test(.enabled(if: RepositoryPaths.hasSharedData("stereo/motorcycle/motorcycle_disp0GT.derived.pfm"), "../shared/data/stereo/motorcycle/motorcycle_disp0GT.derived.pfm is not present on this machine"))
    func realMiddleburyStereoPFM() throws {
        let path = Self.shared.appendingPathComponent("stereo/motorcycle/motorcycle_disp0GT.derived.pfm").path
        let gt = try DenseFiles.readPFM(path: path)
        #expect(gt.width == 741 && gt.height == 500)
        let valid = gt.samples.filter { !$0.isNaN }
        #expect(abs(Double(gt.samples.count - valid.count) / Double(gt.samples.count) - 0.073) < 0.002)  // 7.3 % unknown
        #expect(abs(Double(valid.max()!) - 59.91) < 0.01 && abs(Double(valid.min()!) - 7.19) < 0.01)
        // GT against itself: no bad pixels; GT + 1.5 px: bad-1 everywhere, bad-2 nowhere.
        let same = AnalyzerMetrics.depth(predicted: gt.samples, groundTruth: gt.samples, thresholds: [1, 2])
        #expect(same.badFractions == [0, 0] && same.validPixels == valid.count)
        let shifted = AnalyzerMetrics.depth(predicted: gt.samples.map { $0 + 1.5 }, groundTruth: gt.samples, thresholds: [1, 2])
        #expect(shifted.badFractions == [1, 0] && abs(shifted.averageAbsoluteError - 1.5) < 1e-6)
    }

    @Test func depthCountsMissingPredictionsAsBad() {
        let s = AnalyzerMetrics.depth(predicted: [1, .nan, 3, 10], groundTruth: [1, 2, .nan, 4], thresholds: [1])
        #expect(s.validPixels == 3 && s.missingPredictions == 1)
        #expect(abs(s.badFractions[0] - 2.0 / 3) < 1e-15)
        #expect(s.averageAbsoluteError == 3)
    }

    @Test func trackingSuccessAndPrecision() {
        let gt = (0..<10).map { AnalyzerMetrics.Box(x: Double($0) * 10, y: 0, width: 40, height: 40) }
        let perfect = AnalyzerMetrics.tracking(predicted: gt, groundTruth: gt)
        #expect(perfect.precisionAt20 == 1 && abs(perfect.successAUC - 20.0 / 21) < 1e-12)  // IoU 1 is not > 1
        var half: [AnalyzerMetrics.Box?] = gt
        for i in 5..<10 { half[i] = nil }
        let lost = AnalyzerMetrics.tracking(predicted: half, groundTruth: gt)
        #expect(lost.precisionAt20 == 0.5 && abs(lost.successAUC - 10.0 / 21) < 1e-12)
        #expect(AnalyzerMetrics.Box(x: 0, y: 0, width: 2, height: 2).iou(AnalyzerMetrics.Box(x: 1, y: 0, width: 2, height: 2)) == 1.0 / 3)
    }

    @Test func headPoseErrorsWrapAround() {
        let e = AnalyzerMetrics.headPoseMAE(predicted: [.init(pitch: 179, yaw: 10, roll: -5)], groundTruth: [.init(pitch: -179, yaw: 12, roll: -5)])
        #expect(e.pitch == 2 && e.yaw == 2 && e.roll == 0 && abs(e.mean - 4.0 / 3) < 1e-15)
    }
}
