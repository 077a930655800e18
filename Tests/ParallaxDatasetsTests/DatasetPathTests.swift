import Foundation
import Testing
@testable import ParallaxDatasets

/// Paths inside a dataset's files never lead out of the dataset: a downloaded dataset cannot
/// make Parallax read `/etc/passwd`.
@Suite struct DatasetPathTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func lexicalContainment() {
        for inside in ["a.png", "data/a.png", "./a.png", "x/../a.png", "rgb/./../rgb/a.png"] { #expect(DatasetPath.staysInside(inside), "\(inside)") }
        for outside in ["", "/etc/passwd", "~/x", "../a.png", "data/../../a.png", "a/../../../etc/passwd"] {
            #expect(!DatasetPath.staysInside(outside), "\(outside)")
        }
    }

    func copy(_ folder: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-containment-\(UUID())")
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("datasets/\(folder)"), to: url)
        return url
    }

    @Test func euRoCImageListedOutsideIsRefusedNamingFileAndLine() throws {
        let url = try copy("euroc_v1_01_cut")
        defer { try? FileManager.default.removeItem(at: url) }
        let csv = url.appendingPathComponent("mav0/cam0/data.csv")
        var text = try String(contentsOf: csv, encoding: .utf8)
        text = text.replacingOccurrences(of: "1403715273312143104,1403715273312143104.png", with: "1403715273312143104,../../../../../../etc/passwd")
        try text.write(to: csv, atomically: true, encoding: .utf8)
        #expect { _ = try EuRoCSource(path: url.path) } throws: { error in
            guard case let DatasetError.pathLeavesDataset(file, line, path) = error else { return false }
            return file.hasSuffix("cam0/data.csv") && line == 3 && path.hasSuffix("etc/passwd") && "\(error)".contains("leaves the dataset folder")
        }
    }

    @Test func tumImageWithAnAbsolutePathIsRefused() throws {
        let url = try copy("tum_rgbd_frame")
        defer { try? FileManager.default.removeItem(at: url) }
        let list = url.appendingPathComponent("rgb.txt")
        try "# timestamp filename\n1341847980.722988 /etc/passwd\n".write(to: list, atomically: true, encoding: .utf8)
        #expect { _ = try TUMRGBDSource(path: url.path) } throws: { error in
            guard case let DatasetError.pathLeavesDataset(file, line, path) = error else { return false }
            return file.hasSuffix("rgb.txt") && line == 2 && path == "/etc/passwd"
        }
    }

    @Test func parallaxFolderPathsAndStreamNamesStayInside() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parallax-containment-\(UUID())")
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let yaml = url.appendingPathComponent("parallax.yaml")
        for (body, bad) in [("ground_truth: ../../elsewhere.csv\nstreams: []\n", "../../elsewhere.csv"),
                            ("streams:\n  - name: ../../tmp/x\n    type: imu\n", "../../tmp/x"),
                            ("streams:\n  - name: cam0\n    type: camera\n    calibration: /etc/passwd\n", "/etc/passwd")] {
            try ("format: parallax-dataset\nversion: 1\n" + body).write(to: yaml, atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(at: url.appendingPathComponent("cam0"), withIntermediateDirectories: true)
            try "#timestamp [ns],filename\n".write(to: url.appendingPathComponent("cam0/data.csv"), atomically: true, encoding: .utf8)
            #expect { _ = try ParallaxFolderSource(path: url.path) } throws: { error in
                guard case let DatasetError.pathLeavesDataset(file, _, path) = error else { return false }
                return file.hasSuffix("parallax.yaml") && path == bad
            }
        }
    }
}
