import ParallaxMath
import ParallaxFiles

/// A rigid transform as Kalibr writes one (`T_cam_imu`, `T_cn_cnm1`, `T_i_b`): a list of four
/// rows of four numbers, the last row `[0, 0, 0, 1]`, the rotation orthonormal.
struct KalibrTransformText: Decodable {
    let transform: SE3

    init(from decoder: any Decoder) throws {
        let rows = try decoder.singleValueContainer().decode([[Double]].self)
        guard rows.count == 4, rows.allSatisfy({ $0.count == 4 }) else {
            throw decoder.yamlProblem("expected a 4×4 matrix as four rows of four numbers, got \(rows.count) row(s) of \(rows.map { "\($0.count)" }.joined(separator: ", "))")
        }
        guard rows.joined().allSatisfy(\.isFinite) else { throw decoder.yamlProblem("expected finite numbers, got \(rows)") }
        var matrix = Matrix(rows: 4, columns: 4)
        for i in 0..<4 { for j in 0..<4 { matrix[i, j] = rows[i][j] } }
        do { transform = try SE3(homogeneous: matrix) } catch { throw decoder.yamlProblem("\(error)") }
    }
}
