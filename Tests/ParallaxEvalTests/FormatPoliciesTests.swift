import Foundation
import Testing
import ParallaxPayloads
import ParallaxEval

@Suite struct FormatPoliciesTests {
    static let formats = VideoFormat.supported(camera: "cam0", width: 640, height: 480, frameRateHz: 30, pixelFormat: .gray8)

    /// Errors and loads made up so each policy has one right answer.
    @Test func eachPolicyPicksWhatItSays() {
        // Order: (1, ÷1) (1, ÷2) (1, ÷3) (½, ÷1) (½, ÷2) (½, ÷3) (¼, ÷1) (¼, ÷2) (¼, ÷3).
        let errors = [1.0, 1.3, 2.0, 1.05, 1.4, 2.5, 1.6, 2.2, 3.0]
        let loads = [1.2, 0.6, 0.4, 0.5, 0.25, 0.17, 0.2, 0.1, 0.07]
        let measured = Self.formats.indices.map { (format: Self.formats[$0], error: errors[$0], load: loads[$0]) }
        let p = FormatPolicies(measured: measured, minFPS: 15, within: 0.1, budget: 0.3)
        #expect(p.native == 0)
        #expect(p.highestAtRate == 0)  // 640×480 at 30 Hz reaches 15 Hz; 15 Hz (÷2) too but is slower
        #expect(p.cheapestWithin == 3)  // ×½ at 30 Hz: +5 %, load 0.5
        #expect(p.bestInBudget == 4)  // load ≤ 0.3: (½, ÷2) 1.4, (½, ÷3) 2.5, (¼, ÷1) 1.6 …
        #expect(p.picks(0) == ["native", "min-fps"])
        let lines = p.explanations
        #expect(lines.contains { $0.contains("640×480@10Hz gray8 (÷3)") && $0.contains("below the floor") })
        #expect(lines.contains { $0.contains("640×480@30Hz gray8:") && $0.contains("budget: load 1.20 over 0.3") })
        #expect(FormatPolicies(measured: measured, minFPS: 100, within: 0, budget: 0.01).highestAtRate == nil)
    }

    @Test func paretoFrontKeepsTheUnbeaten() {
        let points: [(cost: Double, error: Double)] = [(1, 1), (0.5, 1.2), (0.6, 1.5), (0.2, 2), (0.3, 1.9), (0.1, 3), (0.4, .nan)]
        #expect(FormatPolicies.paretoFront(points) == [5, 3, 4, 1, 0])
    }
}
