import Foundation
import ParallaxFiles
import ParallaxBus
import ParallaxPayloads
import ParallaxGeometry
import ParallaxCodecs

/// KITTI stereo folders (`training/` or `testing/` of the 2012 and 2015 benchmarks): the left
/// and right images of each scene's reference frame (`NNNNNN_10.png`) as `cam0` and `cam1`, one
/// pair per 0.1 s in name order (``StereoPairSource``), with the truth where the folder has it.
///
/// | | 2015 | 2012 |
/// |---|---|---|
/// | left, right | `image_2/`, `image_3/` | `colored_0/`, `colored_1/` (or gray `image_0/`, `image_1/`) |
/// | truth, all pixels | `disp_occ_0/` | `disp_occ/` |
/// | truth, non-occluded | `disp_noc_0/` | `disp_noc/` |
/// | calibration | `calib_cam_to_cam/NNNNNN.txt` (`P_rect_02`, `P_rect_03`) | `calib/NNNNNN.txt` (`P2`, `P3`; `P0`, `P1`) |
///
/// Disparities are 16-bit PNGs, `value / 256` px, 0 where unknown. The cameras' projection
/// matrices give `f`, the principal point and the baseline (`(P_left[0,3] − P_right[0,3]) / f`).
/// The scenes of the public benchmarks come from several drives whose calibrations differ:
/// a folder whose frames do not share one calibration is an error naming the first that
/// differs; a single frame opens by its left image's path (`training/image_2/000123_10.png`).
public enum KITTIStereoFormat: DatasetFormat {
    public static let name = "kitti-stereo"
    /// The benchmark's range: its truth is stored as `d · 256` in 16-bit PNGs, so every
    /// disparity it scores is below 256 px (the largest in the 2015 training truth is about 230).
    static let disparitySearch = DisparitySearch(levels: 256, origin: "KITTI's disparity range (below 256 px: 16-bit PNGs of d·256)")
    public static let expects = "a KITTI stereo folder (image_2/ + image_3/ + calib_cam_to_cam/, or colored_0/ + colored_1/ + calib/), or one of its left images"

    /// A layout's folder names and calibration keys.
    struct Layout: Sendable {
        var left: String, right: String, occluded: String, nonOccluded: String, calibration: String, leftKey: String, rightKey: String
    }
    static let layouts = [
        Layout(left: "image_2", right: "image_3", occluded: "disp_occ_0", nonOccluded: "disp_noc_0", calibration: "calib_cam_to_cam", leftKey: "P_rect_02", rightKey: "P_rect_03"),
        Layout(left: "colored_0", right: "colored_1", occluded: "disp_occ", nonOccluded: "disp_noc", calibration: "calib", leftKey: "P2", rightKey: "P3"),
        Layout(left: "image_0", right: "image_1", occluded: "disp_occ", nonOccluded: "disp_noc", calibration: "calib", leftKey: "P0", rightKey: "P1"),
    ]

    /// The folder, its layout, and the one frame asked for (a left image's path), if any.
    static func locate(_ path: String) -> (root: String, layout: Layout, frame: String?)? {
        let fm = FileManager.default
        func has(_ root: String, _ layout: Layout) -> Bool {
            [layout.left, layout.right, layout.calibration].allSatisfy { fm.fileExists(atPath: (root as NSString).appendingPathComponent($0)) }
        }
        if path.hasSuffix(".png") {
            let folder = (path as NSString).deletingLastPathComponent, root = (folder as NSString).deletingLastPathComponent
            guard let layout = layouts.first(where: { $0.left == (folder as NSString).lastPathComponent && has(root, $0) }) else { return nil }
            return (root, layout, (path as NSString).lastPathComponent)
        }
        return layouts.first { has(path, $0) }.map { (path, $0, nil) }
    }

