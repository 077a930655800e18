import Foundation
import Testing

/// An MCAP file's records between its magics, read without Parallax's reader: what the writer
/// tests and the bag tests check bytes with.
public enum MCAPRecords {
    /// One record: its opcode, its offset in the file (bytes) and its body.
    public struct Record { public var op: UInt8; public var offset: Int; public var body: Data }

    /// The records between the magics (expects both and whole records).
    public static func records(_ file: Data) throws -> [Record] {
        #expect(file.prefix(8) == Data([0x89, 0x4D, 0x43, 0x41, 0x50, 0x30, 0x0D, 0x0A]))
        var out: [Record] = []
        var i = 8
        while i + 9 <= file.count - 8 {
            let op = file[file.startIndex + i]
            let length = Int(le(file, i + 1, UInt64.self))
            out.append(Record(op: op, offset: i, body: file.subdata(in: (i + 9)..<(i + 9 + length))))
            i += 9 + length
        }
        #expect(i == file.count - 8)
        return out
    }

    /// The little-endian integer of type `T` at byte `at` of `d`.
    public static func le<T: FixedWidthInteger>(_ d: Data, _ at: Int, _: T.Type) -> T {
        var v: T = 0
        for k in 0..<MemoryLayout<T>.size { v |= T(d[d.startIndex + at + k]) << (8 * k) }
        return v
    }
}
