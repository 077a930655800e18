import Foundation
import Testing
import ParallaxMath
import ParallaxFiles
@testable import ParallaxGeometry

/// ROS camera_info YAML (camera_calibration_parsers' layout): EuRoC's cam0 written so reads back
/// as its sensor.yaml's model; the distortion models read as a CameraInfo message's; sizes,
/// matrices and numbers checked at their keys.
@Suite struct ROSCameraInfoFileTests {
    let text: String

    init() throws { text = try String(contentsOfFile: Fixtures.calibration("euroc-cam0-camera_info.yaml"), encoding: .utf8) }

    func parse(_ text: String) throws -> ROSCameraInfoFile { try ROSCameraInfoFile.parse(yaml: text, path: "cam0.yaml") }

    func edited(_ old: String, _ new: String) -> String {
        #expect(text.contains(old), "fixture lacks \(old)")
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func readsEuRoCsCam0() throws {
        let info = try ROSCameraInfoFile.load(path: Fixtures.calibration("euroc-cam0-camera_info.yaml"))
        #expect(info.cameraName == "cam0")
        #expect(info.model == (try EuRoCSensorFile.loadCamera(path: Fixtures.euroc("cam0/sensor.yaml"))).model)
    }

    @Test func distortionModelsAsACameraInfoMessage() throws {
        let d = "distortion_model: plumb_bob\ndistortion_coefficients:\n  rows: 1\n  cols: 5\n  data: [-0.28340811, 0.07395907, 0.00019359, 1.76187114e-05, 0]"
        #expect(text.contains(d))
        let fisheye = try parse(edited(d, "distortion_model: equidistant\ndistortion_coefficients: {rows: 1, cols: 4, data: [0.1, -0.02, 0.003, -0.0004]}"))
        #expect(fisheye.model.distortion == .equidistant(k1: 0.1, k2: -0.02, k3: 0.003, k4: -0.0004))
        let none = try parse(edited(d, "distortion_model: plumb_bob\ndistortion_coefficients: {rows: 1, cols: 5, data: [0, 0, 0, 0, 0]}"))
        #expect(none.model.distortion == .radialTangential(k1: 0, k2: 0, p1: 0, p2: 0))
        let absent = try parse(edited(d, ""))
        #expect(absent.model.distortion == .none)
        let rational = try parse(edited(d, "distortion_model: rational_polynomial\ndistortion_coefficients: {rows: 1, cols: 8, data: [0.1, 0.2, 0.003, 0.004, 0, 0, 0, 0]}"))
        #expect(rational.model.distortion == .radialTangential(k1: 0.1, k2: 0.2, p1: 0.003, p2: 0.004))
        let refusals: [(String, String)] = [
            ("distortion_model: plumb_bob\ndistortion_coefficients: {rows: 1, cols: 5, data: [0.1, 0.2, 0.003, 0.004, 0.05]}", "plumb_bob with non-zero coefficients past k1, k2, p1, p2"),
            ("distortion_model: fisheye\ndistortion_coefficients: {rows: 1, cols: 4, data: [0.1, 0.2, 0.003, 0.004]}", "distortion_model 'fisheye' with 4 coefficient(s) is not one Parallax reads"),
            ("distortion_model: plumb_bob\ndistortion_coefficients: {rows: 1, cols: 3, data: [0.1, 0.2, 0.003]}", "distortion_model 'plumb_bob' with 3 coefficient(s)"),
            ("distortion_coefficients: {rows: 1, cols: 4, data: [0.1, 0.2, 0.003, 0.004]}", "distortion coefficients [0.1, 0.2, 0.003, 0.004] without a distortion_model"),
            ("distortion_model: plumb_bob\ndistortion_coefficients: {rows: 1, cols: 5, data: [0.1, 0.2, 0.003, 0.004]}", "distortion_coefficients: data: expected rows × cols = 1 × 5 numbers, got 4"),
            ("distortion_model: plumb_bob\ndistortion_coefficients: {rows: 1, cols: 5, data: [0.1, .nan, 0.003, 0.004, 0]}", "distortion_coefficients: data: expected finite numbers"),
        ]
        for (replacement, message) in refusals {
            let e = Fixtures.yamlError { _ = try parse(edited(d, replacement)) }
            #expect(e?.message.hasPrefix(message) == true, "\(message): \(String(describing: e))")
        }
    }

    @Test func sizesAndMatricesAreChecked() throws {
        let k = "  data: [458.654, 0, 367.215, 0, 457.296, 248.375, 0, 0, 1]"
        let cases: [(String, String, String)] = [
            ("image_height: 480\n", "", "missing key 'image_height'"),
            ("image_width: 752", "image_width: 0", "image_width must be a positive number of pixels, got 0"),
            ("image_width: 752", "image_width: 752.5", "image_width must be a whole number"),
            ("image_width: 752", "image_width: 4000000", "4000000×480 exceeds the limit"),
            ("camera_matrix:\n  rows: 3\n  cols: 3\n" + k + "\n", "", "missing key 'camera_matrix'"),
            (k, "  data: [458.654, 0, 367.215, 0, 457.296, 248.375, 0, 0]", "camera_matrix: data: expected rows × cols = 3 × 3 numbers, got 8"),
            (k, "  data: [458.654, 0, 367.215, 0, .inf, 248.375, 0, 0, 1]", "camera_matrix: data: expected finite numbers"),
            (k, "  data: [0, 0, 367.215, 0, 457.296, 248.375, 0, 0, 1]", "camera_matrix: focal lengths must be positive, got fx=0.0 fy=457.296"),
            (k, "  data: [458.654, 0.5, 367.215, 0, 457.296, 248.375, 0, 0, 1]", "camera_matrix: skew 0.5 is not supported"),
            (k, "  data: [458.654, 0, 367.215, 0, 457.296, 248.375, 0, 0, 2]", "camera_matrix: expected [fx, 0, cx, 0, fy, cy, 0, 0, 1]"),
            ("camera_matrix:\n  rows: 3\n  cols: 3\n" + k, "camera_matrix:\n  rows: 1\n  cols: 9\n" + k, "camera_matrix: expected a 3×3 matrix, got 1×9"),
        ]
        for (old, new, message) in cases {
            let e = Fixtures.yamlError { _ = try parse(edited(old, new)) }
            #expect(e?.message.hasPrefix(message) == true, "\(message): \(String(describing: e))")
        }
        let located = Fixtures.yamlError { _ = try parse(edited(k, "  data: [458.654, 0, 367.215]")) }
        #expect(located?.line == 9, "\(String(describing: located))")
    }
}
