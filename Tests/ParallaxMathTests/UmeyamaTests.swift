import Testing
@testable import ParallaxMath

@Suite struct UmeyamaTests {
    static func cloud(_ n: Int, seed: UInt64) -> [Vector3] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { _ in Vector3(Double.random(in: -5...5, using: &rng), Double.random(in: -5...5, using: &rng), Double.random(in: -2...2, using: &rng)) }
    }

    @Test func recoversKnownSim3FromNoisyPoints() throws {
        let truth = Sim3(scale: 1.7, rotation: .exp(Vector3(0.3, -1.1, 2.0)), translation: Vector3(4, -2, 1))
        let source = Self.cloud(500, seed: 1)
        var rng = SeededGenerator(seed: 2)
        let sigma = 0.01
        let target = source.map { truth * $0 + Vector3(rng.nextGaussian(), rng.nextGaussian(), rng.nextGaussian()) * sigma }
        let fit = try Umeyama.align(source: source, target: target, mode: .sim3)
        #expect(abs(fit.transform.scale - 1.7) < 1e-3)
        #expect((fit.transform.rotation.inverse * truth.rotation).angle < 1e-3)
        #expect((fit.transform.translation - truth.translation).norm < 5e-3)
        #expect(abs(fit.rmse - sigma * 3.0.squareRoot()) < 0.002)
    }

    @Test func exactDataGivesExactTransform() throws {
        let truth = Sim3(scale: 0.5, rotation: .exp(Vector3(0, 0, 3.1)), translation: Vector3(1, 2, 3))
        let source = Self.cloud(10, seed: 3)
        let fit = try Umeyama.align(source: source, target: source.map { truth * $0 }, mode: .sim3)
        #expect(abs(fit.transform.scale - 0.5) < 1e-12)
        #expect(fit.rmse < 1e-12)
        let rigid = try Umeyama.align(source: source, target: source.map { truth.se3 * $0 }, mode: .se3)
        #expect(rigid.transform.scale == 1)
        #expect(rigid.rmse < 1e-12)
    }

    @Test func reflectionIsNeverReturned() throws {
        // Target is a mirror image: the best proper rotation must still have det = +1.
        let source = Self.cloud(50, seed: 4)
        let target = source.map { Vector3($0.x, $0.y, -$0.z) }
        let fit = try Umeyama.align(source: source, target: target, mode: .sim3)
        #expect(abs(fit.transform.rotation.matrix.determinant - 1) < 1e-12)
        #expect(fit.transform.scale > 0)
    }

    @Test func degenerateInputThrows() {
        let line = (0..<10).map { Vector3(Double($0), 2 * Double($0), 0) }
        #expect(throws: Umeyama.AlignmentError.self) { _ = try Umeyama.align(source: line, target: line, mode: .se3) }
        #expect(throws: Umeyama.AlignmentError.countMismatch(source: 2, target: 3)) {
            _ = try Umeyama.align(source: [.zero, .zero], target: [.zero, .zero, .zero], mode: .se3)
        }
        #expect(throws: LinearAlgebraError.self) {
            _ = try Umeyama.align(source: [.zero, Vector3(1, 0, 0), Vector3(0, .nan, 0)], target: [.zero, .zero, .zero], mode: .se3)
        }
    }

    @Test func coordinatesWhoseSquaresOverflowAreSaidToBe() {
        let huge = [Vector3(1e308, 0, 0), Vector3(-1e308, 0, 0), Vector3(0, 1e308, 0)]
        let plane = [Vector3.zero, Vector3(1, 0, 0), Vector3(0, 1, 0)]
        #expect(throws: Umeyama.AlignmentError.degenerate(points: 3, reason: "coordinates too large to align (their squares overflow)")) {
            _ = try Umeyama.align(source: huge, target: plane, mode: .se3)
        }
    }
}
