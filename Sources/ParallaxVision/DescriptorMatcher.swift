/// Brute-force matching of binary descriptors by Hamming distance, with the usual filters:
/// an absolute distance limit, Lowe's ratio test against the second-nearest neighbour, and a
/// mutual (cross) check.
public struct DescriptorMatcher: Sendable {
    /// Largest accepted distance (bits of 256); default 64.
    public var maxDistance = 64
    /// Best distance must be below `ratio ×` the second best (1 disables); default 0.8.
    public var ratio: Double = 0.8
    /// Keep a match only when each descriptor is the other's nearest neighbour; default true.
    public var crossCheck = true

    public init() {}

    /// A match of `query[queryIndex]` to `train[trainIndex]`.
    public struct Match: Sendable, Equatable, Codable {
        public var queryIndex: Int
        public var trainIndex: Int
        /// Hamming distance (bits).
        public var distance: Int
    }

    /// Matches in query order. Ties go to the lower index, so the result is deterministic.
    public func match(_ query: [BinaryDescriptor], _ train: [BinaryDescriptor]) -> [Match] {
        guard !query.isEmpty, !train.isEmpty else { return [] }
        var bestQueryOfTrain = [Int](repeating: -1, count: train.count)
        var bestDistanceOfTrain = [Int](repeating: Int.max, count: train.count)
        var candidates: [Match] = []
        query.withUnsafeBufferPointer { q in
            train.withUnsafeBufferPointer { t in
                for i in 0..<q.count {
                    let d = q[i]
                    var best = Int.max, second = Int.max, bestIndex = -1
                    for j in 0..<t.count {
                        let distance = d.distance(to: t[j])
                        if distance < best { second = best; best = distance; bestIndex = j } else if distance < second { second = distance }
                        if distance < bestDistanceOfTrain[j] { bestDistanceOfTrain[j] = distance; bestQueryOfTrain[j] = i }
                    }
                    guard best <= maxDistance else { continue }
                    if ratio < 1, second != Int.max, Double(best) >= ratio * Double(second) { continue }
                    candidates.append(Match(queryIndex: i, trainIndex: bestIndex, distance: best))
                }
            }
        }
        return crossCheck ? candidates.filter { bestQueryOfTrain[$0.trainIndex] == $0.queryIndex } : candidates
    }
}
