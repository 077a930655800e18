import ParallaxFiles

/// An entry type of a Kalibr file, with the prefix of its numbered keys (`cam`, `imu`).
protocol KalibrNumberedEntry: Decodable {
    static var prefix: String { get }
}

/// Kalibr's numbered top-level entries (`cam0`, `cam1`, … in a camchain; `imu0`, … in an IMU
/// file), in the order of their numbers; other top-level keys are not read (a foreign file).
struct KalibrEntries<Entry: KalibrNumberedEntry>: Decodable {
    /// Each entry's key (`cam1`), its number and what it holds.
    let entries: [(name: String, number: Int, entry: Entry)]

    /// A top-level key of any name.
    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The keys among `names` that are `prefix` followed by a number (`cam` → `cam0`, `cam12`;
    /// not `cam01`), by number.
    static func numbered(_ prefix: String, in names: [String]) -> [(name: String, number: Int)] {
        names.compactMap { name -> (name: String, number: Int)? in
            guard name.hasPrefix(prefix), let n = Int(name.dropFirst(prefix.count)), n >= 0, "\(prefix)\(n)" == name else { return nil }
            return (name, n)
        }.sorted { $0.number < $1.number }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        entries = try Self.numbered(Entry.prefix, in: c.allKeys.map(\.stringValue)).map { name, number in
            (name, number, try c.decode(Entry.self, forKey: Key(stringValue: name)))
        }
    }
}
