import ParallaxFiles

/// The folder a dataset writer gives each stream: its name from the data made a relative path
/// by the one rule for names from data (``ParallaxFiles/OutputPath/relativePath(_:)``: letters,
/// digits, `-`, `_` and `.` kept, anything else `_`; a bag topic `/~/image_raw` read as stream
/// `~/image_raw` goes to `_/image_raw`), so no name leaves the folder or makes one the user
/// cannot type. Two streams whose names become the same folder (`a b` and `a_b`) are refused,
/// not merged.
struct StreamFolderNames {
    private var folders: [String: String] = [:]   // stream name → folder
    private var streams: [String: String] = [:]   // folder → stream name

    /// The folder of the stream `name` (relative to the dataset's root).
    mutating func folder(for name: String) throws -> String {
        if let known = folders[name] { return known }
        // A name with an empty, `.` or `..` part or a control character is refused as the readers
        // refuse it (a source that let one through); other characters are replaced.
        try OutputPath.checkRelativeName(name, kind: "stream")
        let folder = OutputPath.relativePath(name)
        if let other = streams[folder] {
            throw OutputPath.RefusedError(option: "stream", path: name,
                                          reason: "would be written to '\(folder)' as the stream '\(other)' is: rename one of them (--topic for a bag)")
        }
        folders[name] = folder
        streams[folder] = name
        return folder
    }
}
