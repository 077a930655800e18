import Foundation
import Synchronization
import Testing
import ParallaxImage
import ParallaxMath
@testable import ParallaxBus
@testable import ParallaxPayloads
/// The read-ahead is bounded in bytes as well as in packets: large frames are held one or two
/// at a time, small ones up to the packet count; order and content are unchanged.
@Suite struct PrefetchingSourceTests {
    /// `count` gray frames of `bytes` bytes each (frame k filled with k), counting how many were read.
    final class CountingSource: PacketSource, @unchecked Sendable {
        let streams = [StreamDescription(StreamKey<CameraFrame>("cam0"))]
        let count: Int
        let bytes: Int
        let read = Atomic<Int>(0)
        init(count: Int, bytes: Int) { self.count = count; self.bytes = bytes }
        func next() throws -> AnyPacket? {
            let k = read.load(ordering: .relaxed)
            guard k < count else { return nil }
            read.store(k + 1, ordering: .relaxed)
            let image = ImageBuffer<UInt8>(width: bytes, height: 1, repeating: UInt8(truncatingIfNeeded: k))
            return AnyPacket(stream: "cam0", timestamp: Timestamp(nanoseconds: Int64(k)), payload: CameraFrame(cameraID: "cam0", image: image))
        }
    }

    /// Waits (up to 10 s) until `condition` holds; the tests assert counts, never times.
    static func wait(until condition: () -> Bool) {
        var waited = 0
        while !condition() && waited < 1000 { usleep(10_000); waited += 1 }
    }

    /// 1 MB frames under a 2.5 MB budget: after one packet is taken, the reader has read at
    /// most three (one delivered, two held), where the packet count alone (32) lets it read 33.
    @Test func largeFramesAreHeldWithinTheByteBudget() throws {
        let frame = 1_000_000
        let bounded = CountingSource(count: 40, bytes: frame)
        let reader = PrefetchingSource(bounded, workers: 2, capacity: 32, byteBudget: 2_500_000)
        defer { reader.stop() }
        #expect(try reader.next()?.timestamp.nanoseconds == 0)
        Self.wait { bounded.read.load(ordering: .relaxed) >= 3 }
        usleep(200_000)  // time to read further if the bound were broken
        #expect(bounded.read.load(ordering: .relaxed) == 3)
        #expect(reader.peakBytesAhead <= 2 * frame)

        // The same source without a byte budget reads as far as the packet count allows.
        let unbounded = CountingSource(count: 40, bytes: frame)
        let greedy = PrefetchingSource(unbounded, workers: 2, capacity: 32, byteBudget: .max)
        defer { greedy.stop() }
        #expect(try greedy.next()?.timestamp.nanoseconds == 0)
        Self.wait { unbounded.read.load(ordering: .relaxed) >= 33 }
        #expect(unbounded.read.load(ordering: .relaxed) == 33)
        #expect(greedy.peakBytesAhead >= 30 * frame)
    }

    /// Every packet comes out once, in order, with its content — also frames larger than the
    /// whole budget (one at a time).
    @Test(arguments: [100, 3_000_000])
    func packetsComeOutInOrderWhateverTheirSize(bytes: Int) throws {
        let source = CountingSource(count: 12, bytes: bytes)
        let reader = PrefetchingSource(source, workers: 2, capacity: 8, byteBudget: 2_000_000)
        var seen: [Int64] = []
        while let p = try reader.next() {
            let frame = try #require(p.payload as? CameraFrame)
            #expect(frame.image.samples.count == bytes && frame.image.samples.allSatisfy { Int64($0) == p.timestamp.nanoseconds % 256 })
            seen.append(p.timestamp.nanoseconds)
        }
        #expect(seen == (0..<12).map(Int64.init))
        #expect(reader.peakBytesAhead <= max(2_000_000, bytes))
    }

    /// Payloads report their bytes; others count as the small default.
    @Test func payloadsReportTheirBytes() {
        let frame = CameraFrame(cameraID: "c", image: ImageBuffer(width: 40, height: 30, channels: 3, repeating: 0))
        #expect(PayloadBytes.of(frame) == 3600)
        let depth = DepthMap(sensorID: "d", kind: .depth, values: ImageBuffer(width: 10, height: 10, repeating: 0))
        #expect(PayloadBytes.of(depth) == 400)
        #expect(PayloadBytes.of(IMUSample(gyroscope: Vector3(0, 0, 0), accelerometer: Vector3(0, 0, 9.81))) == PayloadBytes.defaultBytes)
    }
}
