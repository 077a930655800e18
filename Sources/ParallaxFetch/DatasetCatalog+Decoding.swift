import Foundation
import ParallaxFiles

// A catalog decodes through ``YAMLDecoding``: every key known (a misspelt `sha265` must not turn
// a checksum off in silence), every refusal at the line and column of the value at fault.

extension DatasetCatalog {
    /// The catalog file's top level.
    struct File: Decodable {
        var datasets: [Entry]
        enum CodingKeys: String, YAMLKnownKeys { case datasets }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            datasets = try c.decodeUniquelyNamed(Entry.self, forKey: .datasets, name: \.name, what: "dataset name")
        }
    }
}

extension DatasetCatalog.Entry {
    enum CodingKeys: String, YAMLKnownKeys { case name, title, what, licence, source, layout, reads, next, sequences }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        // Names become file names under --to: one safe path component each.
        if let why = DatasetCatalog.unsafeNameReason(name) { throw decoder.yamlProblem("dataset name '\(name)' \(why)", at: CodingKeys.name) }
        title = try c.decode(String.self, forKey: .title)
        what = try c.decode(String.self, forKey: .what)
        licence = try c.decode(String.self, forKey: .licence)
        source = try c.decode(String.self, forKey: .source)
        layout = try c.decodeIfPresent(String.self, forKey: .layout)
        reads = try c.decodeIfPresent(String.self, forKey: .reads)
        next = try c.decodeIfPresent(String.self, forKey: .next)
        sequences = try c.decodeUniquelyNamed(DatasetCatalog.Sequence.self, forKey: .sequences, name: \.name, what: "sequence name")
        guard !sequences.isEmpty else { throw decoder.yamlProblem("\(name) has no sequences", at: CodingKeys.sequences) }
    }
}

extension DatasetCatalog.Sequence {
    enum CodingKeys: String, YAMLKnownKeys { case name, url, size, bytes, sha256, strip }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        if let why = DatasetCatalog.unsafeNameReason(name) { throw decoder.yamlProblem("sequence name '\(name)' \(why)", at: CodingKeys.name) }
        url = try c.decode(String.self, forKey: .url)
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            throw decoder.yamlProblem("url '\(url)' is not http(s) or file", at: CodingKeys.url)
        }
        size = try c.decodeIfPresent(String.self, forKey: .size)
        bytes = try c.decodeIfPresent(Int64.self, forKey: .bytes)
        if let b = bytes, b <= 0 { throw decoder.yamlProblem("bytes must be > 0", at: CodingKeys.bytes) }
        sha256 = try c.decodeIfPresent(String.self, forKey: .sha256)
        if let sha = sha256, sha.count != 64 || !sha.allSatisfy(\.isHexDigit) { throw decoder.yamlProblem("sha256 must be 64 hex digits", at: CodingKeys.sha256) }
        strip = try c.decodeIfPresent(Int.self, forKey: .strip)
        if let k = strip, !(0...8).contains(k) { throw decoder.yamlProblem("strip must be 0…8", at: CodingKeys.strip) }
    }
}
