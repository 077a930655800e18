import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxImage
import ParallaxMath

/// An analyzer written in Python (`python:FILE.py` in a chain): the bus side of one worker
/// process that hosts the file's `parallax.Analyzer` subclass.
///
/// Its ports and options are the ones the Python class declares (``PythonAnalyzerDescription``).
/// `open` starts the worker and hands it the options, the inputs' calibrations and the shared
/// memory; `process` writes the trigger's images to that memory, sends the rest of its inputs
/// in one ``WorkerProtocol`` frame and emits what the worker answers; `close` asks for the
/// worker's last outputs and reaps it. Every call waits for its answer, so the worker sees the
/// packets in the bus's order and a run gives the same bytes threaded or not. A Python
/// exception is this analyzer's error (the run fails, with the traceback); a worker that dies
/// or misses the timeout is reported with its exit status.
struct PythonAnalyzer: Analyzer {
    static let name = "python"
    static let summary = "An analyzer written in Python (python:FILE.py)"
    typealias Options = NoOptions

    /// The file as the chain names it.
    let file: String
    let interpreter: String
    /// Seconds one answer may take.
    let timeout: Double
    /// The limit of the worker's data (MiB; 0: none): option `memory_mb`.
    let memoryMB: Int
    let declaration: PythonAnalyzerDescription
    /// The options, typed, in declaration order.
    let options: [(String, JSONValue)]
    let inputs: [PortDescription]
    let outputs: [PortDescription]
    private var session: PythonWorkerSession?
    private var memory: SharedImageMemory?

    /// Not made from options: only ``PythonAnalyzers`` makes it, from a file's description.
    init(options: NoOptions) throws {
        throw AnalyzerError.invalidOption(analyzer: Self.name, option: "file", reason: "name the Python file: python:FILE.py")
    }

    init(file: String, interpreter: String, timeout: Double, memoryMB: Int = PythonAnalyzerDescription.defaultMemoryMB,
         declaration: PythonAnalyzerDescription, options: [(String, JSONValue)]) throws(PythonWorkerError) {
        self.file = file
        self.interpreter = interpreter
        self.timeout = timeout
        self.memoryMB = memoryMB
        self.declaration = declaration
        self.options = options
        (inputs, outputs) = try declaration.ports(file: file)
    }

    mutating func open(context: inout AnalyzerContext) throws {
        let memory = try SharedImageMemory(label: context.instanceName)
        // Starting the interpreter and opening (imports, a model loading) may take the start's
        // time even under a short per-call `timeout`, which holds from the first packet on.
        let session = try PythonWorkerSession(file: file, interpreter: interpreter, timeout: max(timeout, PythonAnalyzerDescription.startTimeout),
                                              memoryLimit: memoryMB << 20, sharedMemory: memory.descriptor)
        self.memory = memory
        self.session = session
        var calibrations: [String] = [], streams: [String] = []
        for (port, declared) in zip(inputs, declaration.inputs) {
            let key = InputPort<CameraFrame>.each(port.stream)
            streams.append("\(JSONText.quoted(declared.name)):\(JSONText.quoted(context.stream(of: key)))")
            let metadata = context.metadata(of: key)
            if let camera = metadata.camera ?? metadata.depth?.camera {
                calibrations.append("\(JSONText.quoted(declared.name)):\(Self.json(camera))")
            }
        }
        for (port, declared) in zip(outputs, declaration.outputs) {
            // `Output(…, like="frames")`: the stream is described as that input's (its camera).
            if let like = declared.like, let index = declaration.inputs.firstIndex(where: { $0.name == like }) {
                let metadata = context.metadata(of: InputPort<CameraFrame>.each(inputs[index].stream))
                if !metadata.isEmpty { context.describe(OutputPort<CameraFrame>(port.stream), as: metadata) }
            }
            streams.append("\(JSONText.quoted(declared.name)):\(JSONText.quoted(context.stream(of: OutputPort<CameraFrame>(port.stream))))")
        }
        let optionText = options.map { "\(JSONText.quoted($0.0)):\($0.1.jsonText)" }.joined(separator: ",")
        let digest = declaration.digest.map { "\"digest\":\(JSONText.quoted($0))," } ?? ""
        let header = "{\"instance\":\(JSONText.quoted(context.instanceName)),\"options\":{\(optionText)},\"shm\":\(WorkerProcess.sharedMemoryDescriptor)," + digest
            + "\"calibrations\":{\(calibrations.joined(separator: ","))},\"streams\":{\(streams.joined(separator: ","))}}"
        let (result, blob) = try session.result(.open, header: header, during: "open")
        session.process.timeout = timeout
        try apply(result, blob: blob, context: &context)
    }

