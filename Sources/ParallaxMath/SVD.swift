import CLAPACK

/// Singular value decomposition `A = U · diag(σ) · Vᵀ` of an `m × n` matrix.
///
/// Computed by LAPACK `dgesdd` (divide and conquer, the default) or `dgesvd` (QR
/// iteration, slower but the most robust). Singular values are non-negative and sorted
/// in decreasing order.
///
/// - ``Mode/thin``: `U` is `m × k`, `Vᵀ` is `k × n` with `k = min(m, n)`.
/// - ``Mode/full``: `U` is `m × m`, `Vᵀ` is `n × n`.
///
/// Throws ``LinearAlgebraError/nonFinite(operation:)`` on NaN/Inf input and
/// ``LinearAlgebraError/didNotConverge(routine:info:)`` if the iteration fails.
public struct SVD: Sendable {
    /// How much of `U` and `Vᵀ` to compute.
    public enum Mode: Sendable { case thin, full }
    /// Which LAPACK driver to use.
    public enum Algorithm: Sendable {
        /// `dgesdd`: divide and conquer, fastest for all but tiny matrices.
        case divideAndConquer
        /// `dgesvd`: implicit QR iteration.
        case qrIteration
    }

    /// Left singular vectors (columns).
    public let u: Matrix
    /// Singular values σ₁ ≥ σ₂ ≥ … ≥ 0, `min(m, n)` of them.
    public let singularValues: [Double]
    /// Right singular vectors, transposed (rows are the vectors).
    public let vt: Matrix

    /// Decomposes `matrix`.
    public init(_ matrix: Matrix, mode: Mode = .thin, algorithm: Algorithm = .divideAndConquer) throws {
        let routine = algorithm == .divideAndConquer ? "LAPACKE_dgesdd" : "LAPACKE_dgesvd"
        try matrix.requireFinite(routine)
        let m = matrix.rows, n = matrix.columns, k = min(m, n)
        let uColumns = mode == .thin ? k : m
        let vtRows = mode == .thin ? k : n
        var a = matrix.elements
        var s = [Double](repeating: 0, count: k)
        var u = Matrix(rows: m, columns: uColumns)
        var vt = Matrix(rows: vtRows, columns: n)
        if k == 0 { self.u = u; self.singularValues = s; self.vt = vt; return }
        let lease = try LAPACKRuntime.enter(routine)
        defer { lease.leave() }
        let job = Int8(UInt8(ascii: mode == .thin ? "S" : "A"))
        let info: lapack_int = a.withUnsafeMutableBufferPointer { ap in
            s.withUnsafeMutableBufferPointer { sp in
                u.elements.withUnsafeMutableBufferPointer { up in
                    vt.elements.withUnsafeMutableBufferPointer { vp in
                        switch algorithm {
                        case .divideAndConquer:
                            return LAPACKE_dgesdd(LAPACK_COL_MAJOR, job, lapack_int(m), lapack_int(n),
                                                  ap.baseAddress, lapack_int(m), sp.baseAddress,
                                                  up.baseAddress, lapack_int(m), vp.baseAddress, lapack_int(vtRows))
                        case .qrIteration:
                            var superb = [Double](repeating: 0, count: max(1, k - 1))
                            return LAPACKE_dgesvd(LAPACK_COL_MAJOR, job, job, lapack_int(m), lapack_int(n),
                                                  ap.baseAddress, lapack_int(m), sp.baseAddress,
                                                  up.baseAddress, lapack_int(m), vp.baseAddress, lapack_int(vtRows),
                                                  &superb)
                        }
                    }
                }
            }
        }
        try checkConvergence(info, routine: routine)
        self.u = u
        self.singularValues = s
        self.vt = vt
    }

    /// Numerical rank: singular values above `tolerance`, by default `max(m, n) · ε · σ₁`.
    public func rank(tolerance: Double? = nil) -> Int {
        guard let first = singularValues.first else { return 0 }
        let tol = tolerance ?? Double(max(u.rows, vt.columns)) * Double.ulpOfOne * first
        return singularValues.filter { $0 > tol }.count
    }

    /// Reassembles `U · diag(σ) · Vᵀ` (thin part), for checks.
    public func reconstructed() throws -> Matrix {
        let k = singularValues.count
        var us = u.block(row: 0, column: 0, rows: u.rows, columns: k)
        for j in 0..<k { for i in 0..<us.rows { us[i, j] *= singularValues[j] } }
        return try us.multiplied(by: vt.block(row: 0, column: 0, rows: k, columns: vt.columns))
    }
}
