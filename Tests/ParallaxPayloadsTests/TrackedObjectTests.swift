import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxPayloads

@Suite struct TrackedObjectTests {
    @Test func roundTripsThroughJSON() throws {
        let objects = TrackedObjects(imageWidth: 320, imageHeight: 240, objects: [
            TrackedObject(id: 3, box: BoundingBox(x: 1, y: 2, width: 3, height: 4), confidence: 0.75, state: .limited(.relocalizing))])
        #expect(try JSONDecoder().decode(TrackedObjects.self, from: JSONEncoder().encode(objects)) == objects)
    }
}
