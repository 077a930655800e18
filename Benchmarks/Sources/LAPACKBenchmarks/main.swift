// Times Parallax's LAPACK wrappers against the raw LAPACKE/CBLAS calls they make, at the
// sizes Parallax uses, and prints a Markdown table with the wrapper overhead.
//
// Fairness: LAPACK overwrites its input, so the raw side also copies the input array before
// each call (the wrapper must do the same to keep the caller's matrix). Both sides run with
// one OpenBLAS thread. Batches of the two sides alternate, and the minimum over batches of the
// per-call mean is reported (the least-disturbed estimate on a shared machine).
import CLAPACKRaw
import Foundation
import ParallaxMath

openblas_set_num_threads(1)

func random(_ rows: Int, _ columns: Int, seed: UInt64) -> Matrix {
    var rng = SeededGenerator(seed: seed)
    var m = Matrix(rows: rows, columns: columns)
    for k in m.elements.indices { m.elements[k] = Double.random(in: -1..<1, using: &rng) }
    return m
}

func spd(_ n: Int) -> Matrix {
    var g = random(n, n, seed: UInt64(n)).gram()
    for i in 0..<n { g[i, i] += Double(n) }
    return g
}

/// Nanoseconds per call of `body`, the minimum over `batches` batches of mean time.
func measure(batches: Int, iterations: Int, _ body: () -> Void) -> [Double] {
    let clock = ContinuousClock()
    return (0..<batches).map { _ in
        let start = clock.now
        for _ in 0..<iterations { body() }
        let d = clock.now - start
        let ns = Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
        return ns / Double(iterations)
    }
}

struct Row { let name: String; let wrapper: Double; let raw: Double }
var rows: [Row] = []
var sink = 0.0

@MainActor func compare(_ name: String, flops: Double, wrapper: () -> Double, raw: () -> Double) {
    // Aim for ~20 ms per batch.
    let probe = measure(batches: 1, iterations: 3) { sink += raw() }[0]
    let iterations = max(3, Int(2e7 / max(probe, 1)))
    var w: [Double] = [], r: [Double] = []
    for _ in 0..<7 {
        w += measure(batches: 1, iterations: iterations) { sink += wrapper() }
        r += measure(batches: 1, iterations: iterations) { sink += raw() }
    }
    rows.append(Row(name: name, wrapper: w.min()!, raw: r.min()!))
    _ = flops
}

let S = Int8(UInt8(ascii: "S")), L = Int8(UInt8(ascii: "L"))

for n in [4, 9] {
    let a = random(n, n, seed: 1)
    compare("SVD \(n)×\(n) (dgesdd, thin)", flops: 0, wrapper: {
        try! SVD(a).singularValues[0]
    }, raw: {
        var copy = a.elements
        var s = [Double](repeating: 0, count: n), u = [Double](repeating: 0, count: n * n), vt = u
        _ = LAPACKE_dgesdd(LAPACK_COL_MAJOR, S, Int32(n), Int32(n), &copy, Int32(n), &s, &u, Int32(n), &vt, Int32(n))
        return s[0]
    })
}

for n in [15, 30, 60, 150, 300] {
    let a = spd(n)
    compare("Cholesky \(n)×\(n) (dpotrf), symmetry checked", flops: 0, wrapper: {
        try! Cholesky(a).l[n - 1, n - 1]
    }, raw: {
        var copy = a.elements
        _ = LAPACKE_dpotrf(LAPACK_COL_MAJOR, L, Int32(n), &copy, Int32(n))
        for j in 1..<n { for i in 0..<j { copy[i + j * n] = 0 } }
        return copy[n * n - 1]
    })
    compare("Cholesky \(n)×\(n) (dpotrf), symmetryTolerance: nil", flops: 0, wrapper: {
        try! Cholesky(a, symmetryTolerance: nil).l[n - 1, n - 1]
    }, raw: {
        var copy = a.elements
        _ = LAPACKE_dpotrf(LAPACK_COL_MAJOR, L, Int32(n), &copy, Int32(n))
        // The wrapper also zeroes the upper triangle so `l` is a clean factor.
        for j in 1..<n { for i in 0..<j { copy[i + j * n] = 0 } }
        return copy[n * n - 1]
    })
}

for n in [15, 30, 60, 150, 300] {
    let a = random(n, n, seed: 2)
    compare("QR \(n)×\(n) (dgeqrf)", flops: 0, wrapper: {
        try! QR(a).rows == n ? 1 : 0
    }, raw: {
        var copy = a.elements
        var tau = [Double](repeating: 0, count: n)
        _ = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, Int32(n), Int32(n), &copy, Int32(n), &tau)
        return tau[0]
    })
}

for n in [15, 30, 60, 150, 300] {
    let a = random(n, n, seed: 3), b = random(n, n, seed: 4)
    compare("gemm \(n)×\(n) (cblas_dgemm)", flops: 0, wrapper: {
        try! a.multiplied(by: b).elements[0]
    }, raw: {
        var c = [Double](repeating: 0, count: n * n)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, Int32(n), Int32(n), Int32(n), 1, a.elements, Int32(n),
                    b.elements, Int32(n), 0, &c, Int32(n))
        return c[0]
    })
}

print("| operation | wrapper | raw LAPACKE | overhead |")
print("|---|---:|---:|---:|")
func format(_ ns: Double) -> String {
    ns < 1e4 ? String(format: "%.2f µs", ns / 1e3) : String(format: "%.1f µs", ns / 1e3)
}
for row in rows {
    let overhead = (row.wrapper / row.raw - 1) * 100
    print("| \(row.name) | \(format(row.wrapper)) | \(format(row.raw)) | \(String(format: "%+.1f %%", overhead)) |")
}
if sink == 42 { print("") }  // keep results alive
