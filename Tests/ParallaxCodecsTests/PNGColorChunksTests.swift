import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
@testable import ParallaxCodecs

/// PNGs that declare a gamma or colour profile decode to the samples they store (depth is data,
/// not light); 16-bit colour is scaled to 8 bits, not put through the sRGB curve; 16-bit gray
/// with alpha is refused rather than blended.
@Suite struct PNGColorChunksTests {
    /// A PNG written byte by byte (stored deflate blocks): `colorType` 0 gray, 2 RGB, 4 gray +
    /// alpha; `bits` 8 or 16; `rows` the filtered-free scanlines' samples (big-endian for 16);
    /// `extra` ancillary chunks placed after IHDR.
    static func png(width: Int, height: Int, bits: UInt8, colorType: UInt8, samples: [Int], extra: [(String, [UInt8])]) -> Data {
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return c ^ 0xFFFF_FFFF
        }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be32(body.count) + typed + be32(Int(crc(typed)))
        }
        let perPixel = [0: 1, 2: 3, 4: 2][Int(colorType)] ?? 1
        let rowSamples = width * perPixel
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for s in samples[y * rowSamples..<(y + 1) * rowSamples] {
                if bits == 16 { raw += [UInt8(s >> 8), UInt8(s & 255)] } else { raw.append(UInt8(s)) }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01, 1, UInt8(raw.count & 255), UInt8(raw.count >> 8), UInt8(~raw.count & 255), UInt8(~raw.count >> 8 & 255)] + raw
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        zlib += be32(Int(b << 16 | a))
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", be32(width) + be32(height) + [bits, colorType, 0, 0, 0])
        for (type, body) in extra { out += chunk(type, body) }
        out += chunk("IDAT", zlib) + chunk("IEND", [])
        return Data(out)
    }

    /// gAMA 1/2.2 (45455 in units of 1e-5), as ImageMagick writes by default.
    static let gamma22: (String, [UInt8]) = ("gAMA", [0, 0, 0xB1, 0x8F])

    @Test func depthWithAGammaChunkKeepsItsValues() throws {
        let values = [0, 1000, 5000, 32768, 60000, 65535]
        for extra in [[Self.gamma22], [("sRGB", [0])], [Self.gamma22, ("cHRM", [UInt8](repeating: 1, count: 32))], []] {
            let data = Self.png(width: 3, height: 2, bits: 16, colorType: 0, samples: values, extra: extra)
            guard case let .gray16(image) = try ImageDecoder.decode(data: data, name: "depth.png") else {
                Issue.record("not 16-bit gray"); continue
            }
            #expect(image.samples.map(Int.init) == values, "\(extra.map(\.0))")
        }
    }

    @Test func eightBitWithAGammaChunkKeepsItsValues() throws {
        let values = [0, 10, 64, 128, 200, 255]
        let gray = Self.png(width: 6, height: 1, bits: 8, colorType: 0, samples: values, extra: [("gAMA", [0, 1, 0x86, 0xA0])])  // gamma 1.0
        guard case let .gray8(image) = try ImageDecoder.decode(data: gray, name: "frame.png") else { Issue.record("not gray"); return }
        #expect(image.samples.map(Int.init) == values)
    }

    @Test func sixteenBitColourIsScaledNotCurved() throws {
        let values = [0, 32768, 65535, 257 * 100, 257 * 200, 65535]
        let data = Self.png(width: 2, height: 1, bits: 16, colorType: 2, samples: values, extra: [Self.gamma22])
        guard case let .rgb8(image) = try ImageDecoder.decode(data: data, name: "frame.png") else { Issue.record("not RGB"); return }
        #expect(image.samples == [0, 128, 255, 100, 200, 255])
    }

    @Test func sixteenBitGrayWithAlphaIsRefusedNotBlended() throws {
        let data = Self.png(width: 1, height: 1, bits: 16, colorType: 4, samples: [5000, 32768], extra: [])
        #expect { try ImageDecoder.decode(data: data, name: "depth.png") } throws: { error in
            "\(error)".contains("depth.png") && "\(error)".contains("alpha")
        }
    }

    @Test func aBrokenChunkLayoutIsLeftToLibpng() throws {
        var data = Self.png(width: 1, height: 1, bits: 8, colorType: 0, samples: [7], extra: [Self.gamma22])
        #expect(PNGColorChunks.removing(from: data).count == data.count - 16)
        data[8] = 0x7F  // IHDR's length now runs past the end
        #expect(PNGColorChunks.removing(from: data) == data)
        #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(data: data, name: "broken.png") }
    }
}
