import Foundation
import Testing
import ParallaxDatasets

/// `--calibration STREAM=FILE[#ENTRY]` as written: parsed, named in messages as given, one file
/// per stream.
@Suite struct CalibrationOverrideTests {
    @Test func parsesStreamFileAndEntry() throws {
        let plain = try CalibrationOverride(parsing: "cam0=mav0/cam0/sensor.yaml")
        #expect(plain.stream == "cam0" && plain.file == "mav0/cam0/sensor.yaml" && plain.entry == nil)
        #expect(plain.given == "--calibration cam0=mav0/cam0/sensor.yaml")
        let entry = try CalibrationOverride(parsing: "left=calib/camchain.yaml#cam1")
        #expect(entry.stream == "left" && entry.file == "calib/camchain.yaml" && entry.entry == "cam1")
        // '=' in the file name stays in it (a trailing '#' naming no entry is refused: below).
        let odd = try CalibrationOverride(parsing: "cam0=a=b.yaml")
        #expect(odd.file == "a=b.yaml" && odd.entry == nil)
        #expect(CalibrationOverride(stream: "imu0", file: "imu.yaml", entry: "imu1").given == "--calibration imu0=imu.yaml#imu1")
    }

    @Test func aFileWhoseNameHoldsAHashIsTakenWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-calib-hash-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("rig#2.yaml").path
        try Data("x: 1\n".utf8).write(to: URL(fileURLWithPath: file))
        let o = try CalibrationOverride(parsing: "cam0=\(file)")
        #expect(o.file == file && o.entry == nil)
    }

    @Test func malformedOptionsSayTheForm() {
        for text in ["cam0", "=sensor.yaml", "cam0=", "cam 0=sensor.yaml", ""] {
            #expect(throws: CalibrationOverrideError.self) { _ = try CalibrationOverride(parsing: text) }
        }
        do { _ = try CalibrationOverride(parsing: "cam0") } catch {
            #expect("\(error)" == "--calibration cam0: expected STREAM=FILE (e.g. cam0=mav0/cam0/sensor.yaml, cam0=camchain.yaml#cam1)")
        }
        #expect { _ = try CalibrationOverride(parsing: "cam0=camchain.yaml#") } throws: { "\($0)".hasSuffix("'#' names no entry: give one (FILE#cam1) or leave the '#' out") }
    }

    @Test func oneFilePerStream() throws {
        let a = try CalibrationOverride(parsing: "cam0=a.yaml"), b = try CalibrationOverride(parsing: "cam0=b.yaml")
        let imu = try CalibrationOverride(parsing: "imu0=a.yaml")
        try CalibrationOverride.checkDistinct([a, imu])
        #expect(throws: CalibrationOverrideError(given: "--calibration cam0=b.yaml", reason: "stream 'cam0' is already calibrated by --calibration cam0=a.yaml: give one file per stream")) {
            try CalibrationOverride.checkDistinct([a, imu, b])
        }
    }
}
