import Foundation
import Testing
@testable import ParallaxPython

/// The frame format both sides share: lengths read from the socket are checked before use.
@Suite struct WorkerProtocolTests {
    @Test func aFrameSaysItsKindAndLengths() throws {
        let data = try WorkerProtocol.encode(.process, header: "{\"t\":1}", blob: Data([1, 2, 3]))
        let (kind, jsonLength, remaining) = try WorkerProtocol.decodePrefix(data.prefix(WorkerProtocol.prefixBytes))
        #expect(kind == .process && jsonLength == 7 && remaining == 10)
        #expect(data.count == WorkerProtocol.prefixBytes + remaining)
        #expect(String(decoding: data.dropFirst(9).prefix(7), as: UTF8.self) == "{\"t\":1}")
    }

    func prefix(length: UInt32, kind: UInt8, json: UInt32) -> Data {
        var d = Data()
        WorkerProtocol.appendUInt32(length, to: &d)
        d.append(kind)
        WorkerProtocol.appendUInt32(json, to: &d)
        return d
    }

    @Test func lengthsBeyondTheLimitsAreRefusedBeforeAnythingIsRead() {
        // Over the frame limit, a header longer than its frame, a frame too short for its own
        // prefix, a kind nobody speaks.
        for (length, kind, json) in [(UInt32(WorkerProtocol.maxFrameBytes + 1), UInt8(6), UInt32(0)), (100, 6, 96), (4, 6, 0), (10, 99, 0),
                                     (UInt32.max, 6, UInt32.max)] {
            #expect(throws: PythonWorkerError.self) { try WorkerProtocol.decodePrefix(prefix(length: length, kind: kind, json: json)) }
        }
        #expect(throws: Never.self) { try WorkerProtocol.decodePrefix(prefix(length: 100, kind: 6, json: 95)) }
    }

    @Test func aFrameOverTheLimitIsNotSent() {
        #expect(throws: PythonWorkerError.self) {
            try WorkerProtocol.encode(.result, header: "{}", blob: Data(count: WorkerProtocol.maxFrameBytes))
        }
    }
}
