import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct MeasureAnalyzerTests {
    /// Distances between points of a simulated room at 1–3 m (Kinect noise), against the same
    /// points in the exact depth: within 1 %, and within 3σ of the reported σ.
    @Test func distancesAtOneToThreeMetresWithinOnePercent() throws {
        let orbit = SimulationPresets.eurocOrbit(seconds: 1, seed: 3, width: 376, textures: [])
        func depthMaps(_ noise: DepthNoise) throws -> [(Timestamp, DepthMap)] {
            var configuration = orbit.configuration
            configuration.depthRateHz = 5
            configuration.cameraRateHz = 5
            configuration.depthNoise = noise
            let packets = try SequenceSimulator(spline: orbit.spline, scene: orbit.scene, configuration: configuration).packets().packets
            return packets.compactMap { p in (p.payload as? DepthMap).map { (p.timestamp, $0) } }
        }
        let exact = try depthMaps(.none), noisy = try depthMaps(.kinect)
        let camera = orbit.configuration.camera
        let (w, h) = (camera.model.width, camera.model.height)
        var checked = 0
        for ((t, truthMap), (_, noisyMap)) in zip(exact, noisy) {
            let z = truthMap.values.samples
            // Pixels at 1–3 m, 6 px or more from a depth step (a 13 × 13 window without a 5 cm jump).
            func usable(_ u: Int, _ v: Int) -> Bool {
                guard u >= 6, v >= 6, u < w - 6, v < h - 6, z[v * w + u] >= 1, z[v * w + u] <= 3 else { return false }
                for y in (v - 6)...(v + 6) { for x in (u - 6)..<(u + 6) where abs(z[y * w + x + 1] - z[y * w + x]) > 0.05 { return false } }
                return true
            }
            let candidates = stride(from: 20, to: h - 20, by: 40).flatMap { v in stride(from: 20, to: w - 20, by: 40).map { (u: $0, v: v) } }.filter { usable($0.u, $0.v) }
            var pairs: [[Double]] = []
            for i in candidates.indices { for j in candidates.indices where j > i && pairs.count < 12 { pairs.append([Double(candidates[i].u), Double(candidates[i].v), Double(candidates[j].u), Double(candidates[j].v)]) } }
            guard !pairs.isEmpty else { continue }
            var options = MeasureAnalyzer.Options()
            options.depth = "depth0"
            options.pairs = pairs
            var harness = AnalyzerHarness { try MeasureAnalyzer(options: options) }
            harness.describe(StreamKey<DepthMap>("depth0"), as: StreamMetadata(depth: DepthSensor(kind: .depth, camera: camera)))
            harness.push(noisyMap, on: StreamKey<DepthMap>("depth0"), at: t)
            let measured = try #require(try harness.run().packets(on: "depth0/measurements", as: Measurements.self).first).payload.measurements
            for (pair, m) in zip(pairs, measured) {
                let a = try camera.model.normalized(Vector2(pair[0], pair[1])), b = try camera.model.normalized(Vector2(pair[2], pair[3]))
                let pa = Double(z[Int(pair[1]) * w + Int(pair[0])]) * Vector3(a.x, a.y, 1), pb = Double(z[Int(pair[3]) * w + Int(pair[2])]) * Vector3(b.x, b.y, 1)
                let truth = (pb - pa).norm
                guard truth > 0.3 else { continue }
                let d = try #require(m.distance), sigma = try #require(m.sigma)
                #expect(abs(d - truth) / truth < 0.01, "\(pair): \(d) m measured, \(truth) m true")
                #expect(abs(d - truth) < 3 * sigma + 0.002, "\(pair): error \(d - truth) m, σ \(sigma) m")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    @Test func aPixelWithoutDepthOrOffTheImageGivesANoteNotADistance() throws {
        let tum = try TUMFrame.load()
        var options = MeasureAnalyzer.Options()
        options.pairs = [[320, 240, 900, 240], [0, 0, 320, 240]]
        let h = tum.harness { try MeasureAnalyzer(options: options) }
        let m = try #require(try h.run().packets(on: "depth/measurements", as: Measurements.self).first).payload.measurements
        #expect(m[0].distance == nil && m[0].note?.contains("outside the 640×480 image") == true)
        #expect(m[1].distance == nil && m[1].note?.contains("(0.0, 0.0) has no valid depth") == true)
    }
}
