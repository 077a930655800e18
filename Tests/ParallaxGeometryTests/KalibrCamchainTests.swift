import Foundation
import Testing
import ParallaxMath
import ParallaxFiles
@testable import ParallaxGeometry

/// Kalibr camchains: EuRoC's two cameras written as `kalibr_calibrate_imu_camera` writes them
/// (Tests/Fixtures/calibration/euroc-camchain.yaml) read back as EuRoC's own sensor files say,
/// and every kind of broken entry refused at its key.
@Suite struct KalibrCamchainTests {
    let text: String

    init() throws { text = try String(contentsOfFile: Fixtures.calibration("euroc-camchain.yaml"), encoding: .utf8) }

    func parse(_ text: String) throws -> KalibrCamchain { try KalibrCamchain.parse(yaml: text, path: "camchain.yaml") }

    func edited(_ old: String, _ new: String) -> String {
        #expect(text.contains(old), "fixture lacks \(old)")
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func readsEuRoCsCamerasAsTheirSensorFilesSay() throws {
        let chain = try KalibrCamchain.load(path: Fixtures.calibration("euroc-camchain.yaml"))
        #expect(chain.cameras.map(\.name) == ["cam0", "cam1"])
        #expect(chain.cameras.map(\.topic) == ["/cam0/image_raw", "/cam1/image_raw"])
        for name in ["cam0", "cam1"] {
            let euroc = try EuRoCSensorFile.loadCamera(path: Fixtures.euroc("\(name)/sensor.yaml"))
            let camera = try #require(chain.camera(named: name))
            #expect(camera.model == euroc.model)
            #expect(camera.timeshiftToIMU == 0)
            // T_BS = T_cam_imu⁻¹: the file's 12 digits give EuRoC's T_BS to 1e-11.
            let body = try #require(chain.bodyFromCamera(named: name))
            #expect((body.translation - euroc.bodyFromSensor.translation).norm < 1e-10)
            #expect((body.rotation.matrix - euroc.bodyFromSensor.rotation.matrix).frobeniusNorm < 1e-10)
        }
    }

    @Test func aCameraWithoutTCamIMUIsPlacedThroughTheChain() throws {
        // cam1 without T_cam_imu: T_cam1_imu = T_cn_cnm1 · T_cam0_imu.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.lastIndex { $0.hasPrefix("  T_cam_imu:") })
        let withoutCam1 = (lines[..<start] + lines[(start + 5)...]).joined(separator: "\n")
        let chain = try parse(withoutCam1)
        #expect(chain.camera(named: "cam1")?.cameraFromIMU == nil)
        let euroc = try EuRoCSensorFile.loadCamera(path: Fixtures.euroc("cam1/sensor.yaml"))
        let body = try #require(chain.bodyFromCamera(named: "cam1"))
        #expect((body.translation - euroc.bodyFromSensor.translation).norm < 1e-9)
        // A camera-only calibration (no T_cam_imu at all) places no camera.
        let start0 = try #require(lines.firstIndex { $0.hasPrefix("  T_cam_imu:") })
        let cameraOnly = (lines[..<start0] + lines[(start0 + 5)..<start] + lines[(start + 5)...]).joined(separator: "\n")
        let only = try parse(cameraOnly)
        #expect(only.bodyFromCamera(named: "cam0") == nil && only.bodyFromCamera(named: "cam1") == nil)
        #expect(only.camera(named: "cam1")?.cameraFromPrevious != nil)
    }

    @Test func openVINSsTImuCamIsTheInverse() throws {
        // OpenVINS's configurations write T_imu_cam (EuRoC's T_BS itself) instead.
        let text = """
            %YAML:1.0
            cam0:
              T_imu_cam:
                - [0.0148655429818, -0.999880929698, 0.00414029679422, -0.0216401454975]
                - [0.999557249008, 0.0149672133247, 0.025715529948, -0.064676986768]
                - [-0.0257744366974, 0.00375618835797, 0.999660727178, 0.00981073058949]
                - [0.0, 0.0, 0.0, 1.0]
              camera_model: pinhole
              distortion_coeffs: [-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05]
              distortion_model: radtan
              intrinsics: [458.654, 457.296, 367.215, 248.375] #fu, fv, cu, cv
              resolution: [752, 480]
              rostopic: /cam0/image_raw
            """
        let euroc = try EuRoCSensorFile.loadCamera(path: Fixtures.euroc("cam0/sensor.yaml"))
        let body = try #require(try parse(text).bodyFromCamera(named: "cam0"))
        #expect((body.translation - euroc.bodyFromSensor.translation).norm < 1e-12)
    }

    @Test func equidistantAndNoDistortionAreRead() throws {
        let fisheye = try parse(edited("distortion_model: radtan\n  intrinsics: [458.654", "distortion_model: equidistant\n  intrinsics: [458.654"))
        #expect(fisheye.cameras[0].model.distortion == .equidistant(k1: -0.28340811, k2: 0.07395907, k3: 0.00019359, k4: 1.76187114e-05))
        let none = try parse(edited("distortion_model: radtan\n  intrinsics: [458.654", "distortion_model: none\n  intrinsics: [458.654"))
        #expect(none.cameras[0].model.distortion == .none)
    }

    @Test func brokenEntriesAreRefusedAtTheirKeys() throws {
        let cases: [(String, String, String)] = [
            ("  intrinsics: [458.654, 457.296, 367.215, 248.375]\n", "", "cam0: missing key 'intrinsics'"),
            ("[458.654, 457.296, 367.215, 248.375]", "[458.654, 457.296, 367.215]", "cam0: intrinsics: expected 4 numbers, got 3"),
            ("[458.654, 457.296, 367.215, 248.375]", "[-458.654, 457.296, 367.215, 248.375]", "cam0: intrinsics: focal lengths must be positive, got fu=-458.654 fv=457.296"),
            ("[-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05]", "[-0.28340811, .nan, 0.00019359, 1.76187114e-05]", "cam0: distortion_coeffs: expected finite numbers"),
            ("[-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05]", "[-0.28340811, 0.07395907]", "cam0: distortion_coeffs: expected 4 numbers, got 2"),
            ("  resolution: [752, 480]\n  rostopic: /cam0", "  resolution: [752.5, 480]\n  rostopic: /cam0", "cam0: resolution: expected two positive integers [width, height]"),
            ("  resolution: [752, 480]\n  rostopic: /cam0", "  resolution: [4000000, 3000000]\n  rostopic: /cam0", "cam0: resolution: 4000000×3000000 exceeds the limit"),
            ("  camera_model: pinhole\n  distortion_coeffs: [-0.28340811", "  camera_model: omni\n  distortion_coeffs: [-0.28340811", "cam0: camera_model 'omni' is not supported (pinhole)"),
            ("  distortion_model: radtan\n  intrinsics: [458.654", "  distortion_model: fov\n  intrinsics: [458.654", "cam0: distortion_model 'fov' is not supported (radtan, equidistant or none)"),
            ("  - [0.0148655429818, 0.999557249008, -0.0257744366974, 0.0652229095355]\n", "", "cam0.T_cam_imu: expected a 4×4 matrix as four rows of four numbers, got 3 row(s)"),
            ("[0.0148655429818, 0.999557249008, -0.0257744366974, 0.0652229095355]", "[0.5, 0.999557249008, -0.0257744366974, 0.0652229095355]", "cam0.T_cam_imu: "),
            ("[0.0148655429818, 0.999557249008, -0.0257744366974, 0.0652229095355]", "[0.0148655429818, 0.999557249008, -0.0257744366974, .inf]", "cam0.T_cam_imu: expected finite numbers"),
            ("  timeshift_cam_imu: 0.0\ncam1:", "  timeshift_cam_imu: .nan\ncam1:", "cam0: timeshift_cam_imu must be a finite number"),
        ]
        for (old, new, message) in cases {
            let e = Fixtures.yamlError { _ = try parse(edited(old, new)) }
            #expect(e?.file == "camchain.yaml" && e?.message.hasPrefix(message) == true, "\(message): \(String(describing: e))")
        }
        // Refusals are located: the short intrinsics at their line.
        let short = Fixtures.yamlError { _ = try parse(edited("[458.654, 457.296, 367.215, 248.375]", "[458.654]")) }
        #expect(short?.line == 14, "\(String(describing: short))")
        // A rotation that is not one is named as such.
        let skewed = Fixtures.yamlError { _ = try parse(edited("[0.0148655429818, 0.999557249008, -0.0257744366974, 0.0652229095355]", "[0.5, 0.999557249008, -0.0257744366974, 0.0652229095355]")) }
        #expect(skewed?.message.contains("not a rotation") == true, "\(String(describing: skewed))")
    }

    @Test func aFileWithoutCamerasIsRefused() {
        let e = Fixtures.yamlError { _ = try parse("imu0: {update_rate: 200}\n") }
        #expect(e?.message.hasPrefix("no cameras") == true)
        let notMapping = Fixtures.yamlError { _ = try parse("- cam0\n") }
        #expect(notMapping?.message == "the document must be a mapping of keys")
        #expect(throws: CalibrationError.self) { _ = try KalibrCamchain.load(path: "/nonexistent/camchain.yaml") }
    }
}
