import Testing
@testable import ParallaxMath

@Suite struct QRTests {
    @Test(arguments: [(15, 15), (40, 12), (6, 9), (300, 300)])
    func reconstructsAndQIsOrthonormal(rows: Int, columns: Int) throws {
        let a = TestSupport.randomMatrix(rows: rows, columns: columns, seed: UInt64(rows + 7 * columns))
        let qr = try QR(a)
        let q = try qr.q()
        let r = qr.r()
        #expect(try TestSupport.distance(q.gram(), .identity(min(rows, columns))) <= 1e-12 * Double(rows))
        #expect(try TestSupport.distance(try q * r, a) <= 1e-12 * a.frobeniusNorm)
        for j in 0..<r.columns { for i in (j + 1)..<max(r.rows, j + 1) { #expect(r[i, j] == 0) } }
    }

    @Test func fullQAndApplyQTransposed() throws {
        let a = TestSupport.randomMatrix(rows: 10, columns: 4, seed: 11)
        let qr = try QR(a)
        let q = try qr.q(full: true)
        #expect(q.rows == 10 && q.columns == 10)
        #expect(try TestSupport.distance(q.gram(), .identity(10)) < 1e-13)
        let b = TestSupport.randomMatrix(rows: 10, columns: 3, seed: 12)
        #expect(try TestSupport.distance(try qr.applyQTransposed(to: b), try q.multiplied(by: b, transposeSelf: true)) < 1e-13)
        #expect(try TestSupport.distance(try q.multiplied(by: qr.r(full: true)), a) < 1e-13)
    }

    @Test func illConditionedColumnsStillReconstruct() throws {
        let h = TestSupport.hilbert(10)
        let qr = try QR(h)
        #expect(try TestSupport.distance(try qr.q() * qr.r(), h) <= 1e-12 * h.frobeniusNorm)
        #expect(try TestSupport.distance(try qr.q().gram(), .identity(10)) < 1e-12)
    }

    @Test func errorPaths() throws {
        var a = Matrix.identity(3)
        a[0, 0] = .nan
        #expect(throws: LinearAlgebraError.nonFinite(operation: "LAPACKE_dgeqrf")) { _ = try QR(a) }
        let qr = try QR(Matrix.identity(3))
        #expect(throws: LinearAlgebraError.self) { _ = try qr.applyQTransposed(to: Matrix(rows: 4, columns: 1)) }
    }
}
