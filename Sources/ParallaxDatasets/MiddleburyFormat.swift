import Foundation
import ParallaxFiles
import ParallaxBus
import ParallaxPayloads
import ParallaxCodecs
/// Middlebury stereo folders (the 2014 and 2021 layouts, MiddEval3): `im0.png` (left),
/// `im1.png` (right), `calib.txt`, and the truth `disp0.pfm` (or `disp0GT.pfm`; +∞ = unknown)
/// with `mask0nocc.png` (255: seen by both cameras; 128: occluded; 0: unknown), when present.
/// One pair, played as `cam0` and `cam1` at time 0 (``StereoPairSource``).
///
/// `calib.txt` holds `key=value` lines: `cam0=[f 0 cx0; 0 f cy; 0 0 1]`, `cam1=[…]`, `doffs`
/// (`cx1 − cx0`, px), `baseline` (mm), `width`, `height`, `ndisp` (a bound on the disparities:
/// `0 ..< ndisp` px, which `stereo-depth` searches when not given `disparities=`), and keys not
/// read here (`vmin`, `vmax`, `isint`, `dyavg`, `dymax`); `Z = baseline · f / (d + doffs)`.
public enum MiddleburyFormat: DatasetFormat {
    public static let name = "middlebury"
    public static let expects = "a Middlebury stereo folder (im0.png, im1.png, calib.txt)"

