import Foundation

/// Reads whole files for the readers (index files, calibration, images).
///
/// Goes around a leak in swift-foundation on Linux: `FileManager.contents(atPath:)`,
/// `Data(contentsOf:)` and `String(contentsOfFile:)` leak a 4 KiB buffer every time they read a
/// file whose size is 0 (the zero-size path of `readBytesFromFile`, which allocates for files
/// such as `/proc` entries that report 0 but have contents). Fuzzing, which reads millions of
/// small files, ran out of memory on it. An empty regular file is answered here without reading.
public enum FileContents {
    /// The file's bytes, or `nil` when it cannot be read.
    public static func data(atPath path: String) -> Data? {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 { return Data() }
        return FileManager.default.contents(atPath: path)
    }

    /// The file as UTF-8 text, or `nil` when it cannot be read or is not UTF-8.
    public static func string(atPath path: String) -> String? {
        data(atPath: path).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The size (bytes) of a regular file, `nil` for anything else (missing, a folder, a FIFO).
    public static func regularFileSize(atPath path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The file as UTF-8 text when it is a regular file of at most ``maxDescriptionBytes``:
    /// `.tooLarge(bytes)` above, `.unreadable` when it cannot be read or is not UTF-8.
    public static func description(atPath path: String) -> Result<String, DescriptionProblem> {
        if let size = regularFileSize(atPath: path), size > maxDescriptionBytes { return .failure(.tooLarge(bytes: size)) }
        return string(atPath: path).map { .success($0) } ?? .failure(.unreadable)
    }

    /// Why ``description(atPath:)`` gave no text.
    public enum DescriptionProblem: Error, Equatable, CustomStringConvertible {
        case tooLarge(bytes: Int)
        case unreadable
        public var description: String {
            switch self {
            case let .tooLarge(bytes): return "\(bytes) bytes: a description file is at most \(FileContents.maxDescriptionBytes) bytes"
            case .unreadable: return "not readable UTF-8 text"
            }
        }
    }

    /// The largest description file (a calibration, a chain) read whole: 16 MiB. Real ones are a
    /// few kilobytes; a larger file is a wrong path, not a description to spend memory on.
    public static let maxDescriptionBytes = 16 << 20
}
