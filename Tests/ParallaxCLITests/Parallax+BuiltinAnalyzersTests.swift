import Foundation
import Testing
@testable import ParallaxApp
import Parallax
@testable import ParallaxCLI

@Suite struct BuiltinAnalyzerTests {
    /// Every built-in analyzer can be made with its defaults, and its options round-trip through
    /// their snake_case names (an acronym in a field name, `maxIMUGapMs`, would not).
    @Test func defaultsAreValidAndEveryOptionCanBeSetByName() throws {
        let registry = BuiltinAnalyzers.registry
        for name in registry.names {
            let entry = try #require(registry.entry(name))
            #expect(entry.defaultsProblem == nil, "\(name): \(entry.defaultsProblem ?? "")")
            for option in entry.options where option.defaultValue != "none" {
                let text = option.defaultValue.hasPrefix("\"") ? String(option.defaultValue.dropFirst().dropLast()) : option.defaultValue
                let value = text.hasPrefix("[") ? String(text.dropFirst().dropLast()).replacingOccurrences(of: "\"", with: "") : text
                #expect(throws: Never.self, "\(name) \(option.name)=\(value)") { _ = try registry.make(name, options: [option.name: value]) }
            }
        }
    }

    /// What `parallax plugins NAME` says comes from the data names real options of that analyzer
    /// (the registry lists it only under an option that exists), and the list is the code's: these
    /// analyzers, these options, and no other.
    @Test func optionsFromTheDataAreRealOptionsAndListed() throws {
        let registry = BuiltinAnalyzers.registry
        var fromData: [String: Set<String>] = [:]
        for name in registry.names {
            let entry = try #require(registry.entry(name))
            let listed = Set(entry.options.compactMap { $0.fromData == nil ? nil : $0.name })
            if !listed.isEmpty { fromData[name] = listed }
            #expect(entry.options.allSatisfy { $0.fromData?.isEmpty != true }, "\(name)")
        }
        let expected: [String: Set<String>] = ["stereo-depth": ["disparities"], "klt": ["window", "levels"],
                                               "depth-filter": ["min_depth", "max_depth"], "point-cloud": ["max_depth"], "vio": ["estimate_extrinsics"]]
        #expect(fromData == expected)
        // Declared names that are no option would be dropped from the listing: none is.
        let declared: [[String: String]] = [StereoDepthAnalyzer.optionsFromData, KLTAnalyzer.optionsFromData,
                                            DepthFilterAnalyzer.optionsFromData, PointCloudAnalyzer.optionsFromData, VIOAnalyzer.optionsFromData]
        let listedCount = fromData.values.map(\.count).reduce(0, +)
        #expect(declared.map(\.count).reduce(0, +) == listedCount)
    }
}
