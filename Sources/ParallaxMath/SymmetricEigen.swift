import CLAPACK

/// Eigen-decomposition `A = V · diag(λ) · Vᵀ` of a real symmetric matrix, by LAPACK `dsyevd`
/// (divide and conquer).
///
/// Eigenvalues are sorted ascending; `vectors` holds the orthonormal eigenvectors as columns,
/// in the same order. Contract: square, finite, symmetric within `symmetryTolerance` (relative
/// to the largest element); only the lower triangle is read.
public struct SymmetricEigen: Sendable {
    /// Eigenvalues λ₁ ≤ λ₂ ≤ … ≤ λₙ.
    public let values: [Double]
    /// Orthonormal eigenvectors as columns, `vectors[:, i]` belongs to `values[i]`.
    public let vectors: Matrix

    /// Decomposes `matrix`.
    public init(_ matrix: Matrix, symmetryTolerance: Double = 1e-10) throws {
        try matrix.requireSquare("LAPACKE_dsyevd")
        try matrix.requireFiniteSymmetric("LAPACKE_dsyevd", tolerance: symmetryTolerance)
        let n = matrix.rows
        var a = matrix
        var w = [Double](repeating: 0, count: n)
        if n > 0 {
            let lease = try LAPACKRuntime.enter("LAPACKE_dsyevd")
            defer { lease.leave() }
            let info = LAPACKE_dsyevd(LAPACK_COL_MAJOR, Int8(UInt8(ascii: "V")), Int8(UInt8(ascii: "L")),
                                      lapack_int(n), &a.elements, lapack_int(n), &w)
            try checkConvergence(info, routine: "LAPACKE_dsyevd")
        }
        values = w
        vectors = a
    }
}