    public static func recognizes(_ path: String) -> Bool { locate(path) != nil }

    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        guard let (root, layout, frame) = locate(path) else { throw DatasetError.notADataset(path: path, expected: expects) }
        let fm = FileManager.default
        let leftFolder = (root as NSString).appendingPathComponent(layout.left)
        let names: [String]
        if let frame {
            guard fm.fileExists(atPath: path) else { throw DatasetError.notADataset(path: path, expected: "an existing left image") }
            names = [frame]
        } else {
            names = ((try? fm.contentsOfDirectory(atPath: leftFolder)) ?? []).filter { $0.hasSuffix("_10.png") }.sorted()
        }
        guard let first = names.first else { throw DatasetError.notADataset(path: path, expected: "\(layout.left)/ holding NNNNNN_10.png images") }
        // One calibration for every frame played.
        var calibration: (file: String, value: Calibration)?
        for name in names {
            let file = (root as NSString).appendingPathComponent("\(layout.calibration)/\(name.dropLast("_10.png".count)).txt")
            let value = try Calibration(file: file, leftKey: layout.leftKey, rightKey: layout.rightKey)
            if let calibration, !calibration.value.matches(value) {
                throw DatasetError.malformedRow(file: file, line: 0, reason: "its calibration differs from \(calibration.file)'s (the scenes come from different drives); "
                                                + "open one frame: \((leftFolder as NSString).appendingPathComponent(name))")
            }
            if calibration == nil { calibration = (file, value) }
        }
        guard let calibration else { throw DatasetError.notADataset(path: path, expected: expects) }
        let firstImage = (leftFolder as NSString).appendingPathComponent(first)
        let size = try ImageDecoder.decode(path: firstImage).size
        let c = calibration.value
        let cameras = StereoPairSource.rectifiedCalibration(width: size.width, height: size.height, focalLength: c.focalLength, cx0: c.cx0, cx1: c.cx1, cy: c.cy,
                                                            baseline: c.baseline)
        let pairs = names.enumerated().map { i, name -> StereoPairFiles in
            let occluded = (root as NSString).appendingPathComponent("\(layout.occluded)/\(name)")
            let nonOccluded = (root as NSString).appendingPathComponent("\(layout.nonOccluded)/\(name)")
            let truthFile = fm.fileExists(atPath: occluded) ? occluded : fm.fileExists(atPath: nonOccluded) ? nonOccluded : nil
            let maskFile = truthFile == occluded && fm.fileExists(atPath: nonOccluded) ? nonOccluded : nil
            let truth = truthFile.map { truthReader(disparity: $0, mask: maskFile, width: size.width, height: size.height) }
            return StereoPairFiles(time: Timestamp(nanoseconds: Int64(i) * 100_000_000), left: (leftFolder as NSString).appendingPathComponent(name),
                                   right: (root as NSString).appendingPathComponent("\(layout.right)/\(name)"), truth: truth)
        }
        return try StereoPairSource(formatName: "KITTI stereo", pairs: pairs, left: cameras.left, right: cameras.right, disparitySearch: disparitySearch,
                                    listedIn: leftFolder, strict: options.strict)
    }

    /// Reads the truth `disparity` and, when given, the non-occluded pixels (those `mask` knows).
    static func truthReader(disparity file: String, mask maskFile: String?, width: Int, height: Int) -> @Sendable () throws -> DisparityTruth {
        return {
            let disparity = try readDisparity(file, width: width, height: height)
            let mask = try maskFile.map { try readDisparity($0, width: width, height: height).samples.map { !$0.isNaN } }
            return DisparityTruth(disparity: disparity, nonOccluded: mask, file: file)
        }
    }

    /// A KITTI disparity PNG (16 bits, `value / 256` px, 0 = unknown → NaN), checked to be `width × height`.
    public static func readDisparity(_ file: String, width: Int, height: Int) throws -> ImageBuffer<Float> {
        guard case let .gray16(raw) = try ImageDecoder.decode(path: file) else {
            throw ImageDecodingError.unsupported(path: file, reason: "a KITTI disparity must be a 16-bit gray PNG")
        }
        guard raw.width == width, raw.height == height else {
            throw DatasetError.malformedRow(file: file, line: 0, reason: "the disparity is \(raw.width)×\(raw.height), the images \(width)×\(height)")
        }
        return ImageBuffer(width: width, height: height, samples: raw.samples.map { $0 == 0 ? Float.nan : Float($0) / 256 })
    }

    /// A frame's rectified projection matrices, as `f`, principal points and baseline.
    public struct Calibration: Sendable, Equatable {
        public var focalLength: Double, cx0: Double, cx1: Double, cy: Double
        /// Distance between the cameras (m).
        public var baseline: Double

        /// Reads `leftKey` and `rightKey` (`P_rect_02: 12 numbers`, row-major 3×4) from `file`.
        public init(file: String, leftKey: String, rightKey: String) throws {
            guard case let .success(text) = FileContents.description(atPath: file) else {
                throw DatasetError.notADataset(path: file, expected: "a readable KITTI calibration file")
            }
            var matrices: [String: (numbers: [Double], line: Int)] = [:]
            for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
                guard let colon = raw.firstIndex(of: ":") else { continue }
                let key = raw[..<colon].trimmingCharacters(in: .whitespaces)
                guard key == leftKey || key == rightKey else { continue }
                let numbers = raw[raw.index(after: colon)...].split(separator: " ").compactMap { Double($0) }
                guard numbers.count == 12, numbers.allSatisfy(\.isFinite) else {
                    throw DatasetError.malformedRow(file: file, line: i + 1, reason: "'\(key)' must hold 12 numbers (a 3×4 projection matrix)")
                }
                matrices[key] = (numbers, i + 1)
            }
            guard let l = matrices[leftKey]?.numbers, let r = matrices[rightKey] else {
                throw DatasetError.malformedRow(file: file, line: 0, reason: "no '\(matrices[leftKey] == nil ? leftKey : rightKey):' line")
            }
            guard l[0] > 0, abs(l[5] - l[0]) <= 1e-6 * l[0], abs(r.numbers[0] - l[0]) <= 1e-6 * l[0], abs(r.numbers[6] - l[6]) <= 1e-6 * max(1, abs(l[6])) else {
                throw DatasetError.malformedRow(file: file, line: r.line, reason: "\(leftKey) and \(rightKey) must be a rectified pair: one positive focal length and one cy")
            }
            focalLength = l[0]
            cx0 = l[2]
            cx1 = r.numbers[2]
            cy = l[6]
            baseline = (l[3] - r.numbers[3]) / l[0]
            guard baseline > 0 else {
                throw DatasetError.malformedRow(file: file, line: r.line, reason: "\(rightKey) is not to the right of \(leftKey) (baseline \(baseline) m)")
            }
        }

        /// The same calibration up to the files' printed precision.
        func matches(_ other: Calibration) -> Bool {
            func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(1, abs(a)) }
            return near(focalLength, other.focalLength) && near(cx0, other.cx0) && near(cx1, other.cx1) && near(cy, other.cy) && near(baseline, other.baseline)
        }
    }
}
