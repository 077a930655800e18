import Foundation
import Testing
@testable import ParallaxOptions

/// An algorithm's settings, declared once: what a group looks like below any bus.
struct Detection: ParameterGroup, Equatable {
    enum Noise: String, CaseIterable, OptionValue { case kinect, exact }
    @Parameter("detection grid spacing (px)", range: 1...64) var step = 4
    @Parameter("largest angle between normals (deg)", range: 1...90) var maxNormalAngle = 30.0
    @Parameter("depth noise model") var noise = Noise.kinect
    @Parameter("RANSAC seed") var seed: UInt64 = 0
    /// Not an option: no `@Parameter`.
    var subpixel = true
    /// A group inside a group: flat as well.
    var refit = Refit()
    init() {}
}

struct Refit: ParameterGroup, Equatable {
    @Parameter("refit iterations", range: 0...10) var refitIterations = 2
    init() {}
}

/// An analyzer's options: its own (a stream name) and the algorithm's, embedded as a group.
struct Outer: ParameterGroup {
    @Parameter("depth stream") var depth = "depth"
    @Parameter("tolerance of horizontal (deg)", range: 0...45) var alignmentTolerance = 10.0
    var detector = Detection()
    init() {}
}

/// A structured option value (a point), for lists of them.
struct PointOption: StructuredOptionValue, Equatable {
    var x: Double
    var y: Double
    static var typeDescription: String { "a point {x, y}" }
}

/// A name in both the options and their group: refused.
struct Clashing: ParameterGroup {
    @Parameter("a step of the analyzer's own", range: 1...8) var step = 2
    var detector = Detection()
    init() {}
}

@Suite struct ParameterGroupTests {
    func decode(_ values: [String: String]) throws -> Outer {
        try OptionCoding.decode(Outer.self, defaults: Outer(), values: values)
    }

    func problem(_ o: Outer) -> String? {
        OptionCoding.firstProblem(o, defaults: Outer()).map { "\($0.0): \($0.1)" }
    }

    func reason(_ values: [String: String]) -> String {
        do { _ = try decode(values); return "" } catch let error as OptionCoding.ValueError {
            return "option '\(error.option)' = '\(error.value)': \(error.reason)"
        } catch { return "\(error)" }
    }

    @Test func aGroupsParametersAreOptionsUnderTheirOwnFlatNamesSortedWithTheOuterOnes() throws {
        let options = OptionCoding.options(of: Outer())
        // One list, sorted by name: the group's and the outer options interleave; the group
        // itself, and its plain field `subpixel`, are no options.
        #expect(options.map(\.name) == ["alignment_tolerance", "depth", "max_normal_angle", "noise", "refit_iterations", "seed", "step"])
        let byName = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
        #expect(byName["step"]?.path == ["detector", "step"])
        #expect(byName["refit_iterations"]?.path == ["detector", "refit", "refitIterations"])
        #expect(byName["depth"]?.path == ["depth"])
        #expect(byName["step"]?.declaration?.documentation == "detection grid spacing (px)")
        #expect(byName["step"]?.declaration?.rangeText == "1…64")
        #expect(byName["step"]?.declaration?.typeDescription == "integer")
        #expect(byName["noise"]?.declaration?.choices == ["kinect", "exact"])
        #expect(byName["max_normal_angle"].map { OptionCoding.jsonText($0.defaultValue) } == "30")
        #expect(byName["seed"].map { OptionCoding.jsonText($0.defaultValue) } == "0")
    }

    @Test func theDefaultIsTheGroupsValueInTheOuterDefaults() {
        struct Tuned: ParameterGroup {
            var detector: Detection = {
                var d = Detection()
                d.step = 8
                return d
            }()
            init() {}
        }
        let step = OptionCoding.options(of: Tuned()).first { $0.name == "step" }
        #expect(step.map { OptionCoding.jsonText($0.defaultValue) } == "8")
    }

    @Test func valuesSetByNameGoIntoTheGroup() throws {
        let o = try decode(["step": "2", "maxNormalAngle": "20", "noise": "exact", "refit_iterations": "5", "depth": "depth/filtered"])
        #expect(o.detector.step == 2 && o.detector.maxNormalAngle == 20 && o.detector.noise == .exact)
        #expect(o.detector.refit.refitIterations == 5)
        #expect(o.depth == "depth/filtered")
        // The group's other fields keep their defaults.
        #expect(o.detector.subpixel && o.detector.seed == 0)
        #expect(try decode([:]).detector == Detection())
    }

