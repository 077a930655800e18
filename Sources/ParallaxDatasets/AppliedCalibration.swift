/// A calibration given for a stream (``CalibrationOverride``) as applied, said in one line:
/// `cam0: calibration from camchain.yaml (Kalibr camchain cam0), replacing the bag's CameraInfo`
/// or `…, supplied` when the stream had none. `run` prints it and writes it to `run.json`.
public struct AppliedCalibration: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The stream.
    public var stream: String
    /// The calibration file.
    public var file: String
    /// What was read (``StreamCalibration/origin``).
    public var origin: String
    /// What it replaced (`the bag's CameraInfo`, `mav0/cam0/sensor.yaml`); `nil`: the stream had
    /// no calibration, this one is supplied.
    public var replaced: String?
    /// What the file says that is not applied, and what was kept from the stream's own.
    public var remarks: [String]

    public var description: String {
        "\(stream): calibration from \(file) (\(origin)), " + (replaced.map { "replacing \($0)" } ?? "supplied")
            + (remarks.isEmpty ? "" : "; " + remarks.joined(separator: "; "))
    }
}
