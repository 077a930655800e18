import Foundation

/// A dataset layout Parallax can read: EuRoC/ASL, TUM RGB-D, Parallax folders, image folders,
/// and whatever a plugin package registers (``DatasetFormatRegistry/register(_:)``).
public protocol DatasetFormat: Sendable {
    /// Short name (`euroc`, `tum-rgbd`), for messages and `--format`.
    static var name: String { get }
    /// What the format expects to find, for "not a dataset" messages (`a mav0/ folder`).
    static var expects: String { get }
    /// Whether `path` (a folder or a file) looks like this format. Cheap: file names, not contents.
    static func recognizes(_ path: String) -> Bool
    /// Opens `path` as `options` say (a format takes what applies to it: ``DatasetOptions/strict``,
    /// ``DatasetOptions/validateOrder``, ``DatasetOptions/imageRateHz``; ground truth from a
    /// file is applied afterwards by ``DatasetFolder/open(_:options:)``).
    static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource
    /// Whether the format has topics that ``DatasetOptions/topicNames`` (`--topic`) renames
    /// (ROS bags); other formats refuse the option rather than ignore it. Default: false.
    static var readsTopics: Bool { get }
}

extension DatasetFormat {
    public static var readsTopics: Bool { false }
}

/// The dataset formats, asked in order: the first that recognizes a path opens it.
public struct DatasetFormatRegistry: Sendable {
    private var formats: [any DatasetFormat.Type] = []

    /// An empty registry.
    public init() {}

    /// Adds `format`, asked before the formats already registered (so a plugin's specific
    /// layout wins over a generic one such as "a folder of images").
    public mutating func register(_ format: any DatasetFormat.Type) {
        formats.removeAll { $0.name == format.name }
        formats.insert(format, at: 0)
    }

    /// Names, in the order they are asked.
    public var names: [String] { formats.map { $0.name } }

    /// The formats, in the order they are asked.
    public var formatsInOrder: [any DatasetFormat.Type] { formats }

    /// The format called `name`, if registered.
    public func format(named name: String) -> (any DatasetFormat.Type)? { formats.first { $0.name == name } }

    /// Opens `path` with the first format that recognizes it, or says what was expected.
    public func open(_ path: String, options: DatasetOptions = DatasetOptions()) throws -> any DatasetSource {
        guard FileManager.default.fileExists(atPath: path) else {
            throw DatasetError.notADataset(path: path, expected: "an existing dataset folder or file (" + formats.map { $0.expects }.joined(separator: ", ") + ")")
        }
        guard let format = formats.first(where: { $0.recognizes(path) }) else {
            throw DatasetError.notADataset(path: path, expected: formats.map { $0.expects }.joined(separator: ", or "))
        }
        // `--topic` on a dataset without topics would be ignored: a rename the user asked for
        // silently not done.
        guard options.topicNames.isEmpty || format.readsTopics else {
            let readers = formats.filter { $0.readsTopics }.sorted { $0.name < $1.name }.map { $0.expects }
            throw DatasetError.invalidOption(path: path, option: "--topic", reason: "applies only to "
                + (readers.isEmpty ? "ROS bags" : readers.joined(separator: " and ")) + "; this dataset is \(format.expects)")
        }
        return try format.open(path, options: options)
    }

    /// The formats that ship with Parallax. Asked in this order: Parallax, EuRoC/ASL, TUM RGB-D,
    /// KITTI stereo, Middlebury stereo, OTB and VOT tracking sequences, AFLW2000-3D faces, face
    /// images with iBUG .pts landmarks, a folder of images.
    public static let standard: DatasetFormatRegistry = {
        var r = DatasetFormatRegistry()
        for f: any DatasetFormat.Type in [ImageFolderFormat.self, ROSBagFormat.self, ROS2BagFormat.self, LiveLinkFaceFormat.self, PTSFaceFolderFormat.self, AFLW2000Format.self, VOTFormat.self, OTBFormat.self, MiddleburyFormat.self, KITTIStereoFormat.self, TUMRGBDFormat.self, EuRoCFormat.self, ParallaxFolderFormat.self] { r.register(f) }
        return r
    }()
}

/// Whether `path` is a folder (the formats' detection rules).
func isFolder(_ path: String) -> Bool {
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
}

/// Parallax folders: `parallax.yaml` with CSV + PNG streams.
public enum ParallaxFolderFormat: DatasetFormat {
    public static let name = "parallax"
    public static let expects = "a Parallax folder (parallax.yaml)"
    public static func recognizes(_ path: String) -> Bool {
        isFolder(path) && FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent("parallax.yaml").path)
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try ParallaxFolderSource(path: path, strict: options.strict, validateOrder: options.validateOrder, grayVideo: options.grayVideo,
                                 videoSupport: options.videoSupport)
    }
}

/// EuRoC/ASL folders: `mav0/cam*/`, `mav0/imu0/`.
public enum EuRoCFormat: DatasetFormat {
    public static let name = "euroc"
    public static let expects = "EuRoC/ASL (a mav0/ folder)"
    public static func recognizes(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        return isFolder(path) && (url.lastPathComponent == "mav0" || FileManager.default.fileExists(atPath: url.appendingPathComponent("mav0").path))
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try EuRoCSource(path: path, strict: options.strict, validateOrder: options.validateOrder)
    }
}

/// TUM RGB-D folders: `rgb.txt`, `depth.txt`.
public enum TUMRGBDFormat: DatasetFormat {
    public static let name = "tum-rgbd"
    public static let expects = "TUM RGB-D (rgb.txt, depth.txt)"
    public static func recognizes(_ path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        return isFolder(path) && (FileManager.default.fileExists(atPath: url.appendingPathComponent("rgb.txt").path)
            || FileManager.default.fileExists(atPath: url.appendingPathComponent("depth.txt").path))
    }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try TUMRGBDSource(path: path, strict: options.strict, validateOrder: options.validateOrder)
    }
}

/// Plain folders of images, one `cam0` frame per file (times from the names, or
/// ``DatasetOptions/imageRateHz``).
public enum ImageFolderFormat: DatasetFormat {
    public static let name = "images"
    public static let expects = "a folder of images"
    public static func recognizes(_ path: String) -> Bool { isFolder(path) && ImageFolderSource.looksLikeImageFolder(path) }
    public static func open(_ path: String, options: DatasetOptions) throws -> any DatasetSource {
        try ImageFolderSource(path: path, rateHz: options.imageRateHz ?? 1)
    }
}
