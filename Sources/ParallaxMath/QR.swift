import CLAPACK

/// Householder QR factorization `A = Q · R` of an `m × n` matrix, by LAPACK `dgeqrf`.
///
/// The factorization is kept in LAPACK's compact form (reflectors + `tau`); ``q(full:)``
/// forms `Q` explicitly with `dorgqr`, ``applyQTransposed(to:)`` applies `Qᵀ` without forming
/// it with `dormqr` (the cheap way to solve least squares or project residuals, as an MSCKF
/// update does).
public struct QR: Sendable {
    /// Number of rows of the factored matrix.
    public let rows: Int
    /// Number of columns of the factored matrix.
    public let columns: Int
    private let factored: [Double]
    private let tau: [Double]

    /// Factors `matrix`. Throws on NaN/Inf input.
    public init(_ matrix: Matrix) throws {
        try matrix.requireFinite("LAPACKE_dgeqrf")
        rows = matrix.rows
        columns = matrix.columns
        var a = matrix.elements
        var t = [Double](repeating: 0, count: min(rows, columns))
        if !t.isEmpty {
            let lease = try LAPACKRuntime.enter("LAPACKE_dgeqrf")
            defer { lease.leave() }
            let info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, lapack_int(rows), lapack_int(columns), &a,
                                      lapack_int(max(1, rows)), &t)
            try checkConvergence(info, routine: "LAPACKE_dgeqrf")
        }
        factored = a
        tau = t
    }

    /// The upper-triangular factor: `min(m, n) × n` (thin) or `m × n` (full).
    public func r(full: Bool = false) -> Matrix {
        let k = full ? rows : min(rows, columns)
        var r = Matrix(rows: k, columns: columns)
        for j in 0..<columns { for i in 0..<min(j + 1, k, rows) { r[i, j] = factored[i + j * rows] } }
        return r
    }

    /// The orthogonal factor, formed with `dorgqr`: `m × min(m, n)` (thin) or `m × m` (full).
    public func q(full: Bool = false) throws -> Matrix {
        let k = tau.count
        let qColumns = full ? rows : k
        var q = Matrix(rows: rows, columns: qColumns)
        for j in 0..<min(columns, qColumns) { for i in 0..<rows { q[i, j] = factored[i + j * rows] } }
        if rows == 0 || qColumns == 0 { return q }
        if k == 0 { return Matrix.identity(rows).block(row: 0, column: 0, rows: rows, columns: qColumns) }
        let lease = try LAPACKRuntime.enter("LAPACKE_dorgqr")
        defer { lease.leave() }
        let info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, lapack_int(rows), lapack_int(qColumns), lapack_int(k),
                                  &q.elements, lapack_int(rows), tau)
        try checkConvergence(info, routine: "LAPACKE_dorgqr")
        return q
    }

    /// `Qᵀ · B` computed with `dormqr`, without forming `Q`. `B` must have `m` rows.
    public func applyQTransposed(to b: Matrix) throws -> Matrix {
        guard b.rows == rows else {
            throw LinearAlgebraError.dimensionMismatch(operation: "LAPACKE_dormqr", expected: "\(rows) rows", got: "\(b.rows)")
        }
        try b.requireFinite("LAPACKE_dormqr")
        var c = b
        if tau.isEmpty || b.columns == 0 { return c }
        let lease = try LAPACKRuntime.enter("LAPACKE_dormqr")
        defer { lease.leave() }
        let info = LAPACKE_dormqr(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "L")), Int8(UInt8(ascii: "T")),
                                  lapack_int(rows), lapack_int(b.columns), lapack_int(tau.count),
                                  factored, lapack_int(max(1, rows)), tau, &c.elements, lapack_int(max(1, rows)))
        try checkConvergence(info, routine: "LAPACKE_dormqr")
        return c
    }
}
