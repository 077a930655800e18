import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxFiles
import ParallaxCodecs

/// Writes packets as an EuRoC/ASL folder (`mav0/cam*/`, `mav0/imu0/`,
/// `mav0/state_groundtruth_estimate0/`), readable by EuRoC tools and by ``EuRoCSource``.
/// EuRoC holds cameras, one IMU and ground truth only: other payloads are refused by name.
public final class EuRoCFolderWriter: DatasetWriter {
    private let mav0: URL
    private var csv: [String: String] = [:]
    private var order: [String] = []
    private var metadata: [String: StreamMetadata] = [:]

    /// Creates `path/mav0`.
    public init(path: String) throws {
        mav0 = URL(fileURLWithPath: path).appendingPathComponent("mav0")
        try FileManager.default.createDirectory(at: mav0, withIntermediateDirectories: true)
    }

    /// Records a stream's metadata: camera calibrations become `sensor.yaml` files, and so does
    /// the IMU's.
    public func declare(_ stream: StreamDescription) {
        if !stream.metadata.isEmpty { metadata[OutputPath.relativePath(stream.name)] = stream.metadata }
    }

    /// The written names of the streams seen, by the names the data gave them.
    private var renamed = StreamFolderNames()

    /// Stores one packet: ``CameraFrame`` (PNG) or ``IMUSample`` (stream `imu0` only).
    public func write(_ packet: AnyPacket) throws {
        let name = try renamed.folder(for: packet.stream), t = packet.timestamp.nanoseconds
        func start(_ header: String, images: Bool) throws {
            guard csv[name] == nil else { return }
            try OutputPath.checkRelativeName(name, kind: "stream")
            try FileManager.default.createDirectory(at: mav0.appendingPathComponent(images ? "\(name)/data" : name), withIntermediateDirectories: true)
            csv[name] = header
            order.append(name)
        }
        switch packet.payload {
        case let frame as CameraFrame:
            guard name.hasPrefix("cam") else { throw ParallaxFolderWriter.WriterError.cannotStore(format: "EuRoC", stream: name, reason: "a camera stream's name must begin with 'cam'") }
            try start("#timestamp [ns],filename\n", images: true)
            try ImageEncoder.writePNG(frame.image, to: mav0.appendingPathComponent("\(name)/data/\(t).png").path)
            csv[name]! += "\(t),\(t).png\n"
        case let s as IMUSample where name == "imu0":
            try start("#timestamp [ns],w_RS_S_x [rad s^-1],w_RS_S_y [rad s^-1],w_RS_S_z [rad s^-1],a_RS_S_x [m s^-2],a_RS_S_y [m s^-2],a_RS_S_z [m s^-2]\n", images: false)
            let g = s.gyroscope, a = s.accelerometer
            csv[name]! += "\(t),\(g.x),\(g.y),\(g.z),\(a.x),\(a.y),\(a.z)\n"
        default:
            throw ParallaxFolderWriter.WriterError.cannotStore(format: "EuRoC", stream: name, reason: "its payload is \(type(of: packet.payload)); EuRoC holds cam* cameras, imu0 and ground truth")
        }
    }

    /// Writes the CSV files, camera `sensor.yaml` files (a camera without calibration cannot be
    /// written: EuRoC readers need one), the IMU `sensor.yaml` when its metadata has one, and
    /// ground truth.
    public func finish(groundTruth: Trajectory? = nil) throws {
        let imu = metadata["imu0"]?.imu
        for name in order {
            try csv[name]!.write(to: mav0.appendingPathComponent("\(name)/data.csv"), atomically: true, encoding: .utf8)
            if name.hasPrefix("cam") {
                guard let c = metadata[name]?.camera else {
                    throw ParallaxFolderWriter.WriterError.cannotStore(format: "EuRoC", stream: name, reason: "its frames have no calibration (EuRoC needs a sensor.yaml)")
                }
                try EuRoCSensorFile.cameraYAML(c).write(to: mav0.appendingPathComponent("\(name)/sensor.yaml"), atomically: true, encoding: .utf8)
            }
        }
        if let imu, csv["imu0"] != nil {
            try EuRoCSensorFile.imuYAML(imu).write(to: mav0.appendingPathComponent("imu0/sensor.yaml"), atomically: true, encoding: .utf8)
        }
        if let gt = groundTruth {
            let folder = mav0.appendingPathComponent("state_groundtruth_estimate0")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try TrajectoryFile.writeEuRoC(gt, to: folder.appendingPathComponent("data.csv").path)
        }
    }
}
