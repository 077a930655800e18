import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles

/// What a calibration file says about one stream: a camera's or an IMU's calibration, whether it
/// places the sensor on the body, and in words what was read.
public struct StreamCalibration: Sendable, Equatable {
    /// The sensor described.
    public enum Sensor: Sendable, Equatable {
        case camera(CameraCalibration)
        case imu(IMUCalibration)
    }

    public var sensor: Sensor
    /// Whether the file states where the sensor sits on the body (`T_BS`, Kalibr's `T_cam_imu`
    /// or `T_i_b`). When it does not (a ROS camera_info, a camera-only camchain), the stream's own
    /// `T_BS` is kept (identity when it had none).
    public var placesSensor: Bool
    /// What was read: `EuRoC sensor.yaml`, `Kalibr camchain cam1`, `ROS camera_info`,
    /// `Parallax folder stream cam0: cam0/sensor.yaml`.
    public var origin: String
    /// What the file says that Parallax does not apply (`timeshift_cam_imu 0.0021 s not applied`).
    public var remarks: [String] = []
}

/// Reads the calibration of one stream from any calibration file Parallax knows, telling the
/// kind by the file's keys:
///
/// | file | recognized by | gives |
/// |---|---|---|
/// | EuRoC `sensor.yaml` (camera or IMU) | `sensor_type` or `T_BS` | the camera or IMU, placed by `T_BS` |
/// | Parallax folder `parallax.yaml` (or the folder) | `format: parallax-dataset` | the `calibration:` file of the stream of the same name (or `#STREAM`) |
/// | ROS `camera_info` YAML | `image_width`, `camera_matrix` | a camera (size, K, plumb_bob/equidistant), not placed |
/// | Kalibr camchain | `cam0:`, `cam1:`, … | the camera named like the stream, or recorded from its topic (`rostopic`), or `#camN`; placed by `T_cam_imu` (or `T_cn_cnm1` from the previous camera) |
/// | Kalibr IMU file | `imu0:`, … or `accelerometer_noise_density` at the top | the IMU (noise, `update_rate`), placed by `T_i_b` when given |
///
/// Every error is bad input naming the override, the file, and where known the line and key.
public enum StreamCalibrationFile {
    /// What a stream needs from a calibration file.
    public enum Kind: String, Sendable {
        case camera, imu
    }

    /// The kind of calibration `stream` takes: camera frames, depth maps and face landmarks (in a
    /// camera's pixels) a camera's, IMU samples an IMU's; `nil` for other streams.
    public static func kind(of stream: StreamDescription) -> Kind? {
        switch stream.type {
        case PayloadType(CameraFrame.self), PayloadType(DepthMap.self), PayloadType(FaceLandmarks.self): return .camera
        case PayloadType(IMUSample.self): return .imu
        default: return nil
        }
    }

    /// The calibration `override` gives `stream` (of kind `kind`), `topicNames` saying which bag
    /// topics were renamed (`--topic`), for matching a Kalibr entry's `rostopic`.
    public static func load(_ override: CalibrationOverride, for kind: Kind, topicNames: [String: String] = [:]) throws -> StreamCalibration {
        func refuse(_ reason: String) -> CalibrationOverrideError { CalibrationOverrideError(given: override.given, reason: reason) }
        var path = override.file
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw refuse("\(path): no such file") }
        if isFolder.boolValue {
            let description = URL(fileURLWithPath: path).appendingPathComponent("parallax.yaml").path
            guard FileManager.default.fileExists(atPath: description) else {
                throw refuse("\(path) is a folder; name a calibration file (or a Parallax folder, with parallax.yaml)")
            }
            path = description
        }
        let raw: String
        switch FileContents.description(atPath: path) {
        case let .success(text): raw = text
        case let .failure(problem): throw refuse("\(path): \(problem)")
        }
        let text = EuRoCSensorFile.withoutOpenCVDirective(raw)
        let keys = try YAMLDecoding.decode(TopLevel.self, from: text, file: path)
        let names = Set(keys.names)
        let context = Context(override: override, path: path, kind: kind, topicNames: topicNames)

