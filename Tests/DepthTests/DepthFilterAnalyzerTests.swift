import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct DepthFilterAnalyzerTests {
    @Test func theTUMFrameFilteredKeepsItsCameraAndFillsItsSmallHoles() throws {
        let tum = try TUMFrame.load()
        var options = DepthFilterAnalyzer.Options()
        options.smooth = .joint
        options.color = "rgb"
        options.fillHoles = 200
        options.maxDepth = 6
        let h = tum.harness(colour: true) { try DepthFilterAnalyzer(options: options) }
        let result = try h.run()
        #expect(result.failure == nil && result.report.warnings.isEmpty)
        let filtered = try #require(result.packets(on: "depth/filtered", as: DepthMap.self).first).payload
        #expect(filtered.kind == .depth && filtered.values.width == 640)
        let before = tum.depth.values.samples.filter { $0.isFinite && $0 <= 6 }.count
        let after = filtered.values.samples.filter(\.isFinite).count
        #expect(after > before && filtered.values.samples.allSatisfy { !$0.isFinite || $0 <= 6 })
        // Smoothing moved values by less than the noise at their range (3σ, Kinect: 2.4 cm at 2.2 m).
        #expect(abs(filtered.values[320, 240] - tum.depth.values[320, 240]) < 0.025)
    }

    @Test func inconsistentOptionsAreErrors() {
        var options = DepthFilterAnalyzer.Options()
        options.smooth = .joint
        #expect { _ = try DepthFilterAnalyzer(options: options) } throws: { "\($0)".contains("option 'color'") }
        options = .init()
        options.minDepth = 3
        options.maxDepth = 2
        #expect { _ = try DepthFilterAnalyzer(options: options) } throws: { "\($0)".contains("option 'max_depth'") }
    }

    /// Limits not given follow the depth stream's range (the TUM frame's depth said to measure
    /// 1–2.5 m): values outside it are invalid, the run says where the limits came from; given
    /// limits win.
    @Test func limitsNotGivenFollowTheSensorsRange() throws {
        let tum = try TUMFrame.load()
        var metadata = tum.depthMetadata
        metadata.depth?.range = 1...2.5
        func run(_ options: [String: String]) throws -> (values: [Float], report: RunReport) {
            var h = AnalyzerHarness("depth-filter", options: options.merging(["smooth": "none"]) { a, _ in a }, registry: BuiltinAnalyzers.registry)
            h.describe(TUMFrame.depthKey, as: metadata)
            h.push(tum.depth, on: TUMFrame.depthKey, at: tum.time)
            let result = try h.run()
            #expect(result.failure == nil)
            return (try #require(result.packets(on: "depth/filtered", as: DepthMap.self).first).payload.values.samples, result.report)
        }
        let ranged = try run([:])
        #expect(ranged.values.allSatisfy { !$0.isFinite || (1...2.5).contains($0) })
        #expect(ranged.values.contains { $0.isFinite })
        #expect(ranged.report.notes == ["depth-filter: min_depth=1.0 from the range of 'depth' (1–2.5 m)", "depth-filter: max_depth=2.5 from the range of 'depth' (1–2.5 m)"])
        let given = try run(["max_depth": "6"])
        #expect(given.values.contains { $0 > 2.5 && $0.isFinite })
        #expect(given.report.optionsFromData?.map(\.option) == ["min_depth"])
    }

    /// A guide of another size than the depth (a camera not registered to it) is refused at the
    /// frame, naming the stream, the time and both sizes: guiding by it would put its edges in
    /// the wrong places (it used to fall back to the plain filter with a note, exit 0).
    @Test func aGuideOfAnotherSizeIsRefused() throws {
        var tum = try TUMFrame.load()
        tum.rgb.image = tum.rgb.image.areaDownsampled(by: 2)
        var options = DepthFilterAnalyzer.Options()
        options.smooth = .joint
        options.color = "rgb"
        let result = try tum.harness(colour: true) { try DepthFilterAnalyzer(options: options) }.run()
        let failure = try #require(result.failure)
        #expect(failure.isBadInput)
        #expect("\(failure)".contains("stream 'rgb' at \(tum.time.nanoseconds) ns") && "\(failure)".contains("320×240") && "\(failure)".contains("640×480"), "\(failure)")
        #expect(result.packets(on: "depth/filtered", as: DepthMap.self).isEmpty)
    }
}