    mutating func process(_ input: AnalyzerInput, context: inout AnalyzerContext) throws {
        guard let session, let memory else { throw PythonWorkerError.protocolViolation("python:\(file): process before open") }
        var cursor = 0
        var items: [String] = []
        var trigger = ""
        for (port, declared) in zip(inputs, declaration.inputs) {
            guard let kind = PythonPayloadKind(rawValue: declared.type) else { continue }
            let packets = kind.packets(input, stream: port.stream, policy: port.policy)
            var encoded: [String] = []
            for (t, payload) in packets { encoded.append(try kind.encode(t, payload, memory: memory, cursor: &cursor)) }
            let value: String
            if case .between = port.policy {
                value = "[" + encoded.joined(separator: ",") + "]"
            } else {
                value = encoded.first ?? "null"
            }
            if port.policy == .each, port.stream == input.triggerStream { trigger = declared.name }
            items.append("\(JSONText.quoted(declared.name)):\(value)")
        }
        let header = "{\"t\":\(input.timestamp.nanoseconds),\"trigger\":\(JSONText.quoted(trigger)),\"shm_size\":\(memory.capacity),"
            + "\"inputs\":{\(items.joined(separator: ","))}}"
        let (result, blob) = try session.result(.process, header: header, during: "process")
        try apply(result, blob: blob, context: &context)
    }

    mutating func close(context: inout AnalyzerContext) throws {
        guard let session else { return }
        defer {
            self.session = nil
            memory = nil
        }
        if session.broken {
            session.finish()
            return
        }
        let (result, blob): (WorkerResult, Data)
        do {
            (result, blob) = try session.result(.close, header: "{}", during: "close")
        } catch {
            session.finish()
            throw error
        }
        try apply(result, blob: blob, context: &context)
        if let status = session.finish() {
            throw PythonWorkerError.died(file: file, status: status, during: "close")
        }
    }

    /// Emits what the worker answered, on the ports it names, as their payload types.
    private func apply(_ result: WorkerResult, blob: Data, context: inout AnalyzerContext) throws {
        for w in result.warnings { context.warn(w) }
        for n in result.notes { context.note(n) }
        for e in result.emits {
            guard let index = declaration.outputs.firstIndex(where: { $0.name == e.port }),
                  let kind = PythonPayloadKind(rawValue: declaration.outputs[index].type) else {
                throw PythonWorkerError.protocolViolation("python:\(file): emitted on '\(e.port)', which is not an output")
            }
            let stream = outputs[index].stream, t = Timestamp(nanoseconds: e.t)
            func send<P: Sendable>(_ payload: P) { context.emit(payload, on: OutputPort<P>(stream), at: t) }
            switch kind {
            case .number:
                switch e.value {
                case let .number(d)?: send(d)
                case let .integer(i)?: send(Double(i))
                default: throw bad(e, "a number")
                }
            case .json:
                send(e.value ?? .null)
            case .pose:
                send(try pose(e))
            case .depth:
                send(try depth(e, blob: blob, stream: stream))
            case .tracks: send(try decoded(FeatureTracks.self, e))
            case .boxes: send(try decoded(TrackedObjects.self, e))
            case .landmark: send(try decoded(Landmark.self, e))
            case .matches: send(try decoded(FeatureMatches.self, e))
            case .camera, .imu, .any:
                throw bad(e, "a payload Python analyzers cannot emit yet")
            }
        }
    }

