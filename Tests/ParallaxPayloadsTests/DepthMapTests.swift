import Foundation
import Testing
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxPayloads

@Suite struct DepthMapTests {
    @Test func pixelDisparityTurnsIntoDepthWithItsStereoGeometry() {
        // Middlebury Motorcycle: f = 3979.911 px, B = 193.001 mm, doffs = 124.343 px.
        var values = ImageBuffer<Float>(width: 2, height: 1, repeating: 200)
        values[1, 0] = .nan
        let map = DepthMap(sensorID: "disp0", kind: .pixelDisparity, values: values,
                           stereo: .init(focalLength: 3979.911, baseline: 0.193001, doffs: 124.343))
        #expect(abs(map.depth(x: 0, y: 0)! - 3979.911 * 0.193001 / 324.343) < 1e-12)
        #expect(map.depth(x: 1, y: 0) == nil)
        #expect(DepthMap(sensorID: "d", kind: .pixelDisparity, values: values).depth(x: 0, y: 0) == nil)  // no geometry: unknown
        #expect(abs(DepthMap(sensorID: "d", kind: .disparity, values: values).depth(x: 0, y: 0)! - 0.005) < 1e-12)
    }
}
