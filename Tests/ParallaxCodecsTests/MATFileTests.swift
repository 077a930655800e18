import Foundation
import Testing
import TestSupport
import ParallaxBus
import ParallaxPayloads
import ParallaxFiles
@testable import ParallaxCodecs

@Suite struct MATFileTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/Fixtures/aflw2000_synthetic")
    static let compressed = fixture.appendingPathComponent("image00001.mat").path
    static let plain = fixture.appendingPathComponent("image00002.mat").path
    static let aflw = RepositoryPaths.sharedData("faces/aflw2000_subset").path

    /// scipy's files, compressed (zlib) and not: the numeric variables in their classes (float32,
    /// int16 stored narrow), column-major; cell, struct and char variables listed as skipped.
    @Test func readsNumericVariablesCompressedOrNot() throws {
        for path in [Self.compressed, Self.plain] {
            let file = try MATFile(path: path)
            let pose = try file.matrix("Pose_Para", rows: 1, columns: 7)
            #expect(pose.values.count == 7 && abs(pose.values[3] - 225) < 1e-9)
            let points = try file.matrix("pt3d_68", rows: 3, columns: 68)
            #expect(points[0, 0] > 0 && points[2, 0] > 40)  // x in pixels, z ≈ 60 cm × 100
            #expect(try file.variable("roi").values == [10, 20, 400, 410])
            #expect(Set(file.skipped) == ["note", "cells", "info"])
        }
        #expect(try MATFile(path: Self.compressed).variable("Pose_Para").values.prefix(3).map { $0 * 180 / .pi }.enumerated().allSatisfy { abs($1 - [12.0, -35, 6][$0]) < 1e-4 })
    }

    /// Every truncation of a file is an error naming it, never a crash; so is a damaged byte in
    /// the compressed stream.
    @Test func damagedFilesAreErrorsNamingTheFile() throws {
        for path in [Self.compressed, Self.plain] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let whole = try MATFile(bytes: bytes, path: path)
            var failures = 0
            for length in 0..<bytes.count {
                do {
                    // A cut between whole elements reads the variables before it, unchanged.
                    let file = try MATFile(bytes: Array(bytes.prefix(length)), path: "cut.mat")
                    #expect(file.variables.count < whole.variables.count + whole.skipped.count)
                    for (name, v) in file.variables { #expect(whole.variables[name] == v) }
                } catch let error as MATFileError {
                    failures += 1
                    #expect("\(error)".hasPrefix("cut.mat"))
                }
            }
            #expect(failures > 0)
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.compressed)))
        bytes[200] ^= 0xFF
        #expect(throws: MATFileError.self) { _ = try MATFile(bytes: bytes, path: "flipped.mat") }
    }

    /// A zlib stream of `bytes` in one stored block (no compression) with its Adler-32.
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count < 65536)
        let n = UInt16(bytes.count)
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        return [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + bytes
            + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// A compressed element inflates only as far as the shared ``DecompressionLimit`` allows
    /// (MAT-files declare no uncompressed size: what comes out is counted as it comes), and the
    /// refusal names the file, the element's offset and the sizes.
    @Test func inflatingStopsAtTheLimit() throws {
        let data = (0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let stream = Self.zlibStored(data)[...]
        #expect(try MATFile.inflate(stream, path: "ok.mat", offset: 128) == data)
        let tight = DecompressionLimit(ceilingBytes: 1024, maximumRatio: 1, ratioFreeBytes: 0)
        #expect(performing: { _ = try MATFile.inflate(stream, path: "bomb.mat", offset: 136, limit: tight) }, throws: { error in
            guard let e = error as? DecompressionLimitError else { return false }
            return e.file == "bomb.mat" && e.offset == 136 && e.codec == "zlib" && e.limitBytes == 1024 && !e.declared && error is any BadInput
        })
        // The file's own limit: the ratio bound past 64 MiB, under 256 MiB.
        #expect(MATFile.inflateLimit.limit(compressed: 1000) == 64 << 20)
        #expect(MATFile.inflateLimit.limit(compressed: 100 << 20) == MATFile.maximumInflatedBytes)
    }

    @Test func otherFilesAreRefusedByName() throws {
        #expect { _ = try MATFile(bytes: Array("hello".utf8), path: "x.mat") } throws: { "\($0)".contains("shorter than the 128-byte header") }
        var header = [UInt8](repeating: 0x20, count: 128)
        header.replaceSubrange(0..<6, with: Array("MATLAB".utf8))
        header[124] = 0x00; header[125] = 0x02; header[126] = UInt8(ascii: "I"); header[127] = UInt8(ascii: "M")
        #expect { _ = try MATFile(bytes: header, path: "x.mat") } throws: { "\($0)".contains("v7.3 (HDF5)") }
        header[125] = 0x01
        #expect(try MATFile(bytes: header, path: "empty.mat").variables.isEmpty)
        #expect { _ = try MATFile(bytes: [UInt8](repeating: 0, count: 200), path: "x.mat") } throws: { "\($0)".contains("does not start with 'MATLAB'") }
        let file = try MATFile(path: Self.plain)
        #expect { _ = try file.variable("Shape_Para") } throws: { "\($0)".contains("no numeric variable 'Shape_Para'") && "\($0)".contains("Pose_Para") }
        #expect { _ = try file.matrix("pt3d_68", rows: 2, columns: 68) } throws: { "\($0)".contains("3×68, expected 2×68") }
    }

    /// The real AFLW2000-3D files (MATLAB's own, compressed) read as scipy reads them.
    @Test(.enabled(if: RepositoryPaths.hasSharedData("faces/aflw2000_subset/aflw2000_subset.json"), "../shared/data/faces/aflw2000_subset/aflw2000_subset.json is not present on this machine"))
    func realAFLWFilesMatchScipy() throws {
        let json = (Self.aflw as NSString).appendingPathComponent("aflw2000_subset.json")
        let data = try Data(contentsOf: URL(fileURLWithPath: json))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let images = try #require(root["images"] as? [String: [String: Any]])
        #expect(images.count == 8)
        for (name, values) in images {
            let file = try MATFile(path: (Self.aflw as NSString).appendingPathComponent((name as NSString).deletingPathExtension + ".mat"))
            let pose = try #require(values["pose_para"] as? [Double])
            #expect(try file.variable("Pose_Para").values == pose.map { Double(Float($0)) })
            let pt3d = try #require(values["pt3d_68"] as? [[Double]])
            let points = try file.matrix("pt3d_68", rows: 3, columns: 68)
            for r in 0..<3 { for c in 0..<68 { #expect(points[r, c] == Double(Float(pt3d[r][c]))) } }
            #expect(try file.matrix("Shape_Para", rows: 199, columns: 1).values.count == 199)
        }
    }
}