    private func bad(_ e: WorkerResult.Emit, _ what: String) -> PythonWorkerError {
        .exception(file: file, message: "emit on '\(e.port)' at \(e.t) ns: expected \(what)", traceback: "")
    }

    private func pose(_ e: WorkerResult.Emit) throws -> Pose {
        guard let m = e.matrix, m.count == 16 else { throw bad(e, "a 4×4 matrix") }
        let transform: SE3
        do {
            transform = try SE3(homogeneous: Matrix((0..<4).map { i in Array(m[(4 * i)..<(4 * i + 4)]) }))
        } catch {
            throw PythonWorkerError.exception(file: file, message: "emit on '\(e.port)' at \(e.t) ns: not a rigid transform: \(error)", traceback: "")
        }
        var covariance: Matrix?
        if let c = e.covariance {
            guard c.count == 36 else { throw bad(e, "a 6×6 covariance") }
            covariance = Matrix((0..<6).map { i in Array(c[(6 * i)..<(6 * i + 6)]) })
        }
        guard let state = TrackingState(e.state ?? "normal") else { throw bad(e, "a tracking state (normal, limited(REASON), notAvailable)") }
        return Pose(worldFromBody: transform, covariance: covariance, trackingState: state)
    }

    private func depth(_ e: WorkerResult.Emit, blob: Data, stream: String) throws -> DepthMap {
        guard let range = e.blob, range.count == 2, let shape = e.shape, shape.count == 2, shape[0] >= 0, shape[1] >= 0,
              shape[0] <= 1 << 16, shape[1] <= 1 << 16 else { throw bad(e, "an H×W depth map") }
        let (offset, bytes) = (range[0], range[1])
        let count = shape[0] * shape[1]
        guard offset >= 0, bytes == count * 4, offset <= blob.count - bytes else { throw bad(e, "\(count * 4) bytes of float32 depth in the frame") }
        var values = [Float](repeating: 0, count: count)
        values.withUnsafeMutableBytes { dst in
            blob.withUnsafeBytes { src in
                if let s = src.baseAddress, let d = dst.baseAddress { d.copyMemory(from: s + offset, byteCount: bytes) }
            }
        }
        guard let kind = DepthMap.Kind(rawValue: e.kind ?? "depth") else { throw bad(e, "a depth kind (depth, disparity, pixelDisparity)") }
        return DepthMap(sensorID: stream, kind: kind, values: ImageBuffer(width: shape[1], height: shape[0], samples: values))
    }

    private func decoded<P: Decodable>(_: P.Type, _ e: WorkerResult.Emit) throws -> P {
        let text = (e.value ?? .null).jsonText
        do {
            return try JSONDecoder().decode(P.self, from: Data(text.utf8))
        } catch {
            throw PythonWorkerError.exception(file: file, message: "emit on '\(e.port)' at \(e.t) ns: not a \(P.self): \(error)", traceback: "")
        }
    }

    /// A camera calibration as the worker's `Frame.calibration` dict.
    static func json(_ c: CameraCalibration) -> String {
        let m = c.model, k = m.intrinsics
        let distortion: String
        switch m.distortion {
        case .none: distortion = "{\"model\":\"none\",\"coefficients\":[]}"
        case let .radialTangential(k1, k2, p1, p2): distortion = "{\"model\":\"radial-tangential\",\"coefficients\":\(JSONText.numbers([k1, k2, p1, p2]))}"
        case let .equidistant(k1, k2, k3, k4): distortion = "{\"model\":\"equidistant\",\"coefficients\":\(JSONText.numbers([k1, k2, k3, k4]))}"
        }
        let t = c.bodyFromSensor.matrix
        return "{\"width\":\(m.width),\"height\":\(m.height),\"fx\":\(JSONText.number(k.fx)),\"fy\":\(JSONText.number(k.fy)),"
            + "\"cx\":\(JSONText.number(k.cx)),\"cy\":\(JSONText.number(k.cy)),\"distortion\":\(distortion),"
            + "\"body_from_camera\":\(JSONText.numbers((0..<4).flatMap { i in (0..<4).map { j in t[i, j] } }))}"
    }
}
