import Foundation
import Testing
import Parallax
import ParallaxTesting

@Suite struct PlanesAnalyzerTests {
    static func planes(_ depth: DepthMap, metadata: StreamMetadata, options: PlanesAnalyzer.Options = .init()) throws -> [PlaneAnchor] {
        var h = AnalyzerHarness { try PlanesAnalyzer(options: options) }
        h.describe(TUMFrame.depthKey, as: metadata)
        h.push(depth, on: TUMFrame.depthKey, at: Timestamp(nanoseconds: 1))
        let result = try h.run()
        #expect(result.failure == nil)
        return try #require(result.packets(on: "depth/planes", as: DetectedPlanes.self).first).payload.planes
    }

    /// The real TUM frame: the floor, the desk top parallel to it and 0.6–0.7 m above it, and the
    /// partition wall behind the desk perpendicular to both.
    @Test func theTUMFrameHasAFloorADeskAndAWall() throws {
        let tum = try TUMFrame.load()
        let planes = try Self.planes(tum.depth, metadata: tum.depthMetadata)
        #expect(planes.count >= 3)
        let floor = planes[0]  // the largest
        let desk = try #require(planes.first { $0.id != floor.id && Self.degrees($0, floor) < 3 })
        let wall = try #require(planes.first { abs(Self.degrees($0, floor) - 90) < 5 && $0.area > 0.5 })
        #expect(floor.area > 3 && desk.area > 1.5)
        let deskHeight = floor.offset - desk.offset  // both normals face the camera, up
        #expect(deskHeight > 0.6 && deskHeight < 0.7)
        #expect(abs(Self.degrees(wall, desk) - 90) < 5)
        #expect(floor.rms < 0.02 && desk.rms < 0.02 && wall.rms < 0.02)
        #expect(planes.allSatisfy { $0.alignment == .unknown && $0.classification == .none && $0.tiltDegrees == nil })
    }

    /// With up known (here: the floor's normal, as an IMU would give it), the planes are
    /// classified: floor, table, wall.
    @Test func upGivesAlignmentAndClass() throws {
        let tum = try TUMFrame.load()
        var options = PlanesAnalyzer.Options()
        options.up = [0.007, -0.877, -0.48]
        let planes = try Self.planes(tum.depth, metadata: tum.depthMetadata, options: options)
        #expect(planes.first?.classification == .floor && planes.first?.alignment == .horizontal)
        #expect(planes.contains { $0.classification == .table })
        #expect(planes.contains { $0.classification == .wall && $0.alignment == .vertical })
    }

    @Test func badOptionsAndBadMapsSayWhat() throws {
        var options = PlanesAnalyzer.Options()
        options.up = [0, 0]
        #expect { _ = try PlanesAnalyzer(options: options) } throws: { "\($0)".contains("option 'up'") }
        options.up = [0, 0, 0]
        #expect { _ = try PlanesAnalyzer(options: options) } throws: { "\($0)".contains("not all zero") }
        let tum = try TUMFrame.load()
        let none = try Self.planes(DepthMap(sensorID: "depth", kind: .depth, values: ImageBuffer(width: 640, height: 480, repeating: Float.nan)), metadata: tum.depthMetadata)
        #expect(none.isEmpty)
    }

    static func degrees(_ a: PlaneAnchor, _ b: PlaneAnchor) -> Double {
        acos(min(1, abs(a.normal.dot(b.normal)))) * 180 / .pi
    }
}