    public static func recognizes(_ path: String) -> Bool {
        let fm = FileManager.default
        return ["im0.png", "im1.png", "calib.txt"].allSatisfy { fm.fileExists(atPath: (path as NSString).appendingPathComponent($0)) }
    }

    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        let calibFile = (path as NSString).appendingPathComponent("calib.txt")
        let calib = try Calibration(file: calibFile)
        let cameras = StereoPairSource.rectifiedCalibration(width: calib.width, height: calib.height, focalLength: calib.focalLength,
                                                            cx0: calib.cx0, cx1: calib.cx1, cy: calib.cy, baseline: calib.baseline / 1000)
        let fm = FileManager.default
        let truthFile = ["disp0.pfm", "disp0GT.pfm"].map { (path as NSString).appendingPathComponent($0) }.first { fm.fileExists(atPath: $0) }
        let maskFile = (path as NSString).appendingPathComponent("mask0nocc.png")
        let (w, h) = (calib.width, calib.height)
        let truth = truthFile.map { file in truthReader(disparity: file, mask: fm.fileExists(atPath: maskFile) ? maskFile : nil, width: w, height: h) }
        let pair = StereoPairFiles(time: Timestamp(nanoseconds: 0), left: (path as NSString).appendingPathComponent("im0.png"),
                                   right: (path as NSString).appendingPathComponent("im1.png"), truth: truth)
        let search = calib.disparityLevels.map { DisparitySearch(levels: $0, origin: "calib.txt (ndisp)") }
        return try StereoPairSource(formatName: "Middlebury", pairs: [pair], left: cameras.left, right: cameras.right, disparitySearch: search,
                                    listedIn: calibFile, strict: options.strict)
    }

    /// Reads the truth of `disparity` (a PFM) and `mask` (`mask0nocc.png`), checked to be `width × height`.
    static func truthReader(disparity file: String, mask maskFile: String?, width w: Int, height h: Int) -> @Sendable () throws -> DisparityTruth {
        return {
            let disparity = try DenseFiles.readPFM(path: file)
            guard disparity.width == w, disparity.height == h else {
                throw DatasetError.malformedRow(file: file, line: 0, reason: "the disparity is \(disparity.width)×\(disparity.height), the images \(w)×\(h) (calib.txt)")
            }
            var nonOccluded: [Bool]?
            if let maskFile {
                let mask = try ImageDecoder.decodeGray8(path: maskFile)
                guard mask.width == w, mask.height == h else {
                    throw DatasetError.malformedRow(file: maskFile, line: 0, reason: "the mask is \(mask.width)×\(mask.height), the images \(w)×\(h) (calib.txt)")
                }
                nonOccluded = mask.samples.map { $0 == 255 }
            }
            return DisparityTruth(disparity: disparity, nonOccluded: nonOccluded, file: file)
        }
    }

    /// What `calib.txt` says.
    public struct Calibration: Sendable, Equatable {
        /// Focal length (px), principal points of the two cameras (px).
        public var focalLength: Double, cx0: Double, cx1: Double, cy: Double
        /// Camera distance (mm, as the file gives it).
        public var baseline: Double
        public var width: Int, height: Int
        /// `ndisp`: the disparities `0 ..< ndisp` (px) hold every match; `nil` when the file has none.
        public var disparityLevels: Int?

        /// Parses `file`; an error names the file and line of what is missing or malformed.
        public init(file: String) throws {
            let text: String
            switch FileContents.description(atPath: file) {
            case let .success(t): text = t
            case let .failure(problem): throw DatasetError.notADataset(path: file, expected: "a readable calib.txt (\(problem))")
            }
            var values: [String: (value: String, line: Int)] = [:]
            for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
                let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)  // CRLF files too
                guard !line.isEmpty else { continue }
                guard let eq = line.firstIndex(of: "=") else { throw DatasetError.malformedRow(file: file, line: i + 1, reason: "expected 'key=value'") }
                let key = line[..<eq].trimmingCharacters(in: .whitespaces)
                if let earlier = values[key] {
                    throw DatasetError.malformedRow(file: file, line: i + 1, reason: "'\(key)' is given twice (also line \(earlier.line)): keep one")
                }
                values[key] = (line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces), i + 1)
            }
            func number(_ key: String) throws -> Double {
                guard let entry = values[key] else { throw DatasetError.malformedRow(file: file, line: 0, reason: "no '\(key)=' line") }
                guard let v = Double(entry.value), v.isFinite else { throw DatasetError.malformedRow(file: file, line: entry.line, reason: "'\(key)' is not a number: '\(entry.value)'") }
                return v
            }
            func size(_ key: String) throws -> Int {
                let v = try number(key)
                guard v >= 1, v <= 65535, v == v.rounded() else {
                    throw DatasetError.malformedRow(file: file, line: values[key]?.line ?? 0, reason: "'\(key)' must be a whole number of pixels in 1…65535, got \(v)")
                }
                return Int(v)
            }
            func matrix(_ key: String) throws -> [Double] {
                guard let entry = values[key] else { throw DatasetError.malformedRow(file: file, line: 0, reason: "no '\(key)=' line") }
                let numbers = entry.value.replacingOccurrences(of: "[", with: " ").replacingOccurrences(of: "]", with: " ").replacingOccurrences(of: ";", with: " ")
                    .split(separator: " ").map { Double($0) }
                guard numbers.count == 9, numbers.allSatisfy({ $0?.isFinite == true }) else {
                    throw DatasetError.malformedRow(file: file, line: entry.line, reason: "'\(key)' must be a 3×3 matrix '[f 0 cx; 0 f cy; 0 0 1]'")
                }
                return numbers.map { $0 ?? 0 }
            }
            let k0 = try matrix("cam0"), k1 = try matrix("cam1")
            guard k0[0] > 0, k0[4] > 0, abs(k0[0] - k1[0]) <= 1e-6 * k0[0], abs(k0[4] - k0[0]) <= 1e-6 * k0[0], abs(k0[5] - k1[5]) <= 1e-6 * max(1, abs(k0[5])) else {
                throw DatasetError.malformedRow(file: file, line: values["cam1"]?.line ?? 0,
                                                reason: "cam0 and cam1 must be a rectified pair: one positive focal length (fx = fy) and one cy")
            }
            focalLength = k0[0]
            cx0 = k0[2]
            cx1 = k1[2]
            cy = k0[5]
            baseline = try number("baseline")
            guard baseline > 0 else { throw DatasetError.malformedRow(file: file, line: values["baseline"]?.line ?? 0, reason: "the baseline must be positive (mm), got \(baseline)") }
            if let doffs = values["doffs"], let d = Double(doffs.value), abs(d - (cx1 - cx0)) > 0.01 {
                throw DatasetError.malformedRow(file: file, line: doffs.line, reason: "doffs \(d) is not cam1's cx minus cam0's (\(cx1 - cx0))")
            }
            width = try size("width")
            height = try size("height")
            disparityLevels = try values["ndisp"] == nil ? nil : size("ndisp")
        }
    }
}
