import Foundation
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxFiles

/// The ground-truth boxes of a tracking benchmark sequence, one row per frame: OTB's
/// `groundtruth_rect.txt` (`x,y,w,h`, 1-based pixels) and VOT's `groundtruth.txt` (`x,y,w,h`
/// or a 4-point polygon `x1,y1,…,x4,y4`, 0-based), in Parallax's pixel convention (pixel
/// centres at integers, so a box's edges are at half-integers for whole pixels).
///
/// Fields are separated by commas, tabs or spaces (OTB's files use all three). A row with a
/// `NaN` field, or `0,0,0,0`, marks a frame without the object; a polygon becomes the
/// axis-aligned box of its corners' extremes, as VOT's toolkit converts regions to rectangles.
public enum BoxTruthFile {
    /// Where a file's coordinates start.
    public enum Convention: Sendable, Equatable {
        /// OTB: `x, y` is the top-left pixel, counted from 1 (MATLAB): `x_parallax = x − 1.5`.
        case otb
        /// VOT: coordinates with the image's top-left corner at 0: `x_parallax = x − 0.5`.
        case vot

        /// What to add to a file coordinate to get a Parallax one.
        public var offset: Double { self == .otb ? -1.5 : -0.5 }
    }

    /// One row: its line (1-based) and box, `nil` where the object is absent.
    public struct Row: Sendable, Equatable {
        public var line: Int
        public var box: BoundingBox?
    }

    /// Reads `path`; an error names the file and line of a row that is not 4 or 8 numbers, or
    /// a box of negative size.
    public static func read(_ path: String, convention: Convention) throws -> [Row] {
        guard let data = FileContents.data(atPath: path) else {
            throw DatasetError.notADataset(path: path, expected: "a readable ground-truth file")
        }
        return try parse(String(decoding: data, as: UTF8.self), file: path, convention: convention)
    }

    /// Parses `text` (the contents of `file`, named in errors). Empty lines are skipped.
    public static func parse(_ text: String, file: String, convention: Convention) throws -> [Row] {
        var rows: [Row] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = index + 1
            let fields = raw.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\r" })
            guard !fields.isEmpty else { continue }
            guard fields.count == 4 || fields.count == 8 else {
                throw DatasetError.malformedRow(file: file, line: line, reason: "expected 4 numbers x,y,w,h or 8 (a polygon x1,y1,…,x4,y4), got \(fields.count) field(s)")
            }
            var values: [Double] = []
            for (k, field) in fields.enumerated() {
                if field.lowercased() == "nan" { values.append(.nan); continue }
                guard let v = Double(field), v.isFinite else {
                    throw DatasetError.malformedRow(file: file, line: line, reason: "field \(k + 1) is not a number: '\(field)'")
                }
                values.append(v)
            }
            guard !values.contains(where: \.isNaN) else { rows.append(Row(line: line, box: nil)); continue }
            let box: BoundingBox
            if values.count == 4 {
                guard values[2] >= 0, values[3] >= 0 else {
                    throw DatasetError.malformedRow(file: file, line: line, reason: "the box has a negative size (\(values[2]) × \(values[3]))")
                }
                box = BoundingBox(x: values[0], y: values[1], width: values[2], height: values[3])
            } else {
                let xs = stride(from: 0, to: 8, by: 2).map { values[$0] }, ys = stride(from: 1, to: 8, by: 2).map { values[$0] }
                let x0 = xs.reduce(.infinity, min), x1 = xs.reduce(-.infinity, max), y0 = ys.reduce(.infinity, min), y1 = ys.reduce(-.infinity, max)
                box = BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            }
            guard box.width > 0 || box.height > 0 else { rows.append(Row(line: line, box: nil)); continue }
            rows.append(Row(line: line, box: BoundingBox(x: box.x + convention.offset, y: box.y + convention.offset, width: box.width, height: box.height)))
        }
        return rows
    }

    /// `box` as an OTB row (`x,y,w,h`, 1-based, 4 decimals), `NaN,NaN,NaN,NaN` for `nil`.
    public static func otbRow(_ box: BoundingBox?) -> String {
        guard let b = box else { return "NaN,NaN,NaN,NaN" }
        return String(format: "%.4f,%.4f,%.4f,%.4f", b.x - Convention.otb.offset, b.y - Convention.otb.offset, b.width, b.height)
    }
}