        if names.contains("sensor_type") || names.contains("T_BS") {
            let isCamera = keys.sensorType.map { $0 == "camera" } ?? names.contains("intrinsics")
            try context.requireNoEntry("an EuRoC sensor.yaml")
            try context.require(isCamera ? .camera : .imu, file: "an EuRoC sensor.yaml of \(isCamera ? "a camera" : "an IMU")")
            let sensor: StreamCalibration.Sensor = isCamera ? .camera(try EuRoCSensorFile.parseCamera(yaml: raw, path: path))
                                                           : .imu(try EuRoCSensorFile.parseIMU(yaml: raw, path: path))
            return StreamCalibration(sensor: sensor, placesSensor: true, origin: "EuRoC sensor.yaml")
        }
        if keys.format == ParallaxFolder.formatTag {
            return try context.fromParallaxFolder(text: text)
        }
        if names.contains("camera_matrix") || names.contains("image_width") {
            try context.requireNoEntry("a ROS camera_info file")
            try context.require(.camera, file: "a ROS camera_info file (a camera)")
            let info = try ROSCameraInfoFile.parse(yaml: raw, path: path)
            return StreamCalibration(sensor: .camera(CameraCalibration(model: info.model)), placesSensor: false,
                                     origin: "ROS camera_info" + (info.cameraName.map { " '\($0)'" } ?? ""))
        }
        if names.contains(where: { isNumbered($0, "cam") }) {
            try context.require(.camera, file: "a Kalibr camchain (cameras)")
            return try context.fromCamchain(try KalibrCamchain.parse(yaml: raw, path: path))
        }
        if names.contains(where: { isNumbered($0, "imu") }) || names.contains("accelerometer_noise_density") || names.contains("gyroscope_noise_density") {
            try context.require(.imu, file: "a Kalibr IMU file")
            return try context.fromKalibrIMU(try KalibrIMUFile.parse(yaml: raw, path: path))
        }
        throw refuse("\(path) is not a calibration file Parallax reads: expected an EuRoC sensor.yaml (sensor_type, T_BS), a Kalibr camchain (cam0: …) "
                     + "or IMU file (imu0: …, or accelerometer_noise_density), a ROS camera_info (image_width, camera_matrix) "
                     + "or a Parallax folder's parallax.yaml (format: \(ParallaxFolder.formatTag))")
    }

    /// Whether `name` is `prefix` and a number (`cam0`).
    static func isNumbered(_ name: String, _ prefix: String) -> Bool {
        name.hasPrefix(prefix) && name.count > prefix.count && name.dropFirst(prefix.count).allSatisfy(\.isNumber)
    }

    /// A file's top-level keys, and the values that tell its kind.
    struct TopLevel: Decodable {
        var names: [String] = []
        var sensorType: String?
        var format: String?

        struct Key: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            names = c.allKeys.map(\.stringValue)
            sensorType = try? c.decodeIfPresent(String.self, forKey: Key(stringValue: "sensor_type"))
            format = try? c.decodeIfPresent(String.self, forKey: Key(stringValue: "format"))
        }
    }

    /// One override being read: its file, what the stream needs, and how to refuse.
    struct Context {
        let override: CalibrationOverride
        let path: String
        let kind: Kind
        let topicNames: [String: String]

        func refuse(_ reason: String) -> CalibrationOverrideError { CalibrationOverrideError(given: override.given, reason: reason) }

        /// Refuses `#ENTRY` for a file that holds one sensor.
        func requireNoEntry(_ file: String) throws {
            if let entry = override.entry { throw refuse("\(path) is \(file), which holds one sensor: '#\(entry)' names nothing in it") }
        }

        /// Refuses a file of the other kind than the stream's.
        func require(_ found: Kind, file: String) throws {
            guard found != kind else { return }
            throw refuse("\(path) is \(file), but '\(override.stream)' is \(kind == .camera ? "a camera stream: give a camera's calibration" : "an IMU stream: give an IMU's calibration")")
        }

        /// The stream a recorded topic became (``ROSBagSource/streamName(forTopic:)``, or its `--topic` name).
        func stream(ofTopic topic: String) -> String { topicNames[topic] ?? ROSBagSource.streamName(forTopic: topic) }

        /// The entry `#ENTRY` names, or the one named like the stream, or the one recorded from
        /// the stream's topic; an error listing the entries otherwise.
        func pick<T>(_ entries: [T], name: (T) -> String?, topic: (T) -> String?, what: String) throws -> T {
            func listing() -> String {
                entries.map { e in (name(e) ?? "?") + (topic(e).map { " (\($0))" } ?? "") }.joined(separator: ", ")
            }
            if let entry = override.entry {
                guard let found = entries.first(where: { name($0) == entry }) else {
                    let hint = Spelling.closest(to: entry, in: entries.compactMap(name)).map { "; did you mean '#\($0)'?" } ?? ""
                    throw refuse("\(path) has no \(what) '\(entry)'\(hint) (it has \(listing()))")
                }
                return found
            }
            if let found = entries.first(where: { name($0) == override.stream }) { return found }
            let byTopic = entries.filter { topic($0).map(stream(ofTopic:)) == override.stream }
            if byTopic.count == 1 { return byTopic[0] }
            let topics = entries.contains { topic($0) != nil } ? " or recorded from its topic" : ""
            throw refuse("\(path) has no \(what) named '\(override.stream)'\(topics) (it has \(listing())); "
                         + "name one: \(override.stream)=\(override.file)#\(entries.compactMap(name).first ?? "\(what)0")")
        }

        func fromCamchain(_ chain: KalibrCamchain) throws -> StreamCalibration {
            let camera = try pick(chain.cameras, name: { $0.name }, topic: { $0.topic }, what: "camera")
            let body = chain.bodyFromCamera(named: camera.name)
            var result = StreamCalibration(sensor: .camera(CameraCalibration(model: camera.model, bodyFromSensor: body ?? .identity)),
                                           placesSensor: body != nil, origin: "Kalibr camchain \(camera.name)")
            if let shift = camera.timeshiftToIMU, shift != 0 {
                result.remarks.append("timeshift_cam_imu \(shift) s not applied (frames keep their recorded times)")
            }
            return result
        }

        func fromKalibrIMU(_ file: KalibrIMUFile) throws -> StreamCalibration {
            let imu: KalibrIMUFile.IMU
            if file.imus.count == 1, file.imus[0].name == nil {
                try requireNoEntry("a Kalibr IMU file of one IMU")
                imu = file.imus[0]
            } else {
                imu = try pick(file.imus, name: { $0.name }, topic: { $0.topic }, what: "IMU")
            }
            return StreamCalibration(sensor: .imu(imu.calibration), placesSensor: imu.statesBodyFromSensor,
                                     origin: "Kalibr IMU file" + (imu.name.map { " \($0)" } ?? ""))
        }

        /// The `calibration:` file of a Parallax folder's stream (an EuRoC sensor.yaml, relative
        /// to the folder).
        func fromParallaxFolder(text: String) throws -> StreamCalibration {
            let description = try YAMLDecoding.decode(ParallaxFolderDescription.self, from: text, file: path)
            let entry = try pick(description.streams, name: { $0.name }, topic: { _ in nil }, what: "stream")
            guard let relative = entry.calibration else {
                throw refuse("\(path): stream '\(entry.name)' has no calibration: (a sensor.yaml file of its own)")
            }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            let file = try DatasetPath.resolve(relative, under: folder, listedIn: path, line: entry.calibrationLine)
            let isIMU = entry.type == .imu
            guard entry.type != .accelerometer, entry.type != .faceAnchor, entry.type != .box else {
                throw refuse("\(path): stream '\(entry.name)' is of type \(entry.type.rawValue), which has no camera or IMU calibration")
            }
            try require(isIMU ? .imu : .camera, file: "a Parallax folder whose stream '\(entry.name)' is \(isIMU ? "an IMU" : "a camera")")
            let sensor: StreamCalibration.Sensor = isIMU ? .imu(try EuRoCSensorFile.loadIMU(path: file)) : .camera(try EuRoCSensorFile.loadCamera(path: file))
            return StreamCalibration(sensor: sensor, placesSensor: true, origin: "Parallax folder stream \(entry.name): \(relative)")
        }
    }
}
