import Foundation
import ParallaxGeometry
import ParallaxMath
import ParallaxFiles

/// A ground-truth homography file (HPatches / Oxford affine `H_1_k`): three lines of three
/// numbers, row-major, mapping pixels of image 1 to image k (`x_k ~ H x_1`).
public enum HomographyFile {
    /// Reads `path`; errors name the file and line.
    public static func read(path: String) throws -> Matrix3 {
        guard let data = FileContents.data(atPath: path) else { throw DenseFileError.unreadable(path: path) }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var rows: [Vector3] = []
        for (number, line) in lines.enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            guard rows.count < 3 else { throw DenseFileError.malformed(path: path, reason: "line \(number + 1): more than three rows") }
            let values = fields.compactMap { Double($0) }
            guard values.count == 3, fields.count == 3, values.allSatisfy(\.isFinite) else {
                throw DenseFileError.malformed(path: path, reason: "line \(number + 1): expected three numbers, got '\(line.trimmingCharacters(in: .whitespaces))'")
            }
            rows.append(Vector3(values[0], values[1], values[2]))
        }
        guard rows.count == 3 else { throw DenseFileError.malformed(path: path, reason: "\(rows.count) rows, a homography has 3") }
        let h = Matrix3(rows: rows[0], rows[1], rows[2])
        guard abs(h.determinant) > 1e-12 else { throw DenseFileError.malformed(path: path, reason: "singular homography") }
        return h
    }
}
