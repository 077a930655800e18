import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
import ParallaxDatasets
import ParallaxMath

/// A dataset format of the user's own: a phone's sensor log, one folder holding `sensorlog.csv`
/// (`time_s,gx,gy,gz,ax,ay,az`: seconds, rad/s, m/s²), read as the stream `imu0`. Registered in
/// `my-parallax` through ``PhoneLogPlugin`` (`ParallaxCLI.main(plugins: [PhoneLogPlugin.self])`),
/// so `run`, `inspect`, `bench` and `convert` read such folders.
public enum PhoneLogFormat: DatasetFormat {
    public static let name = "phone-log"
    public static let expects = "a phone sensor log (sensorlog.csv)"

    public static func recognizes(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent("sensorlog.csv").path)
    }

    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try PhoneLogSource(path: path, validateOrder: options.validateOrder)
    }
}

/// Reads a phone sensor log with Parallax's reader skeleton (``IndexedRows``).
public final class PhoneLogSource: DatasetSource, DeferredPacketSource {
    public let formatName = "phone log"
    public let streams = [StreamDescription(StreamKey<IMUSample>("imu0"))]
    public let groundTruth: Trajectory? = nil
    public let missingImages: [String: Int] = [:]
    public private(set) var listing = StreamListing()
    private var rows = IndexedRows()

    public init(path: String, validateOrder: Bool) throws {
        let file = URL(fileURLWithPath: path).appendingPathComponent("sensorlog.csv").path
        guard let table = DelimitedText(path: file) else { throw DatasetError.notADataset(path: file, expected: "a readable CSV file") }
        try table.forEachRow(separatedBy: .comma) { row in
            if row.line == 1, row.double(0) == nil { return }   // the header line
            guard row.count == 7, let seconds = row.double(0), let gx = row.double(1), let gy = row.double(2), let gz = row.double(3),
                  let ax = row.double(4), let ay = row.double(5), let az = row.double(6) else {
                throw DatasetError.malformedRow(file: file, line: row.line, reason: "expected time_s and six finite numbers")
            }
            let t = Timestamp(seconds: seconds)
            listing.record(stream: "imu0", timestamp: t, file: file, line: row.line)
            rows.add(AnyPacket(stream: "imu0", timestamp: t, payload: IMUSample(gyroscope: Vector3(gx, gy, gz), accelerometer: Vector3(ax, ay, az))), rank: 0)
        }
        if validateOrder { try listing.validate() }
    }

    public func nextDeferred() throws -> DeferredPacket? { try rows.next() }
}

/// The package's dataset format as a plugin bundle.
public enum PhoneLogPlugin: ParallaxPlugin {
    public static let name = "phone-log"
    public static func register(into registry: inout PluginRegistry) {
        registry.datasetFormats.register(PhoneLogFormat.self)
    }
}
