import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxTesting
@testable import FeatureTracking
@testable import ParallaxVision
import VisionTestSupport

@Suite struct KLTAnalyzerTests {
    static let cam = StreamKey<CameraFrame>("cam0")

    static func frame(_ image: GrayImage) -> CameraFrame {
        CameraFrame(cameraID: "cam0", image: ImageBuffer(width: image.width, height: image.height,
                                                         samples: image.pixels.map { UInt8(min(255, max(0, $0.rounded()))) }))
    }

    /// Frames of the texture panning by (1.5, 0.8) px per frame.
    static func panning(_ n: Int) -> [CameraFrame] {
        (0..<n).map { k in frame(render { ($0 + 1.5 * Double(k), $1 + 0.8 * Double(k)) }) }
    }

    @Test func idsStayStableAndAgesGrow() throws {
        var harness = AnalyzerHarness { try KLTAnalyzer(options: .init()) }
        for (k, f) in Self.panning(6).enumerated() { harness.push(f, on: Self.cam, at: Timestamp(nanoseconds: Int64(k) * 50_000_000)) }
        let out: [Packet<FeatureTracks>] = try harness.run().packets(on: "cam0/tracks")
        #expect(out.count == 6)
        let first = Dictionary(uniqueKeysWithValues: out[0].payload.features.map { ($0.id, $0.pixel) })
        #expect(first.count > 50)
        let last = out[5].payload
        let survivors = last.features.filter { first[$0.id] != nil }
        #expect(survivors.count > first.count / 2)
        for f in survivors {
            #expect(f.age == 6)
            // Content moves by −(1.5, 0.8) per frame.
            #expect((f.pixel - (first[f.id]! - Vector2(7.5, 4))).norm < 0.2)
        }
        #expect(Set(last.features.map(\.id)).count == last.features.count)
    }

    /// With `refill_below`, new corners are looked for only once the tracked share drops below
    /// it: while the panning texture slides features out of view, no new id appears until then.
    @Test func refillsOnlyBelowTheShareAsked() throws {
        var options = KLTAnalyzer.Options()
        options.tracker.maxFeatures = 100
        options.tracker.refillBelow = 0.7
        var harness = AnalyzerHarness { try KLTAnalyzer(options: options) }
        let frames = (0..<16).map { k in Self.frame(render { ($0 + 12 * Double(k), $1) }) }
        for (k, f) in frames.enumerated() { harness.push(f, on: Self.cam, at: Timestamp(nanoseconds: Int64(k) * 50_000_000)) }
        let out: [Packet<FeatureTracks>] = try harness.run().packets(on: "cam0/tracks")
        #expect(out.count == 16)
        var known = Set(out[0].payload.features.map(\.id))
        var refills = 0
        for k in 1..<out.count {
            let ids = out[k].payload.features.map(\.id)
            let new = ids.filter { !known.contains($0) }
            let tracked = ids.count - new.count
            if new.isEmpty {
                #expect(ids.count < 100 || tracked == 100)
            } else {
                refills += 1
                // Only a frame that tracked fewer than 70 of 100 looks for more.
                #expect(tracked < 70, "frame \(k) tracked \(tracked) and added \(new.count)")
            }
            known.formUnion(ids)
        }
        // Features leave the view at 12 px a frame: some frames refill, some do not.
        #expect(refills > 0 && refills < out.count - 1)
    }

    @Test func blankFramesAndSizeChanges() throws {
        var harness = AnalyzerHarness { try KLTAnalyzer(options: .init()) }
        harness.push(Self.frame(GrayImage(width: 160, height: 120, value: 50)), on: Self.cam, at: Timestamp(nanoseconds: 1))
        harness.push(Self.frame(render { ($0, $1) }), on: Self.cam, at: Timestamp(nanoseconds: 2))
        harness.push(Self.frame(render(width: 200, height: 150) { ($0, $1) }), on: Self.cam, at: Timestamp(nanoseconds: 3))
        let result = try harness.run()
        let out: [Packet<FeatureTracks>] = result.packets(on: "cam0/tracks")
        #expect(out.count == 3)
        #expect(out[0].payload.features.isEmpty)
        #expect(!out[1].payload.features.isEmpty)
        #expect(out[2].payload.ended.count == out[1].payload.features.count)
        #expect(out[2].payload.ended.allSatisfy { $0.reason == .frameSizeChanged })
        #expect(result.report.warnings.contains { $0.contains("frame size changed from 320×240 to 200×150") })
    }

    @Test func keepsTheAnalyzerContract() throws {
        let problems = try AnalyzerVerifier.verify({ try KLTAnalyzer(options: .init()) }) { harness in
            for (k, f) in Self.panning(3).enumerated() { harness.push(f, on: Self.cam, at: Timestamp(nanoseconds: Int64(k) * 50_000_000)) }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func badOptionsAreRefused() {
        var o = KLTAnalyzer.Options()
        o.tracker.window = 20
        #expect(throws: AnalyzerError.self) { _ = try KLTAnalyzer(options: o) }
    }

    @Test func kltRunsWithFAST() throws {
        var options = KLTAnalyzer.Options()
        options.tracker.detector = .fast
        var harness = AnalyzerHarness { try KLTAnalyzer(options: options) }
        for (k, f) in KLTAnalyzerTests.panning(3).enumerated() { harness.push(f, on: KLTAnalyzerTests.cam, at: Timestamp(nanoseconds: Int64(k))) }
        let out: [Packet<FeatureTracks>] = try harness.run().packets(on: "cam0/tracks")
        #expect(out.count == 3 && out[0].payload.features.count > 20)
        // A detector that does not exist is refused when the chain is read, naming the choices.
        var registry = AnalyzerRegistry()
        registry.register(KLTAnalyzer.self)
        #expect { _ = try registry.make("klt", options: ["detector": "harris"]) } throws: { error in
            "\(error)".contains("'detector' = 'harris': expected one of shi-tomasi, fast")
        }
    }
}
