import Foundation
import Testing
import ParallaxMath
import ParallaxFiles
@testable import ParallaxGeometry

/// Kalibr IMU files in both layouts (Kalibr's input `imu.yaml`, the imu-camera results' `imu0:`)
/// give EuRoC's IMU as its sensor.yaml does; broken values are refused at their keys.
@Suite struct KalibrIMUFileTests {
    func parse(_ text: String) throws -> KalibrIMUFile { try KalibrIMUFile.parse(yaml: text, path: "imu.yaml") }

    @Test func bothLayoutsGiveEuRoCsIMU() throws {
        let euroc = try EuRoCSensorFile.loadIMU(path: Fixtures.euroc("imu0/sensor.yaml"))
        let top = try KalibrIMUFile.load(path: Fixtures.calibration("euroc-imu.yaml"))
        #expect(top.imus.count == 1 && top.imus[0].name == nil && top.imus[0].topic == "/imu0")
        #expect(top.imus[0].calibration == euroc && !top.imus[0].statesBodyFromSensor)
        let chain = try KalibrIMUFile.load(path: Fixtures.calibration("euroc-imu-chain.yaml"))
        #expect(chain.imus.map(\.name) == ["imu0"] && chain.imus[0].statesBodyFromSensor)
        #expect(chain.imus[0].calibration == euroc)
    }

    @Test func TIBIsTheBodyToTheIMU() throws {
        // A body 10 cm along x of the IMU: p_I = T_i_b · p_B, so the IMU sits at x = -0.1 in the body.
        let text = """
            imu0:
              T_i_b: [[1, 0, 0, 0.1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
              accelerometer_noise_density: 0.01
              accelerometer_random_walk: 0.0002
              gyroscope_noise_density: 0.005
              gyroscope_random_walk: 4.0e-06
              update_rate: 100
            imu1:
              accelerometer_noise_density: 0.02
              accelerometer_random_walk: 0.0002
              gyroscope_noise_density: 0.005
              gyroscope_random_walk: 4.0e-06
              update_rate: 400
            """
        let file = try parse(text)
        #expect(file.imus.map(\.name) == ["imu0", "imu1"])
        #expect((file.imus[0].calibration.bodyFromSensor.translation - Vector3(-0.1, 0, 0)).norm < 1e-15)
        #expect(file.imus[1].calibration.rateHz == 400 && file.imus[1].calibration.bodyFromSensor == .identity)
    }

    @Test func brokenValuesAreRefusedAtTheirKeys() throws {
        let text = try String(contentsOfFile: Fixtures.calibration("euroc-imu.yaml"), encoding: .utf8)
        let cases: [(String, String, String)] = [
            ("update_rate:                 200.0", "", "missing key 'update_rate'"),
            ("update_rate:                 200.0", "update_rate: 0", "update_rate must be positive (Hz), got 0.0"),
            ("update_rate:                 200.0", "update_rate: fast", "update_rate must be a number, got 'fast'"),
            ("gyroscope_noise_density:     1.6968e-04", "gyroscope_noise_density: -1.6968e-04", "gyroscope_noise_density must be non-negative"),
            ("accelerometer_random_walk:   3.0000e-3", "accelerometer_random_walk: .inf", "accelerometer_random_walk must be a finite number"),
            ("gyroscope_random_walk:       1.9393e-05", "", "missing key 'gyroscope_random_walk'"),
        ]
        for (old, new, message) in cases {
            #expect(text.contains(old))
            let e = Fixtures.yamlError { _ = try parse(text.replacingOccurrences(of: old, with: new)) }
            #expect(e?.message.hasPrefix(message) == true, "\(message): \(String(describing: e))")
        }
        let chain = try String(contentsOfFile: Fixtures.calibration("euroc-imu-chain.yaml"), encoding: .utf8)
        let shortTIB = Fixtures.yamlError { _ = try parse(chain.replacingOccurrences(of: "  - [0.0, 0.0, 0.0, 1.0]\n", with: "")) }
        #expect(shortTIB?.message.hasPrefix("imu0.T_i_b: expected a 4×4 matrix") == true, "\(String(describing: shortTIB))")
        let inEntry = Fixtures.yamlError { _ = try parse(chain.replacingOccurrences(of: "update_rate: 200.0", with: "update_rate: -1")) }
        #expect(inEntry?.message == "imu0: update_rate must be positive (Hz), got -1.0" && inEntry?.line == 15, "\(String(describing: inEntry))")
    }
}
