import Foundation
import ParallaxCore
import ParallaxGeometry
import ParallaxMath
@testable import ParallaxSim

enum SimulationFixtures {
    /// A smooth parametric motion: a tilted ellipse with bobbing and a turning, nodding body,
    /// sampled at 0.1 s as spline control poses (always available, no data files needed).
    static func parametricSpline(seconds: Double = 14) -> SE3Spline {
        let interval = 0.1
        let poses = (0..<Int(seconds / interval) + 4).map { k -> SE3 in
            let t = Double(k) * interval
            let p = Vector3(2 * cos(0.5 * t), 1.2 * sin(0.5 * t), 1.5 + 0.2 * sin(1.3 * t))
            let r = SO3.exp(Vector3(0, 0, 0.5 * t + .pi / 2)) * SO3.exp(Vector3(0.15 * sin(0.9 * t), 0.1 * cos(0.7 * t), 0))
            return SE3(rotation: r, translation: p)
        }
        return SE3Spline(start: 0, interval: interval, controlPoses: poses)
    }

    static let euroc = IMUNoiseModel(gyroscopeNoiseDensity: 1.6968e-04, gyroscopeRandomWalk: 1.9393e-05,
                                     accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3)
}
