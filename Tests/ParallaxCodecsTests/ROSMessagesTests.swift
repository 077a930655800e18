import Foundation
import Testing
@testable import ParallaxCodecs
import ParallaxImage
import ParallaxPayloads

/// sensor_msgs/Image decoding of 16-bit gray (`mono16`, TUM VI's bags): scaled to 8 bits as a
/// 16-bit PNG camera image is, in either byte order, with the row stride honoured; a message
/// shorter than its size says is refused.
@Suite struct ROSMessagesTests {
    /// A ROS 1 (little-endian) sensor_msgs/Image with the given fields.
    static func image(width: Int, height: Int, encoding: String, bigEndian: Bool, step: Int, data: [UInt8]) -> Data {
        var out = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out.append(contentsOf: $0) } }
        func string(_ s: String) { u32(s.utf8.count); out.append(contentsOf: Array(s.utf8)) }
        u32(7); u32(1_403_636_583); u32(500); string("cam0")  // header: seq, stamp, frame_id
        u32(height); u32(width); string(encoding)
        out.append(bigEndian ? 1 : 0)
        u32(step); u32(data.count); out.append(contentsOf: data)
        return out
    }

    @Test(arguments: [false, true])
    func mono16IsScaledToEightBits(bigEndian: Bool) throws {
        // 2 × 2, rows padded to 6 bytes: values 0, 65535 / 32896, 257.
        let values: [[UInt16]] = [[0, 65535], [32896, 257]]
        var bytes: [UInt8] = []
        for row in values {
            for v in row { bytes += bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
            bytes += [0xAA, 0xAA]
        }
        let message = Self.image(width: 2, height: 2, encoding: "mono16", bigEndian: bigEndian, step: 6, data: bytes)
        let frame = try ROSMessages.frame(message, .ros1, type: ROSMessages.image, camera: "cam0", name: "test")
        #expect(frame.image.width == 2 && frame.image.height == 2 && frame.image.channels == 1)
        #expect(frame.image.samples == [0, 255, 128, 1])
        let short = Self.image(width: 2, height: 2, encoding: "mono16", bigEndian: bigEndian, step: 6, data: Array(bytes.prefix(9)))
        #expect { _ = try ROSMessages.frame(short, .ros1, type: ROSMessages.image, camera: "cam0", name: "test") } throws: {
            "\($0)".contains("needs more than its 9 bytes")
        }
    }
}
