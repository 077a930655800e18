import ParallaxFiles
/// A unit of analysis on the frame bus: the plugin interface.
///
/// An analyzer declares a name, a one-line summary, typed inputs (each with a
/// ``SyncPolicy``), typed outputs and an ``AnalyzerOptions`` struct. The bus calls
/// ``open(context:)`` once, ``process(_:context:)`` once per trigger packet in timestamp
/// order, and ``close(context:)`` once at the end (also after an error elsewhere, so buffered
/// results are flushed).
///
/// Threading contract: the bus never calls one analyzer instance concurrently, so an
/// analyzer may keep state in stored properties without locks.
///
/// A minimal analyzer (ports are found in its stored properties, see ``PortDiscovery``):
/// ```swift
/// /// Counts IMU samples between consecutive camera frames.
/// struct IMUPerFrame: Analyzer {
///     static let name = "imu-per-frame"
///     static let summary = "Number of IMU samples between consecutive camera frames"
///     typealias Options = NoOptions
///     let frames = InputPort<CameraFrame>.each("cam0")
///     let imu = InputPort<IMUSample>.between("imu0")
///     let count = OutputPort<Int>("cam0/imu-count")
///     init(options: Options) {}
///     mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
///         context.emit(input.between(imu).count, on: count, at: input.timestamp)
///     }
/// }
/// ```
public protocol Analyzer {
    associatedtype Options: AnalyzerOptions

    /// The registry name used in chains (`klt`, `imu-integrator`).
    static var name: String { get }
    /// One line for `parallax plugins`.
    static var summary: String { get }
    /// The options whose default follows the data when the chain gives none (`snake_case` name →
    /// where the value comes from, for `parallax plugins NAME`): the analyzer reads them in
    /// `open` (``AnalyzerContext/isGiven(_:)``, ``AnalyzerContext/useFromData(_:value:from:)``).
    static var optionsFromData: [String: String] { get }
    /// Options this analyzer asks of the producers of its inputs, applied where the chain gave
    /// the producer none of them (``UpstreamPreference``).
    static var upstreamPreferences: [UpstreamPreference] { get }

    /// Creates the analyzer with its options (validate them here and throw
    /// ``AnalyzerError/invalidOption(analyzer:option:reason:)``).
    init(options: Options) throws

    /// The inputs, with their streams and synchronization. Found in the stored properties by
    /// default; implement it only for ports that are not stored properties.
    var inputs: [PortDescription] { get }
    /// The outputs (found like ``inputs``).
    var outputs: [PortDescription] { get }

    /// Called once before the first packet.
    mutating func open(context: inout AnalyzerContext) throws
    /// Called once per trigger packet, in timestamp order.
    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws
    /// Called once at the end: emit what is still buffered.
    mutating func close(context: inout AnalyzerContext) throws
}

extension Analyzer {
    public static var optionsFromData: [String: String] { [:] }
    public static var upstreamPreferences: [UpstreamPreference] { [] }
    public mutating func open(context: inout AnalyzerContext) throws {}
    public mutating func close(context: inout AnalyzerContext) throws {}
}

/// Errors analyzers and the bus raise about analyzers: bad input (``BadInput``).
public enum AnalyzerError: Error, BadInput, Equatable, Sendable, CustomStringConvertible {
    /// An option value is out of range or inconsistent.
    case invalidOption(analyzer: String, option: String, reason: String)
    /// An input stream lacks metadata the analyzer needs (a camera without calibration).
    case missingMetadata(analyzer: String, stream: String, what: String)
    /// Two input streams that must agree do not, at `timestamp` (ns): `reason` says how (a guide
    /// image whose size is not its depth map's).
    case streamsDisagree(analyzer: String, stream: String, timestamp: Int64, reason: String)
    /// An input stream the analyzer cannot work without gave nothing it could use over the run:
    /// `reason` says what (no readings at all, none within the frames' times).
    case unusableStream(analyzer: String, stream: String, reason: String)

    public var description: String {
        switch self {
        case let .invalidOption(analyzer, option, reason): return "\(analyzer): option '\(option)': \(reason)"
        case let .missingMetadata(analyzer, stream, what):
            return "\(analyzer): stream '\(stream)' has no \(what); give the dataset one (sensor.yaml, 'calibration:' in parallax.yaml, or --calibration STREAM=FILE for the sensor's stream)"
        case let .streamsDisagree(analyzer, stream, timestamp, reason):
            return "\(analyzer): stream '\(stream)' at \(timestamp) ns: \(reason)"
        case let .unusableStream(analyzer, stream, reason):
            return "\(analyzer): stream '\(stream)': \(reason)"
        }
    }
}
