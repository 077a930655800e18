/// Summary statistics of a list of errors, defined as evo defines them (numpy semantics):
/// `rmse = √mean(e²)`, `std` is the population standard deviation, `median` averages the two
/// middle values of an even count, `sse = Σ e²`.
public struct ErrorStatistics: Sendable, Codable, Equatable {
    public var rmse: Double
    public var mean: Double
    public var median: Double
    public var std: Double
    public var min: Double
    public var max: Double
    public var sse: Double
    /// Number of errors.
    public var count: Int

    /// Statistics of `errors` (all zero for an empty list).
    public init(_ errors: [Double]) {
        count = errors.count
        guard !errors.isEmpty else {
            rmse = 0; mean = 0; median = 0; std = 0; min = 0; max = 0; sse = 0
            return
        }
        let n = Double(errors.count)
        sse = errors.reduce(0) { $0 + $1 * $1 }
        rmse = (sse / n).squareRoot()
        mean = errors.reduce(0, +) / n
        let m = mean
        std = (errors.reduce(0) { $0 + ($1 - m) * ($1 - m) } / n).squareRoot()
        let sorted = errors.sorted()
        median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        min = sorted.first!
        max = sorted.last!
    }

    /// The `q`-quantile (0…1) of `values` by nearest rank below (`sorted[⌊q·(n−1)⌋]`); 0 for none.
    public static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[Int(q * Double(values.count - 1))]
    }
}
