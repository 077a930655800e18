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
}
