import Foundation
import ParallaxBus
import ParallaxGeometry
import ParallaxFiles

/// Byte-level scanning of line-oriented tables (EuRoC CSV, TUM/KITTI space-separated).
///
/// Dataset files run to millions of numbers; Swift's `String` splitting works on grapheme
/// clusters and is ~30× slower than needed. This reads the file once as bytes, splits lines
/// and fields on ASCII separators, and parses numbers with `strtod`, so a 20,000-line TUM file
/// loads in a few milliseconds. Lines that are empty or start with `#` are skipped; `\r\n`
/// line ends are accepted.
public struct DelimitedText: Sendable {
    let path: String
    let bytes: [UInt8]

    /// Reads `path`; `nil` when the file cannot be read.
    public init?(path: String) {
        guard let data = FileContents.data(atPath: path) else { return nil }
        self.path = path
        // A trailing NUL lets strtod run directly on the buffer: it stops at any separator.
        self.bytes = [UInt8](data) + [0]
    }

    /// One table row: fields as byte ranges into the file.
    public struct Row {
        public let line: Int
        fileprivate let base: UnsafeBufferPointer<UInt8>
        fileprivate let ranges: [Range<Int>]

        /// Number of fields.
        public var count: Int { ranges.count }

        /// Field `i` as text.
        public func string(_ i: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: base[ranges[i]]), as: UTF8.self) }

        /// Field `i` as a finite `Double` (correctly rounded, as `strtod`), or `nil`.
        public func double(_ i: Int) -> Double? {
            let r = ranges[i]
            guard !r.isEmpty, let start = base.baseAddress.map({ UnsafeRawPointer($0 + r.lowerBound).assumingMemoryBound(to: CChar.self) }) else {
                return nil
            }
            var end: UnsafeMutablePointer<CChar>?
            let v = strtod(start, &end)
            guard let end, UnsafePointer(end) - start == r.count, v.isFinite else { return nil }
            return v
        }

        /// Field `i`, a decimal number of seconds, as exact integer nanoseconds (digits past
        /// the ninth decimal are dropped); `nil` if it is not a plain decimal or does not fit
        /// in 64-bit nanoseconds (±292 years).
        public func decimalNanoseconds(_ i: Int) -> Int64? {
            Timestamp.nanoseconds(decimalSeconds: ranges[i].lazy.map { base[$0] })
        }

        /// Field `i` as an integer (optional leading sign, digits only), or `nil`.
        public func int64(_ i: Int) -> Int64? {
            var r = ranges[i]
            guard !r.isEmpty else { return nil }
            var negative = false
            if base[r.lowerBound] == UInt8(ascii: "-") || base[r.lowerBound] == UInt8(ascii: "+") {
                negative = base[r.lowerBound] == UInt8(ascii: "-")
                r = (r.lowerBound + 1)..<r.upperBound
                guard !r.isEmpty else { return nil }
            }
            var v: Int64 = 0
            for k in r {
                let d = base[k] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int64(d))
                guard !o1, !o2 else { return nil }
                v = s
            }
            return negative ? -v : v
        }
    }

    /// How fields are separated.
    public enum Separator: Sendable {
        /// Commas; spaces around a field are trimmed; empty fields are kept (CSV).
        case comma
        /// Runs of spaces or tabs (TUM, KITTI).
        case whitespace
    }

    /// Calls `body` for every data row.
    public func forEachRow(separatedBy separator: Separator, _ body: (Row) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { p in
            var lineStart = 0
            var lineNumber = 0
            var ranges: [Range<Int>] = []
            let count = p.count - 1  // the trailing NUL is not text
            while lineStart < count {
                lineNumber += 1
                var lineEnd = lineStart
                while lineEnd < count && p[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                let next = lineEnd + 1
                defer { lineStart = next }
                var start = lineStart, end = lineEnd
                while start < end && Self.isBlank(p[start]) { start += 1 }
                while end > start && (Self.isBlank(p[end - 1]) || p[end - 1] == UInt8(ascii: "\r")) { end -= 1 }
                if start == end || p[start] == UInt8(ascii: "#") { continue }
                ranges.removeAll(keepingCapacity: true)
                switch separator {
                case .comma:
                    var fieldStart = start
                    for k in start...end where k == end || p[k] == UInt8(ascii: ",") {
                        var a = fieldStart, z = k
                        while a < z && Self.isBlank(p[a]) { a += 1 }
                        while z > a && Self.isBlank(p[z - 1]) { z -= 1 }
                        ranges.append(a..<z)
                        fieldStart = k + 1
                    }
                case .whitespace:
                    var k = start
                    while k < end {
                        while k < end && Self.isBlank(p[k]) { k += 1 }
                        let a = k
                        while k < end && !Self.isBlank(p[k]) { k += 1 }
                        if k > a { ranges.append(a..<k) }
                    }
                }
                try body(Row(line: lineNumber, base: p, ranges: ranges))
            }
        }
    }

    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { b == 32 || b == 9 }
}
