import Foundation
import ParallaxImage

/// A smooth analytic texture with 2D structure everywhere, sampled exactly at any position.
public func texture(_ x: Double, _ y: Double) -> Double {
    128 + 35 * sin(0.31 * x + 0.17 * y) + 30 * sin(-0.23 * x + 0.41 * y + 1) + 25 * sin(0.53 * x - 0.29 * y + 2)
        + 20 * cos(0.07 * x * sin(0.05 * y) + 0.37 * y)
}

/// The texture seen through a map from image coordinates to texture coordinates.
public func render(width: Int = 320, height: Int = 240, _ map: (Double, Double) -> (Double, Double)) -> GrayImage {
    var image = GrayImage(width: width, height: height)
    for y in 0..<height { for x in 0..<width { let (u, v) = map(Double(x), Double(y)); image[x, y] = Float(texture(u, v)) } }
    return image
}
