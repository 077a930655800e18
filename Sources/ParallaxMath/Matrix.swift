import CLAPACK

/// A dense matrix of `Double`, stored column-major (LAPACK's layout), copy-on-write.
///
/// Element `(i, j)` (row `i`, column `j`, both 0-based) lives at `elements[i + j * rows]`.
/// Copies share storage until one of them is mutated (the standard library's array
/// semantics), so passing matrices around is cheap.
///
/// The heavy routines (``multiplied(by:transposeSelf:transposeOther:)``, ``SVD``, ``QR``,
/// ``Cholesky``, ``SymmetricEigen``, ``LUDecomposition``, ``Matrix/solve(_:)``,
/// ``Matrix/leastSquares(_:)``) call OpenBLAS/LAPACKE. They check shapes and finiteness first
/// and throw ``LinearAlgebraError`` rather than crash or return garbage.
///
/// OpenBLAS runs single-threaded (see ``LAPACKRuntime``): Parallax parallelizes across
/// stages, and single-threaded BLAS keeps results bit-identical from run to run.
public struct Matrix: Sendable, Equatable, CustomStringConvertible {
    /// Number of rows.
    public let rows: Int
    /// Number of columns.
    public let columns: Int
    /// Column-major elements, `rows * columns` of them.
    public var elements: [Double]

    /// A `rows × columns` matrix filled with `value`.
    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        precondition(rows >= 0 && columns >= 0, "Matrix dimensions must be non-negative")
        self.rows = rows
        self.columns = columns
        self.elements = [Double](repeating: value, count: rows * columns)
    }

    /// A matrix over column-major `elements`; throws when the count does not match.
    public init(rows: Int, columns: Int, columnMajor elements: [Double]) throws {
        guard rows >= 0, columns >= 0, elements.count == rows * columns else {
            throw LinearAlgebraError.dimensionMismatch(
                operation: "Matrix(columnMajor:)", expected: "\(rows * columns) elements", got: "\(elements.count)")
        }
        self.rows = rows
        self.columns = columns
        self.elements = elements
    }

    /// A matrix from nested row arrays, as written on paper: `Matrix([[1, 2], [3, 4]])`.
    /// Ragged input is a programming error (precondition).
    public init(_ rowArrays: [[Double]]) {
        let r = rowArrays.count
        let c = rowArrays.first?.count ?? 0
        precondition(rowArrays.allSatisfy { $0.count == c }, "Matrix rows must all have the same length")
        self.init(rows: r, columns: c)
        for i in 0..<r { for j in 0..<c { elements[i + j * r] = rowArrays[i][j] } }
    }

    /// The `n × n` identity.
    public static func identity(_ n: Int) -> Matrix {
        var m = Matrix(rows: n, columns: n)
        for i in 0..<n { m.elements[i + i * n] = 1 }
        return m
    }

    /// A square matrix with `values` on the diagonal.
    public static func diagonal(_ values: [Double]) -> Matrix {
        var m = Matrix(rows: values.count, columns: values.count)
        for (i, v) in values.enumerated() { m.elements[i + i * values.count] = v }
        return m
    }

    /// Element at row `i`, column `j` (0-based). Out-of-range indices trap, as arrays do.
    @inlinable
    public subscript(i: Int, j: Int) -> Double {
        get { elements[i + j * rows] }
        set { elements[i + j * rows] = newValue }
    }

    /// Whether the matrix is square.
    public var isSquare: Bool { rows == columns }

    /// Whether every element is finite (no NaN, no ±Inf).
    public var isFinite: Bool { finiteMaxAbs() != nil }

    /// The transpose.
    public var transposed: Matrix {
        var t = Matrix(rows: columns, columns: rows)
        for j in 0..<columns { for i in 0..<rows { t.elements[j + i * columns] = elements[i + j * rows] } }
        return t
    }

    /// Frobenius norm √(Σ aᵢⱼ²).
    public var frobeniusNorm: Double {
        elements.withUnsafeBufferPointer { cblas_dnrm2(Int32($0.count), $0.baseAddress, 1) }
    }

    /// Largest absolute element (0 for an empty matrix).
    public var maxAbs: Double { elements.reduce(0) { max($0, abs($1)) } }

    /// Column `j` as an array.
    public func column(_ j: Int) -> [Double] { Array(elements[(j * rows)..<((j + 1) * rows)]) }

    /// Row `i` as an array.
    public func row(_ i: Int) -> [Double] { (0..<columns).map { self[i, $0] } }

    /// The sub-matrix of `rowCount × columnCount` elements starting at `(row, column)`.
    public func block(row: Int, column: Int, rows rowCount: Int, columns columnCount: Int) -> Matrix {
        precondition(row >= 0 && column >= 0 && row + rowCount <= rows && column + columnCount <= columns,
                     "block out of range")
        var b = Matrix(rows: rowCount, columns: columnCount)
        for j in 0..<columnCount { for i in 0..<rowCount { b.elements[i + j * rowCount] = self[row + i, column + j] } }
        return b
    }

    /// Element-wise sum; throws on a shape mismatch.
    public static func + (lhs: Matrix, rhs: Matrix) throws -> Matrix {
        try lhs.requireSameShape(as: rhs, operation: "Matrix +")
        var r = lhs
        for k in r.elements.indices { r.elements[k] += rhs.elements[k] }
        return r
    }

    /// Element-wise difference; throws on a shape mismatch.
    public static func - (lhs: Matrix, rhs: Matrix) throws -> Matrix {
        try lhs.requireSameShape(as: rhs, operation: "Matrix -")
        var r = lhs
        for k in r.elements.indices { r.elements[k] -= rhs.elements[k] }
        return r
    }

    /// Scales every element by `scalar`.
    public static func * (scalar: Double, matrix: Matrix) -> Matrix {
        var r = matrix
        for k in r.elements.indices { r.elements[k] *= scalar }
        return r
    }

    public var description: String {
        (0..<rows).map { i in (0..<columns).map { j in String(self[i, j]) }.joined(separator: " ") }
            .joined(separator: "\n")
    }

    func requireSameShape(as other: Matrix, operation: String) throws {
        guard rows == other.rows, columns == other.columns else {
            throw LinearAlgebraError.dimensionMismatch(
                operation: operation, expected: "\(rows)×\(columns)", got: "\(other.rows)×\(other.columns)")
        }
    }
}
