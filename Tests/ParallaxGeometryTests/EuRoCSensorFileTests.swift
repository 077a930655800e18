import Foundation
import Testing
import ParallaxMath
import ParallaxFiles
@testable import ParallaxGeometry

@Suite struct EuRoCSensorFileTests {
    @Test func loadsTheRealCam0Calibration() throws {
        let cal = try EuRoCSensorFile.loadCamera(path: Fixtures.euroc("cam0/sensor.yaml"))
        #expect(cal.model.width == 752 && cal.model.height == 480)
        #expect(cal.model.intrinsics == PinholeIntrinsics(fx: 458.654, fy: 457.296, cx: 367.215, cy: 248.375))
        #expect(cal.model.distortion == .radialTangential(k1: -0.28340811, k2: 0.07395907, p1: 0.00019359, p2: 1.76187114e-05))
        #expect(cal.rateHz == 20)
        // T_BS translation and the first rotation row, as written in the file.
        #expect((cal.bodyFromSensor.translation - Vector3(-0.0216401454975, -0.064676986768, 0.00981073058949)).norm < 1e-15)
        let r = cal.bodyFromSensor.rotation.matrix
        #expect((r.row(0) - Vector3(0.0148655429818, -0.999880929698, 0.00414029679422)).norm < 1e-9)
        #expect(cal.comment == "VI-Sensor cam0 (MT9M034)")
    }

