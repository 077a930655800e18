import Foundation

/// A started worker that said hello in this protocol's version: asks it one thing at a time and
/// turns its error answers into ``PythonWorkerError``s naming the file.
final class PythonWorkerSession {
    let process: WorkerProcess
    let file: String
    /// Set once the worker failed (died, timed out, broke the protocol): nothing more is asked.
    private(set) var broken = false

    /// Starts `interpreter` on `file` (with `sharedMemory` as its descriptor 4, when given; its
    /// data limited to `memoryLimit` bytes, 0: none) and checks its hello.
    init(file: String, interpreter: String, timeout: Double, memoryLimit: Int = 0, sharedMemory: Int32? = nil) throws(PythonWorkerError) {
        self.file = file
        process = try WorkerProcess(file: file, interpreter: interpreter, timeout: timeout, memoryLimit: memoryLimit, sharedMemory: sharedMemory)
        let frame: WorkerProtocol.Frame
        do {
            frame = try process.receive(during: "start")
        } catch {
            if case let .died(_, status, _) = error { throw .noHello(interpreter: interpreter, status: status) }
            throw error
        }
        guard frame.kind == .hello, let hello = try? JSONDecoder().decode(WorkerHello.self, from: frame.header) else {
            process.finish()
            throw .protocolViolation("python:\(file): the worker's first frame is not a hello")
        }
        guard hello.protocol == WorkerProtocol.version else {
            process.finish()
            throw .version(file: file, worker: hello.protocol, expected: WorkerProtocol.version)
        }
    }

    /// Sends `kind` with `header` and returns the answer's frame, or throws its error.
    func ask(_ kind: WorkerProtocol.Kind, header: String, expecting: WorkerProtocol.Kind, during: String) throws(PythonWorkerError) -> WorkerProtocol.Frame {
        guard !broken else { throw .protocolViolation("python:\(file): the worker failed before") }
        do {
            try process.send(kind, header: header, during: during)
            let frame = try process.receive(during: during)
            if frame.kind == .error {
                guard let answer = try? JSONDecoder().decode(WorkerErrorAnswer.self, from: frame.header) else {
                    throw PythonWorkerError.protocolViolation("python:\(file): an unreadable error answer")
                }
                switch answer.kind {
                case "import": throw PythonWorkerError.importFailed(file: file, message: answer.message, traceback: answer.traceback ?? "")
                case "no-analyzer": throw PythonWorkerError.declaration(file: file, message: answer.message)
                case "protocol":
                    broken = true
                    throw PythonWorkerError.protocolViolation("python:\(file): \(answer.message)")
                default: throw PythonWorkerError.exception(file: file, message: answer.message, traceback: answer.traceback ?? "")
                }
            }
            guard frame.kind == expecting else {
                broken = true
                throw PythonWorkerError.protocolViolation("python:\(file): answered \(during) with frame kind \(frame.kind.rawValue)")
            }
            return frame
        } catch let error as PythonWorkerError {
            switch error {
            case .died, .timeout, .protocolViolation: broken = true
            default: break
            }
            throw error
        } catch {
            broken = true
            throw .protocolViolation("\(error)")
        }
    }

    /// Asks for a result (`open`, `process`, `close`) and decodes it.
    func result(_ kind: WorkerProtocol.Kind, header: String, during: String) throws(PythonWorkerError) -> (WorkerResult, Data) {
        let frame = try ask(kind, header: header, expecting: .result, during: during)
        do {
            return (try JSONDecoder().decode(WorkerResult.self, from: frame.header), frame.blob)
        } catch {
            broken = true
            throw .protocolViolation("python:\(file): an unreadable result: \(error)")
        }
    }

    /// Ends the worker: `close` already answered, or the worker failed. Returns its exit status
    /// in words when it was not a clean exit.
    @discardableResult
    func finish() -> String? { process.finish() }
}
