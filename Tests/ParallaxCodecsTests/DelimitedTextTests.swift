import Foundation
import Testing
@testable import ParallaxCodecs

/// Number fields parse exactly or not at all: a value that does not fit is `nil` (the reader
/// then names the file and line), never an overflow trap (found by fuzzing the TUM reader).
@Suite struct DelimitedTextTests {
    func fields(_ text: String) throws -> [[Int64?]] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-delimited-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: url) }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let table = try #require(DelimitedText(path: url.path))
        var rows: [[Int64?]] = []
        table.forEachRow(separatedBy: .whitespace) { row in rows.append([row.decimalNanoseconds(0), row.int64(0)]) }
        return rows
    }

    @Test func decimalSecondsAndIntegersAtTheirLimits() throws {
        let rows = try fields("1341847980.722988\n9223372036.854775807\n9223372036.854775808\n89999999999.5\n-1.5\n9223372036854775807\n9223372036854775808\n")
        #expect(rows[0][0] == 1_341_847_980_722_988_000)
        #expect(rows[1][0] == Int64.max)
        #expect(rows[2][0] == nil && rows[3][0] == nil)      // past Int64 nanoseconds: refused, not a trap
        #expect(rows[4][0] == -1_500_000_000)
        #expect(rows[5][1] == Int64.max && rows[6][1] == nil)
    }
}
