import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath
import ParallaxSim
import ParallaxTesting
@testable import FeatureTracking

@Suite struct RotationAidedTrackingTests {
    /// A camera turning 4° about its body's z axis between two frames (≈ 14 px of image motion)
    /// tracked without a pyramid (levels=0: Lucas–Kanade alone converges over a pixel or two):
    /// from where the features were, almost none are found; started where the gyro rotation
    /// (`rotation=`, in the IMU's frame, moved into the camera's) puts them, they land on the true
    /// projections.
    @Test func theGyroRotationStartsTheSearchWhereTheFeatureMoved() throws {
        let model = CameraModel(width: 240, height: 160, intrinsics: PinholeIntrinsics(fx: 200, fy: 200, cx: 119.5, cy: 79.5))
        let bodyFromCamera = SE3(rotation: SO3(Matrix3(rows: Vector3(0, 0, 1), Vector3(-1, 0, 0), Vector3(0, -1, 0))), translation: .zero)
        let camera = CameraCalibration(model: model, bodyFromSensor: bodyFromCamera)
        // The IMU is mounted turned by 90° about x in the body: its rotations must be moved.
        let imu = IMUCalibration(bodyFromSensor: SE3(rotation: .exp(Vector3(Double.pi / 2, 0, 0)), translation: .zero), rateHz: 200,
                                 noise: SimulationPresets.euRoCIMUNoise)
        let scene = TexturedScene.room(min: Vector3(-3, -3, 0), max: Vector3(3, 3, 3), textures: [StereoMatchingTests.smoothNoise(seed: 5)], tileSize: 0.5)
        let bearings = try TexturedScene.bearings(for: model)
        let turn = SO3.exp(Vector3(0, 0, 4 * Double.pi / 180))   // body k−1 → body k, about body z
        let bodies = [SE3(translation: Vector3(0, 0, 1.5)), SE3(rotation: turn, translation: Vector3(0, 0, 1.5))]
        func frame(_ body: SE3) -> CameraFrame {
            CameraFrame(cameraID: "cam0", image: scene.render(camera: model, bearings: bearings, worldFromCamera: body * bodyFromCamera).image)
        }
        // R_S(k−1)S(k) in the IMU's frame: R_SB R_B(k−1)B(k) R_BS.
        let inIMU = imu.bodyFromSensor.rotation.inverse * turn * imu.bodyFromSensor.rotation
        func run(aided: Bool) throws -> (tracked: Int, errors: [Double]) {
            var options = KLTAnalyzer.Options()
            options.tracker.levels = 0
            options.tracker.ransacThreshold = 0
            options.rotation = aided ? "cam0/gyro-rotation" : ""
            var harness = AnalyzerHarness { try KLTAnalyzer(options: options) }
            harness.describe(StreamKey<CameraFrame>("cam0"), as: StreamMetadata(camera: camera))
            harness.describe(StreamKey<FrameRotation>("cam0/gyro-rotation"), as: StreamMetadata(camera: camera, imu: imu))
            for (k, body) in bodies.enumerated() {
                let stamp = Timestamp(nanoseconds: Int64(k) * 50_000_000)
                harness.push(frame(body), on: StreamKey<CameraFrame>("cam0"), at: stamp)
                if k > 0 {
                    let v = inIMU.log
                    harness.push(FrameRotation(rotationVector: v, angle: v.norm, samples: 10, interval: 0.05), on: StreamKey<FrameRotation>("cam0/gyro-rotation"), at: stamp)
                }
            }
            let out: [Packet<FeatureTracks>] = try harness.run().packets(on: "cam0/tracks")
            #expect(out.count == 2)
            let first = Dictionary(uniqueKeysWithValues: out[0].payload.features.map { ($0.id, $0.pixel) })
            var errors: [Double] = []
            for f in out[1].payload.features {
                guard let p0 = first[f.id] else { continue }
                // Ground truth: the first frame's ray cast into the scene, projected into the second.
                let c0 = bodies[0] * bodyFromCamera, c1 = bodies[1] * bodyFromCamera
                let ray = c0.rotation * (try model.unproject(p0))
                guard let hit = scene.intersect(origin: c0.translation, direction: ray),
                      let truth = model.project(c1.inverse * (c0.translation + hit.t * ray)) else { continue }
                errors.append((f.pixel - truth).norm)
            }
            return (errors.count, errors.sorted())
        }
        let plain = try run(aided: false), aided = try run(aided: true)
        #expect(aided.tracked > 40, "\(aided.tracked) tracked with the rotation")
        #expect(aided.errors[aided.errors.count / 2] < 0.1, "median error \(aided.errors[aided.errors.count / 2]) px")
        // Without it most features are lost or land elsewhere.
        let plainGood = plain.errors.filter { $0 < 0.5 }.count
        #expect(plainGood < aided.tracked / 2, "\(plainGood) good of \(plain.tracked) without the rotation")
    }
}
