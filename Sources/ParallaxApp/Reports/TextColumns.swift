/// Left-aligned text columns, two spaces apart (the tables `inspect`, `formats` and
/// `datasets` print).
public enum TextColumns {
    /// `rows` (the first is the header) as lines; a short row is padded with empty cells.
    public static func format(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        return rows.map { r in
            (0..<columns).map { c in
                let cell = c < r.count ? r[c] : ""
                return c == columns - 1 ? cell : cell + String(repeating: " ", count: widths[c] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
