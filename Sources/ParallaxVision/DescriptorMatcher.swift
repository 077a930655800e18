import CFeatureKernels

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
        // All distances in CFeatureKernels (POPCNT where the processor has it): per query the best,
        // the second best and the lowest index with the best; per train descriptor the query
        // nearest to it (lowest index on ties), for the mutual check. Every distance is needed
        // for that check, so there is no early exit.
        var best = [Int32](repeating: 0, count: query.count), second = best, bestIndex = best
        var bestDistanceOfTrain = [Int32](repeating: Int32.max, count: train.count)
        var bestQueryOfTrain = [Int32](repeating: -1, count: train.count)
        query.withUnsafeBytes { q in
            train.withUnsafeBytes { t in
                guard let qp = q.baseAddress?.assumingMemoryBound(to: UInt64.self),
                      let tp = t.baseAddress?.assumingMemoryBound(to: UInt64.self) else { return }
                pxl_hamming_match(qp, query.count, tp, train.count, &best, &second, &bestIndex, &bestDistanceOfTrain, &bestQueryOfTrain)
            }
        }
        var candidates: [Match] = []
        for i in 0..<query.count {
            let b = Int(best[i]), s = second[i] == Int32.max ? Int.max : Int(second[i])
            guard b <= maxDistance else { continue }
            if ratio < 1, s != Int.max, Double(b) >= ratio * Double(s) { continue }
            candidates.append(Match(queryIndex: i, trainIndex: Int(bestIndex[i]), distance: b))
        }
        return crossCheck ? candidates.filter { Int(bestQueryOfTrain[$0.trainIndex]) == $0.queryIndex } : candidates
    }
}
