import Foundation
import ParallaxFiles
import Testing

/// One YAML decoding for every schema: values decode the YAML way, and every error says where.
@Suite struct YAMLDecodingTests {
    struct Suite: Decodable {
        var name: String
        var runs: [Run]
        enum CodingKeys: String, YAMLKnownKeys { case name, runs }
    }

    struct Run: Decodable {
        var name: String
        var seconds: Double?
        var seed: UInt64?
        var stereo: Bool?
        var textures: [String]?
        enum CodingKeys: String, YAMLKnownKeys { case name, seconds, seed, stereo, textures }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            seconds = try c.decodeIfPresent(Double.self, forKey: .seconds)
            if let seconds, !(0.05...86_400).contains(seconds) { throw YAMLValueProblem("seconds must be in 0.05…86400 s, got \(seconds)") }
            seed = try c.decodeIfPresent(UInt64.self, forKey: .seed)
            stereo = try c.decodeIfPresent(Bool.self, forKey: .stereo)
            textures = try c.decodeIfPresent([String].self, forKey: .textures)
        }
    }

    func error(_ text: String) -> YAMLDecodingError? {
        do { _ = try YAMLDecoding.decode(Suite.self, from: text, file: "s.yaml"); return nil } catch { return error }
    }

    @Test func valuesDecodeTheYAMLWay() throws {
        let s = try YAMLDecoding.decode(Suite.self, from: "name: x\nruns:\n  - {name: a, seconds: 1e1, seed: 3, stereo: yes, textures: [a.png, b.png]}\n", file: "s.yaml")
        #expect(s.name == "x" && s.runs.count == 1)
        #expect(s.runs[0].seconds == 10 && s.runs[0].seed == 3 && s.runs[0].stereo == true && s.runs[0].textures == ["a.png", "b.png"])
    }

    @Test func anUnknownKeyIsRefusedWhereItIsWithADidYouMean() throws {
        let e = try #require(error("name: x\nruns:\n  - name: a\n    secnds: 3\n"))
        // A list element with a name is labelled by it.
        #expect(e.line == 4 && e.column == 5 && e.path == "runs['a']")
        #expect(e.message == "runs['a']: unknown key 'secnds'; did you mean 'seconds'? (known: name, seconds, seed, stereo, textures)")
        #expect(e.description.hasPrefix("s.yaml:4:5: "))
    }

    @Test func aWrongTypeIsNamedByItsPathAndValue() throws {
        let seed = try #require(error("name: x\nruns:\n  - {name: a, seed: -1}\n"))
        #expect(seed.message == "runs['a'].seed must be a whole number ≥ 0, got '-1'" && seed.line == 3)
        let stereo = try #require(error("name: x\nruns:\n  - {name: a, stereo: maybe}\n"))
        #expect(stereo.message == "runs['a'].stereo must be true or false, got 'maybe'")
        let list = try #require(error("name: x\nruns: {a: 1}\n"))
        #expect(list.message == "runs must be a list" && list.line == 2)
        let textures = try #require(error("name: x\nruns:\n  - {name: a, textures: [[1]]}\n"))
        #expect(textures.message == "runs['a'].textures[0] must be text")
    }

    @Test func aMissingKeyIsNamed() throws {
        let e = try #require(error("name: x\nruns:\n  - {seed: 1}\n"))
        #expect(e.message == "runs[0]: missing key 'name'" && e.line == 3)
    }

    @Test func aValueTheTypeRefusesIsLocatedWhereItWasRead() throws {
        let e = try #require(error("name: x\nruns:\n  - name: a\n    seconds: 0\n"))
        #expect(e.message == "seconds must be in 0.05…86400 s, got 0.0" && e.line == 3 && e.path == "runs['a']")
    }

    @Test func malformedYAMLIsAnErrorWithItsPlace() throws {
        let e = try #require(error("name: x\nruns: [\n"))
        #expect(e.message.hasPrefix("malformed YAML") && e.line >= 2)
        let empty = try #require(error(""))
        #expect(empty.message == "the document must be a mapping of keys")
    }

    @Test func nestedAliasesThatExpandBeyondTheLimitAreRefusedNotExpanded() throws {
        // 9 levels of ten aliases: 10⁹ values from a few hundred bytes ("billion laughs").
        let levels = ["&a0 [x, x, x, x, x, x, x, x, x, x]"] + (1...8).map { i in "&a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]" }
        let e = try #require(error("name: x\nruns: [\(levels.joined(separator: ", "))]\n"))
        #expect(e.message.contains("expands to more than 1000000 values"), "\(e)")
        // Aliases that stay small are YAML as usual.
        #expect(throws: Never.self) { _ = try YAMLText.compose("a: &x [1, 2]\nb: *x\n") }
    }

    @Test func integersOfEveryWidthDecodeWithinTheirRange() throws {
        struct Widths: Decodable { var small: Int8; var big: Int64 }
        let ok = try YAMLDecoding.decode(Widths.self, from: "{small: -128, big: 9000000000}", file: "w.yaml")
        #expect(ok.small == -128 && ok.big == 9_000_000_000)
        do { _ = try YAMLDecoding.decode(Widths.self, from: "{small: 300, big: 1}", file: "w.yaml"); Issue.record("accepted") } catch {
            #expect(error.message == "small must be a whole number in -128…127, got '300'")
        }
    }
}
