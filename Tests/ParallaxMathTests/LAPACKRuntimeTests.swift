import Foundation
import Testing
@testable import ParallaxMath

@Suite struct LAPACKRuntimeTests {
    /// After the pool OpenBLAS started at load is stopped, LAPACK and BLAS give the same bits as
    /// before (one thread either way: the results never depended on the pool), and a second
    /// call is harmless.
    @Test func stoppingThePoolLeavesResultsAlone() throws {
        let a = TestSupport.randomMatrix(rows: 40, columns: 40, seed: 11)
        let gram = try a.multiplied(by: a, transposeSelf: true)
        let before = try SymmetricEigen(gram)
        LAPACKRuntime.startSingleThreaded()
        LAPACKRuntime.startSingleThreaded()
        let after = try SymmetricEigen(gram)
        let product = try a.multiplied(by: a, transposeSelf: true)
        #expect(zip(before.values, after.values).allSatisfy { $0.bitPattern == $1.bitPattern })
        #expect((0..<40).allSatisfy { i in (0..<40).allSatisfy { j in product[i, j].bitPattern == gram[i, j].bitPattern } })
    }
}
