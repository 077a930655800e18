import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct HitTestAnalyzerTests {
    /// On the TUM frame: the centre pixel hits the desk in depth (2.184 m there) and the desk
    /// plane just behind; a pixel off the image gets no hit and says why.
    @Test func theDeskUnderTheCentrePixelInDepthAndAsAPlane() throws {
        let tum = try TUMFrame.load()
        var planes = PlanesAnalyzer.Options()
        planes.depth = "depth"
        let h = tum.harness { try PlanesAnalyzer(options: planes) }
        let detected = try #require(try h.run().packets(on: "depth/planes", as: DetectedPlanes.self).first).payload
        var options = HitTestAnalyzer.Options()
        options.pixels = [[320, 240], [700, 10]]
        options.planes = "depth/planes"
        var hit = AnalyzerHarness { try HitTestAnalyzer(options: options) }
        hit.describe(TUMFrame.depthKey, as: tum.depthMetadata)
        hit.push(detected, on: StreamKey<DetectedPlanes>("depth/planes"), at: tum.time)
        hit.push(tum.depth, on: TUMFrame.depthKey, at: tum.time)
        let result = try hit.run()
        #expect(result.failure == nil)
        let hits = try #require(result.packets(on: "depth/hits", as: HitTestResults.self).first).payload.results
        #expect(hits.count == 2)
        let centre = hits[0].hits
        let depthHit = try #require(centre.first { $0.kind == .depth })
        #expect(abs(depthHit.point.z - 2.184) < 0.01 && depthHit.sigma > 0 && depthHit.sigma < 0.01)
        let planeHit = try #require(centre.first { $0.kind == .plane })
        #expect(abs(planeHit.distance - depthHit.distance) < 0.02)
        // The plane hit is the desk: the second largest horizontal-ish plane, parallel to the floor.
        let desk = try #require(detected.planes.first { $0.id == planeHit.planeID })
        #expect(abs(desk.normal.dot(detected.planes[0].normal)) > 0.99 && desk.id != detected.planes[0].id)
        #expect(hits[1].hits.isEmpty && hits[1].note == "outside the 640×480 image")
        #expect(centre == centre.sorted { $0.distance < $1.distance })
    }

    @Test func badPixelOptionsAreErrorsNamingTheOption() {
        var options = HitTestAnalyzer.Options()
        options.pixels = [[1, 2, 3]]
        #expect { _ = try HitTestAnalyzer(options: options) } throws: { "\($0)".contains("entry 1 must be [u, v]") }
        options.pixels = [[.nan, 2]]
        #expect { _ = try HitTestAnalyzer(options: options) } throws: { "\($0)".contains("entry 1") }
        var measure = MeasureAnalyzer.Options()
        measure.pairs = [[1, 2, 3]]
        #expect { _ = try MeasureAnalyzer(options: measure) } throws: { "\($0)".contains("option 'pairs'") }
    }
}

@Suite struct HitTestDefaultsTests {
    /// With no pixels, hit-test looks at the image centre; measure without pairs reads
    /// `<depth>/queries`, and a chain without that stream fails naming it.
    @Test func theCentreByDefaultAndAQueryStreamForMeasure() throws {
        let tum = try TUMFrame.load()
        let h = tum.harness { try HitTestAnalyzer(options: .init()) }
        let results = try #require(try h.run().packets(on: "depth/hits", as: HitTestResults.self).first).payload.results
        #expect(results.map(\.pixel) == [Vector2(319.5, 239.5)] && results[0].hits.first?.kind == .depth)
        var m = AnalyzerHarness { try MeasureAnalyzer(options: .init()) }
        m.describe(TUMFrame.depthKey, as: tum.depthMetadata)
        m.push(PixelQueries(pixels: [Vector2(100, 250), Vector2(540, 250), Vector2(5, 5)]), on: StreamKey<PixelQueries>("depth/queries"), at: tum.time)
        m.push(tum.depth, on: TUMFrame.depthKey, at: tum.time)
        let result = try m.run()
        let measured = try #require(result.packets(on: "depth/measurements", as: Measurements.self).first).payload.measurements
        #expect(measured.count == 1 && (measured[0].distance ?? 0) > 1.5)
        #expect(result.report.warnings.contains { $0.contains("gave 3 pixels") })
    }
}
