import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxSim

enum SimulationFixtures {
    /// The built-in smooth orbit (always available, no data files needed).
    static func parametricSpline(seconds: Double = 14) -> SE3Spline { SyntheticMotion.orbit(seconds: seconds) }

    static let euroc = IMUNoiseModel(gyroscopeNoiseDensity: 1.6968e-04, gyroscopeRandomWalk: 1.9393e-05,
                                     accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3)
}