    @Test func loadsTheRealIMUCalibration() throws {
        let imu = try EuRoCSensorFile.loadIMU(path: Fixtures.euroc("imu0/sensor.yaml"))
        #expect(imu.rateHz == 200)
        #expect(imu.noise == IMUNoiseModel(gyroscopeNoiseDensity: 1.6968e-04, gyroscopeRandomWalk: 1.9393e-05,
                                           accelerometerNoiseDensity: 2.0e-3, accelerometerRandomWalk: 3.0e-3))
        #expect(imu.bodyFromSensor == .identity)
    }

    func cameraText(replacing old: String, with new: String) throws -> String {
        let text = try String(contentsOfFile: Fixtures.euroc("cam0/sensor.yaml"), encoding: .utf8)
        #expect(text.contains(old))
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func windowsLineEndingsAndAByteOrderMarkReadAsTheFileItself() throws {
        let text = try String(contentsOfFile: Fixtures.euroc("cam0/sensor.yaml"), encoding: .utf8)
        let original = try EuRoCSensorFile.parseCamera(yaml: text, path: "s.yaml")
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try EuRoCSensorFile.parseCamera(yaml: crlf, path: "s.yaml") == original)
        #expect(try EuRoCSensorFile.parseCamera(yaml: "\u{FEFF}" + crlf, path: "s.yaml") == original)
        // Lines are still counted as written.
        let short = crlf.replacingOccurrences(of: "[458.654, 457.296, 367.215, 248.375]", with: "[458.654]")
        #expect(yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: short, path: "s.yaml") }?.line == 19)
    }

    @Test func missingFileNamesThePath() {
        #expect(throws: CalibrationError.unreadable(path: "/nonexistent/sensor.yaml", reason: "no such file")) {
            _ = try EuRoCSensorFile.loadCamera(path: "/nonexistent/sensor.yaml")
        }
    }

    /// The error `parse` throws, as a located YAML error.
    func yamlError(_ parse: () throws -> Void) -> YAMLDecodingError? {
        do { try parse(); Issue.record("accepted"); return nil } catch let e as YAMLDecodingError { return e } catch { Issue.record("\(error)"); return nil }
    }

    @Test func malformedYAMLNamesFileAndLine() throws {
        let text = try cameraText(replacing: "rate_hz: 20", with: "rate_hz: [20")
        let e = yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: text, path: "cam0/sensor.yaml") }
        #expect(e?.file == "cam0/sensor.yaml" && e?.message.hasPrefix("malformed YAML") == true && "\(e.map { "\($0)" } ?? "")".hasPrefix("cam0/sensor.yaml:"))
    }

    @Test func missingAndInvalidKeysAreNamed() throws {
        let noIntrinsics = try cameraText(replacing: "intrinsics:", with: "intrinsic:")
        #expect(yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: noIntrinsics, path: "s.yaml") }?.message == "missing key 'intrinsics'")
        let shortIntrinsics = try cameraText(replacing: "[458.654, 457.296, 367.215, 248.375]", with: "[458.654, 457.296]")
        let short = yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: shortIntrinsics, path: "s.yaml") }
        #expect(short?.line == 19 && short?.message == "intrinsics: expected 4 numbers, got 2", "\(String(describing: short))")
        for rate in ["0", "-20", ".nan", "fast"] {
            let badRate = try cameraText(replacing: "rate_hz: 20", with: "rate_hz: \(rate)")
            let e = yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: badRate, path: "s.yaml") }
            #expect(e?.message.hasPrefix("rate_hz must be") == true, "\(String(describing: e))")
        }
        // A resolution beyond any image (and beyond Int: 1e300) is refused before anything is
        // allocated for it (an analyzer's ray table of 4e6 × 3e6 would be 96 TB).
        for huge in ["[4000000, 3000000]", "[1e300, 1]"] {
            let text = try cameraText(replacing: "[752, 480]", with: huge)
            let e = yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: text, path: "s.yaml") }
            #expect(e?.message.hasPrefix("resolution:") == true && e?.message.contains("megapixels") == true, "\(String(describing: e))")
        }
        let textValue = try cameraText(replacing: "[752, 480]", with: "[752, wide]")
        #expect(yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: textValue, path: "s.yaml") }?.message == "resolution[1] must be a number, got 'wide'")
        let infinite = try cameraText(replacing: "[752, 480]", with: "[752, .inf]")
        #expect(yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: infinite, path: "s.yaml") }?.message.hasPrefix("resolution: expected finite numbers") == true)
        let unknownModel = try cameraText(replacing: "distortion_model: radial-tangential", with: "distortion_model: fov")
        let model = yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: unknownModel, path: "s.yaml") }
        #expect(model?.line == 20 && model?.message == "distortion_model 'fov' is not supported (radial-tangential, equidistant or none)")
    }

    @Test func nonRigidTBSIsRejected() throws {
        let skewed = try cameraText(replacing: "0.0148655429818, -0.999880929698", with: "0.5, -0.999880929698")
        let e = yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: skewed, path: "s.yaml") }
        #expect(e?.line == 10 && e?.message.hasPrefix("T_BS: ") == true && e?.message.contains("not a rotation") == true, "\(String(describing: e))")
        let small = try cameraText(replacing: "rows: 4", with: "rows: 3")
        #expect(yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: small, path: "s.yaml") }?.message == "T_BS: expected a 4×4 matrix, got rows=3 cols=4")
    }

    @Test func wrongSensorTypeIsNamed() throws {
        let imuText = try String(contentsOfFile: Fixtures.euroc("imu0/sensor.yaml"), encoding: .utf8)
        let e = yamlError { _ = try EuRoCSensorFile.parseCamera(yaml: imuText, path: "imu.yaml") }
        #expect(e?.file == "imu.yaml" && e?.message == "sensor_type is 'imu', expected 'camera'")
    }

    @Test func imuNoiseMustBeNonNegative() throws {
        let text = try String(contentsOfFile: Fixtures.euroc("imu0/sensor.yaml"), encoding: .utf8)
        let negative = text.replacingOccurrences(of: "gyroscope_noise_density: ", with: "gyroscope_noise_density: -")
        #expect(negative != text)
        #expect(yamlError { _ = try EuRoCSensorFile.parseIMU(yaml: negative, path: "imu.yaml") }?.message.hasPrefix("gyroscope_noise_density must be non-negative") == true)
    }
}
