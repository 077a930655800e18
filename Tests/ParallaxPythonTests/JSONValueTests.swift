import Foundation
import Testing
@testable import ParallaxPython

/// A Python analyzer's JSON payloads: read as they come, written with their keys in one order.
@Suite struct JSONValueTests {
    @Test func aValueRoundTripsWithSortedKeys() throws {
        let text = #"{"b": [1, 2.5, true, null], "a": {"z": "x\"y", "k": -3}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value.jsonText == #"{"a":{"k":-3,"z":"x\"y"},"b":[1,2.5,true,null]}"#)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let again = try JSONDecoder().decode(JSONValue.self, from: try encoder.encode(value))
        #expect(again == value)
    }

    @Test func nonFiniteNumbersAreWrittenAsPythonReadsThem() {
        #expect(JSONText.numbers([.nan, .infinity, -.infinity, 0.5, 3]) == "[NaN,Infinity,-Infinity,0.5,3]")
        #expect(JSONText.quoted("a\n\u{1}") == "\"a\\n\\u0001\"")
    }
}