    /// One option given under two spellings is refused, whichever order the chain gave them in
    /// (the value that won depended on a dictionary's order).
    @Test func anOptionGivenUnderTwoSpellingsIsRefused() {
        #expect(reason(["max_normal_angle": "20", "maxNormalAngle": "40"])
                == "option 'max_normal_angle' = 'maxNormalAngle=40, max_normal_angle=20': the option is given twice (as 'maxNormalAngle' and 'max_normal_angle'): give it once")
        #expect(reason(["step": "2", "Step": "3"]).contains("given twice"))
        #expect(reason(["step": "2"]) == "")
    }

    /// A list of structured values (boxes) from text: a YAML/JSON list of mappings.
    @Test func aListOfMappingsReadsAsAListOfStructuredValues() throws {
        let value = try [PointOption].jsonValue(fromText: "[{x: 0, y: 1}, {x: 2.5, y: 3}]")
        let data = try JSONSerialization.data(withJSONObject: value)
        #expect(try JSONDecoder().decode([PointOption].self, from: data) == [PointOption(x: 0, y: 1), PointOption(x: 2.5, y: 3)])
        #expect(throws: OptionTextError.self) { _ = try [PointOption].jsonValue(fromText: "[{x: 0}]") }
        // A key the value does not have (a typo, another spelling) is refused, not dropped.
        #expect { _ = try PointOption.jsonValue(fromText: "{x: 0, y: 1, X: 7}") } throws: { "\($0)" == "expected a point {x, y}, without the key 'X'" }
        #expect(throws: OptionTextError.self) { _ = try [PointOption].jsonValue(fromText: "[{x: 0, y: 1, z: 2}]") }
        // What YAML objects to is said: a key given twice in a box, an unclosed list.
        #expect { _ = try [PointOption].jsonValue(fromText: "[{x: 0, x: 2, y: 1}]") } throws: { "\($0)".contains("a key appears twice in one mapping: 'x'") }
        #expect { _ = try [PointOption].jsonValue(fromText: "[{x: 0, y: 1}") } throws: { "\($0)".contains("did not find expected ',' or ']'") }
        // Nested aliases (a few hundred bytes, billions of values) are refused at once, as in a YAML file.
        var laughs = "[&a0 {x: 0, y: 1}"
        for k in 1...11 { laughs += ", &a\(k) [" + [String](repeating: "*a\(k - 1)", count: 10).joined(separator: ",") + "]" }
        #expect { _ = try [PointOption].jsonValue(fromText: laughs + "]") } throws: { "\($0)".contains("expands to more than 1000000 values") }
        #expect { _ = try PointOption.jsonValue(fromText: "{x: &x [" + [String](repeating: "1", count: 10).joined(separator: ",") + "], y: 1}") } throws: { $0 is OptionTextError }
    }

    @Test func aRangeInsideAGroupIsCheckedNamingTheOption() throws {
        #expect(reason(["step": "0"]) == "option 'step' = '0': must be in 1…64")
        #expect(reason(["refit_iterations": "11"]) == "option 'refit_iterations' = '11': must be in 0…10")
        #expect(reason(["step": "abc"]) == "option 'step' = 'abc': expected an integer")
        #expect(reason(["noise": "loud"]) == "option 'noise' = 'loud': expected one of kinect, exact")
        #expect(reason(["seed": "-1"]) == "option 'seed' = '-1': expected a non-negative integer")
        #expect(reason(["step": "64", "alignment_tolerance": "45"]).isEmpty)
        // Set from Swift: the same ranges hold (the declarations are the defaults').
        var o = Outer()
        o.detector.maxNormalAngle = 0.5
        #expect(problem(o) == "max_normal_angle: must be in 1.0…90.0")
        o = Outer()
        o.detector.refit.refitIterations = -1
        #expect(problem(o) == "refit_iterations: must be in 0…10")
        #expect(problem(Outer()) == nil)
    }

    @Test func aNameInBothTheOptionsAndAGroupIsRefused() {
        let options = OptionCoding.options(of: Clashing())
        #expect(options.filter { $0.name == "step" }.map(\.path) == [["detector", "step"], ["step"]])
        let duplicate = OptionCoding.duplicate(in: options)
        #expect(duplicate?.0 == "step")
        #expect(duplicate?.1 == "declared twice: by the field step and by detector.step (every option, in a group or not, needs a name of its own)")
        #expect(OptionCoding.duplicate(in: OptionCoding.options(of: Outer())) == nil)
        // Neither decoding nor the range check lets it through, with or without a value.
        #expect { _ = try OptionCoding.decode(Clashing.self, defaults: Clashing(), values: [:]) } throws: { error in
            (error as? OptionCoding.ValueError).map { $0.option == "step" && $0.value == "(default)" && $0.reason.hasPrefix("declared twice") } ?? false
        }
        #expect { _ = try OptionCoding.decode(Clashing.self, defaults: Clashing(), values: ["step": "3"]) } throws: { error in
            (error as? OptionCoding.ValueError).map { $0.option == "step" && $0.value == "3" } ?? false
        }
        #expect(OptionCoding.firstProblem(Clashing(), defaults: Clashing())?.0 == "step")
    }

    @Test func inJSONAGroupIsAnObjectOfItsFieldsAndParametersAreTheirValues() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(Refit()), as: UTF8.self)
        #expect(text == #"{"refitIterations":2}"#)
        var changed = Detection()
        changed.step = 5
        #expect(changed != Detection())
        // Equal values are equal parameters, whatever their declarations (a decoded one has none).
        let decoded = try JSONDecoder().decode(Detection.self, from: try encoder.encode(Detection()))
        #expect(decoded == Detection())
    }
}
