import Foundation

/// Two recorded runs compared case by case (cases that differ only by seed compared as one
/// group, over their seeds): per metric the means before and after, the relative change, a
/// Welch t-test's p-value where both sides have several seeds, and a verdict.
///
/// A **regression** is an error metric (``RecordedMetric/lowerIsBetter``) that grew by more than
/// `threshold` (relative) and, with several seeds on both sides, significantly (p < `alpha`);
/// or a case that was ok and now failed. Metrics that do not say which way is better are shown
/// and never called regressions.
public struct ResultsComparison: Sendable {
    public enum Verdict: String, Codable, Sendable {
        case same, better, worse, regression, improvement, changed, onlyBefore = "only before", onlyAfter = "only after", failed
    }

    public struct Row: Codable, Equatable, Sendable {
        public var group: String
        public var metric: String
        public var before: [Double]
        public var after: [Double]
        public var meanBefore: Double?
        public var meanAfter: Double?
        /// (after − before) / |before|; nil when not both are there.
        public var relativeChange: Double?
        public var pValue: Double?
        public var verdict: Verdict
    }

    public var rows: [Row]
    public var regressions: [Row] { rows.filter { $0.verdict == .regression || $0.verdict == .failed } }

    public init(before: RecordedRun, after: RecordedRun, threshold: Double = 0.05, alpha: Double = 0.05) {
        func groups(_ run: RecordedRun) -> [(String, [RecordedCase])] {
            var order: [String] = []
            var members: [String: [RecordedCase]] = [:]
            for c in run.cases {
                if members[c.group] == nil { order.append(c.group) }
                members[c.group, default: []].append(c)
            }
            return order.map { ($0, members[$0] ?? []) }
        }
        let a = groups(before), b = Dictionary(groups(after), uniquingKeysWith: { x, _ in x })
        let aNames = Set(a.map(\.0))
        var rows: [Row] = []
        for (group, casesA) in a {
            guard let casesB = b[group] else {
                rows.append(Row(group: group, metric: "—", before: [], after: [], verdict: .onlyBefore))
                continue
            }
            let okA = casesA.allSatisfy { $0.status == "ok" }, okB = casesB.allSatisfy { $0.status == "ok" }
            if okA && !okB {
                let failed = casesB.filter { $0.status != "ok" }.map { "\($0.name): \($0.status)" }.joined(separator: ", ")
                rows.append(Row(group: group, metric: "status (\(failed))", before: [], after: [], verdict: .failed))
            }
            var metricNames: [String] = []
            for m in casesA.flatMap(\.metrics) where !metricNames.contains(m.name) { metricNames.append(m.name) }
            for name in metricNames {
                let va = casesA.compactMap { $0.metrics.first { $0.name == name } }
                let vb = casesB.compactMap { $0.metrics.first { $0.name == name } }
                let x = va.map(\.value), y = vb.map(\.value)
                guard !x.isEmpty, !y.isEmpty else {
                    rows.append(Row(group: group, metric: name, before: x, after: y, verdict: y.isEmpty ? .onlyBefore : .onlyAfter))
                    continue
                }
                let ma = x.reduce(0, +) / Double(x.count), mb = y.reduce(0, +) / Double(y.count)
                let change = ma != 0 ? (mb - ma) / abs(ma) : (mb == 0 ? 0 : .infinity * (mb > 0 ? 1 : -1))
                let p = WelchTest.pValue(x, y)
                let significant = p.map { $0 < alpha } ?? true
                let verdict: Verdict
                if x == y {
                    verdict = .same
                } else if let lower = va.first?.lowerIsBetter {
                    let worse = lower ? change > 0 : change < 0
                    if abs(change) > threshold && significant { verdict = worse ? .regression : .improvement } else { verdict = worse ? .worse : .better }
                } else {
                    verdict = .changed
                }
                rows.append(Row(group: group, metric: name, before: x, after: y, meanBefore: ma, meanAfter: mb, relativeChange: change, pValue: p, verdict: verdict))
            }
        }
        for (group, _) in groups(after) where !aNames.contains(group) {
            rows.append(Row(group: group, metric: "—", before: [], after: [], verdict: .onlyAfter))
        }
        self.rows = rows
    }
}
