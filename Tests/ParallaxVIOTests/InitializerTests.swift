import Foundation
import Testing
import ParallaxInertial
import ParallaxMath
@testable import ParallaxVIO

/// The still start: a resting IMU levels the attitude and gives the gyro bias, but only when
/// the features agree that nothing moves; a moving start whose window keeps failing is tried
/// less often.
@Suite struct InitializerTests {
    /// A frame of 20 features, all shifted by `shift` (normalized units).
    static func frame(_ k: Int, shift: Double) -> VIOFeatureFrame {
        VIOFeatureFrame(time: Int64(k), features: (0..<20).map { i in
            VIOFeature(id: UInt64(i), pixel: .zero, normalized: Vector2(0.01 * Double(i) + shift, -0.05), age: k + 1)
        }, ended: [])
    }

    @Test func aRestingIMUStartsLevelUnlessTheFeaturesMove() throws {
        var settings = VIOSettings()
        settings.dynamicInit = false
        var initializer = Initializer(settings, camera: VIOTestScene.camera)
        // 1.2 s at rest, tilted: the specific force is gravity's reaction, in the IMU frame.
        let up = Vector3(0.1, -0.2, 0.97).normalized, bias = Vector3(0.001, -0.002, 0.003)
        let imu = (0...240).map { IMUMeasurement(time: Double($0) / 200, gyroscope: bias, accelerometer: up * 9.81) }
        var still = RecentViews(fx: 400), moving = RecentViews(fx: 400)
        for k in 0...24 {
            still.append(Self.frame(k, shift: 0), at: 0.05 * Double(k), keeping: 3)
            // 0.8 px a frame: 16 px over the 1 s window.
            moving.append(Self.frame(k, shift: 0.002 * Double(k)), at: 0.05 * Double(k), keeping: 3)
        }
        let refused = initializer.start(at: 1.2, imu: imu, views: moving, noise: VIOTestScene.imuNoise, imuFromCamera: .identity)
        #expect(refused == nil, "the features moved 16 px")
        let started = initializer.start(at: 1.2, imu: imu, views: still, noise: VIOTestScene.imuNoise, imuFromCamera: .identity)
        let start = try #require(started)
        #expect(start.how == .still)
        #expect((start.state.rotation * up - Vector3(0, 0, 1)).norm < 1e-9, "levelled: the IMU's up is the world's")
        #expect((start.state.gyroscopeBias - bias).norm < 1e-12)
        #expect(start.covariance.rows == 15 && start.covariance.columns == 15)
    }

    /// Features that slide as if the camera turned, with a gyro that says it did not: no moving
    /// start fits. It is tried on every frame at first, then, after
    /// ``Initializer/failuresBeforeBackingOff`` failures in a row, every quarter window.
    /// Two resting readings 1.2 s apart say nothing of the time between: no still start over
    /// them (the filter would reset on the gap anyway). The same rest sampled at 200 Hz starts,
    /// also with a 0.3 s gap in it (standing still, nothing moved there).
    @Test func aStillStartNeedsReadingsAFilterCanBridge() throws {
        var settings = VIOSettings()
        settings.dynamicInit = false
        var still = RecentViews(fx: 400)
        for k in 0...24 { still.append(Self.frame(k, shift: 0), at: 0.05 * Double(k), keeping: 3) }
        let up = Vector3(0, 0, 1)
        let sparse = [0.0, 1.2].map { IMUMeasurement(time: $0, gyroscope: .zero, accelerometer: up * 9.81) }
        var initializer = Initializer(settings, camera: VIOTestScene.camera)
        #expect(initializer.start(at: 1.2, imu: sparse, views: still, noise: VIOTestScene.imuNoise, imuFromCamera: .identity) == nil)
        let dense = (0...240).map { IMUMeasurement(time: Double($0) / 200, gyroscope: .zero, accelerometer: up * 9.81) }
        #expect(initializer.start(at: 1.2, imu: dense, views: still, noise: VIOTestScene.imuNoise, imuFromCamera: .identity) != nil)
        let gapped = dense.filter { $0.time < 0.5 || $0.time > 0.8 }
        #expect(initializer.start(at: 1.2, imu: gapped, views: still, noise: VIOTestScene.imuNoise, imuFromCamera: .identity) != nil)
    }

    @Test func aMovingStartThatKeepsFailingIsTriedLessOften() {
        var settings = VIOSettings()
        settings.staticWindow = 10   // no still start within these 4 s
        var initializer = Initializer(settings, camera: VIOTestScene.camera)
        let up = Vector3(0, 0, 1)
        let imu = (0...800).map { k -> IMUMeasurement in
            let t = Double(k) / 200
            return IMUMeasurement(time: t, gyroscope: .zero, accelerometer: up * 9.81 + Vector3(0.8 * sin(7 * t), 0.6 * cos(5 * t), 0.5 * sin(3 * t)))
        }
        var views = RecentViews(fx: 400)
        var calls = 0
        for k in 0...80 {
            let t = 0.05 * Double(k)
            views.append(Self.frame(k, shift: 0.004 * Double(k)), at: t, keeping: 4)
            guard t >= 1 else { continue }
            #expect(initializer.start(at: t, imu: imu.filter { $0.time <= t }, views: views, noise: VIOTestScene.imuNoise, imuFromCamera: .identity) == nil)
            calls += 1
        }
        // 61 frames from 1 s: the first 20 each tried, then one every 0.25 s over the last 2 s.
        #expect(initializer.failedAttempts >= Initializer.failuresBeforeBackingOff, "\(initializer.failedAttempts) failures")
        #expect(initializer.failedAttempts <= Initializer.failuresBeforeBackingOff + 10, "\(initializer.failedAttempts) of \(calls) frames tried")
    }
}
