import Foundation
import Testing
@testable import ParallaxApp
import Parallax
@testable import ParallaxCLI

@Suite struct LargeTimestampTests {
    /// TUM files whose times are nanoseconds (EuRoC stamps in a TUM file) used to trap when read;
    /// they are legal input: evaluated as given, with a warning about the units.
    @Test func nanosecondTimesInATUMFileAreReadAndOutOfRangeOnesAreErrors() throws {
        let folder = Paths.temporary("ns")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ns.tum")
        try (0..<5).map { "\(1_403_636_580_838_555_648 + $0 * 5_000_000) \($0) \($0 * $0) \($0 % 2) 0 0 0 1" }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let trajectory = try TrajectoryFile.read(path: file.path, format: .tum)
        #expect(trajectory.poses[1].timestamp.nanoseconds == 1_403_636_580_843_555_648)
        #expect(parallax(["eval", file.path, file.path]) == 0)
        let bad = folder.appendingPathComponent("bad.tum")
        try "1e300 0 0 0 0 0 0 1\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect { _ = try TrajectoryFile.read(path: bad.path, format: .tum) } throws: { "\($0)".contains("bad.tum:1: timestamp '1e300' is out of range") }
        #expect(parallax(["eval", bad.path, file.path]) == 2)
    }
}
