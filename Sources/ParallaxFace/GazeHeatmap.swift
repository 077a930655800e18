import Foundation
import ParallaxImage
import ParallaxMath

/// Where attention went on a screen: Gaussian splats (σ in metres) of weighted screen points on
/// a grid of the screen's shape, rendered with the turbo colour map (zero dark blue, the most
/// looked-at red).
public struct GazeHeatmap: Sendable {
    public let screen: ScreenPlane
    /// Grid size (px); the height follows the screen's aspect ratio.
    public let width: Int, height: Int
    /// Splat radius (σ, m).
    public let sigma: Double
    private var density: [Double]
    /// Total weight splatted.
    public private(set) var total = 0.0

    /// A grid `width` px wide over `screen`.
    public init(screen: ScreenPlane, width: Int, sigma: Double) {
        self.screen = screen
        self.width = max(1, width)
        height = max(1, Int((Double(max(1, width)) * screen.height / max(screen.width, 1e-9)).rounded()))
        self.sigma = sigma
        density = [Double](repeating: 0, count: self.width * height)
    }

    /// Adds `weight` (e.g. a fixation's duration, s) at `point` (screen m).
    public mutating func add(_ point: Vector2, weight: Double) {
        guard point.x.isFinite, point.y.isFinite, weight > 0 else { return }
        let metresPerPixel = screen.width / Double(width)
        let cx = point.x / metresPerPixel - 0.5, cy = point.y / metresPerPixel - 0.5
        let r = 3 * sigma / metresPerPixel
        let s2 = 2 * (sigma / metresPerPixel) * (sigma / metresPerPixel)
        guard cx + r >= 0, cy + r >= 0, cx - r < Double(width), cy - r < Double(height) else { return }
        for y in max(0, Int((cy - r).rounded(.down)))...min(height - 1, Int((cy + r).rounded(.up))) {
            for x in max(0, Int((cx - r).rounded(.down)))...min(width - 1, Int((cx + r).rounded(.up))) {
                let dx = Double(x) - cx, dy = Double(y) - cy
                density[y * width + x] += weight * exp(-(dx * dx + dy * dy) / s2)
            }
        }
        total += weight
    }

    /// The density (unnormalized) at grid pixel (x, y).
    public func value(x: Int, y: Int) -> Double { density[y * width + x] }

    /// The map in colour (RGB, 8-bit): turbo over 0 … the largest density.
    public func render() -> ImageBuffer<UInt8> {
        let peak = density.max() ?? 0
        let values = ImageBuffer(width: width, height: height, samples: density.map { Float($0) })
        return Colormap.turbo(values, range: 0...max(peak, 1e-12))
    }
}
