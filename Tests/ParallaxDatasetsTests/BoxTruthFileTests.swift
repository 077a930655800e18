import Foundation
import Testing
import ParallaxBus
import ParallaxPayloads
@testable import ParallaxDatasets

/// OTB's and VOT's ground-truth files: separators, absent rows, polygons, conventions, errors.
@Suite struct BoxTruthFileTests {
    @Test func otbRowsInEverySeparatorWithAbsentRows() throws {
        let text = "121,86,132,176\n122\t87\t131\t175\r\n\n123 88 130 174\nNaN,NaN,NaN,NaN\n0,0,0,0\n"
        let rows = try BoxTruthFile.parse(text, file: "gt.txt", convention: .otb)
        #expect(rows.map(\.line) == [1, 2, 4, 5, 6])
        // 1-based top-left pixel 121 is pixel 120, whose left edge is at 119.5.
        #expect(rows[0].box == BoundingBox(x: 119.5, y: 84.5, width: 132, height: 176))
        #expect(rows[1].box == BoundingBox(x: 120.5, y: 85.5, width: 131, height: 175))
        #expect(rows[2].box == BoundingBox(x: 121.5, y: 86.5, width: 130, height: 174))
        #expect(rows[3].box == nil && rows[4].box == nil)
    }

    @Test func votPolygonsBecomeTheBoxOfTheirExtremes() throws {
        let rows = try BoxTruthFile.parse("10,20,50,10,60,40,20,50\n5,6,7,8\nnan,nan,nan,nan,nan,nan,nan,nan\n", file: "groundtruth.txt", convention: .vot)
        #expect(rows[0].box == BoundingBox(x: 9.5, y: 9.5, width: 50, height: 40))
        #expect(rows[1].box == BoundingBox(x: 4.5, y: 5.5, width: 7, height: 8))
        #expect(rows[2].box == nil)
    }

    @Test func malformedRowsNameFileAndLine() {
        for (text, line, reason) in [("1,2,3,4\n1,2,3\n", 2, "got 3 field(s)"), ("1,2,3,4\n\n1,2,x,4\n", 3, "field 3 is not a number: 'x'"),
                                     ("1,2,-3,4\n", 1, "negative size"), ("1,2,3,inf\n", 1, "field 4 is not a number")] {
            #expect {
                try BoxTruthFile.parse(text, file: "seq/groundtruth_rect.txt", convention: .otb)
            } throws: { error in
                "\(error)".hasPrefix("seq/groundtruth_rect.txt:\(line): ") && "\(error)".contains(reason)
            }
        }
    }

    @Test func otbRowsRoundTrip() throws {
        let box = BoundingBox(x: 10.25, y: -0.5, width: 33.5, height: 12)
        let rows = try BoxTruthFile.parse(BoxTruthFile.otbRow(box) + "\n" + BoxTruthFile.otbRow(nil) + "\n", file: "f", convention: .otb)
        #expect(rows.map(\.box) == [box, nil])
    }
}
