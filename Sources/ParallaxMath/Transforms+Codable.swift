/// JSON forms of the transform types, as `events.jsonl` and result files write them:
/// - `Quaternion`: `{"w":…, "x":…, "y":…, "z":…}` (Hamilton, as stored);
/// - `SO3`: its unit quaternion, in the same form;
/// - `SE3`: `{"rotation": {w,x,y,z}, "translation": [x, y, z]}` (m).
/// Decoding an `SO3` normalizes the quaternion and rejects one of zero or non-finite norm.
extension Quaternion: Codable {
    private enum CodingKeys: String, CodingKey { case w, x, y, z }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(w: try c.decode(Double.self, forKey: .w), x: try c.decode(Double.self, forKey: .x),
                  y: try c.decode(Double.self, forKey: .y), z: try c.decode(Double.self, forKey: .z))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(w, forKey: .w)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(z, forKey: .z)
    }
}

extension SO3: Codable {
    public init(from decoder: any Decoder) throws {
        let q = try decoder.singleValueContainer().decode(Quaternion.self)
        guard q.norm.isFinite, q.norm > 1e-9 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "rotation quaternion has zero or non-finite norm"))
        }
        self.init(q)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(quaternion)
    }
}

extension SE3: Codable {
    private enum CodingKeys: String, CodingKey { case rotation, translation }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(rotation: try c.decode(SO3.self, forKey: .rotation), translation: try c.decode(Vector3.self, forKey: .translation))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rotation, forKey: .rotation)
        try c.encode(translation, forKey: .translation)
    }
}

/// A matrix as nested rows, `[[a, b], [c, d]]`, as written on paper.
extension Matrix: Codable {
    public init(from decoder: any Decoder) throws {
        let rows = try decoder.singleValueContainer().decode([[Double]].self)
        guard rows.allSatisfy({ $0.count == rows.first?.count }) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "matrix rows differ in length"))
        }
        self.init(rows)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode((0..<rows).map { i in (0..<columns).map { j in self[i, j] } })
    }
}
