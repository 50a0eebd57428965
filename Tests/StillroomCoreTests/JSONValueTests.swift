import FoundationEssentials
import Testing
@testable import StillroomCore

@Suite struct JSONValueTests {
    @Test func decodesEveryKindOfValue() throws {
        let value = try JSONValue.parse(Array(#"{"a": [1, 2.5, -3e2], "b": "x", "c": true, "d": null, "e": {}}"#.utf8))
        #expect(value == .object([
            "a": .array([.number(1), .number(2.5), .number(-300)]),
            "b": .string("x"),
            "c": .bool(true),
            "d": .null,
            "e": .object([:]),
        ]))
    }

    @Test func acceptsAByteOrderMark() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[true]".utf8)) == .array([.bool(true)]))
    }

    @Test func integerValueIsOnlyForWholeNumbers() {
        #expect(JSONValue.number(42).integerValue == 42)
        #expect(JSONValue.number(42.5).integerValue == nil)
        #expect(JSONValue.number(1e300).integerValue == nil)
        #expect(JSONValue.string("42").integerValue == nil)
    }

    @Test func roundTripsThroughJSONEncoder() throws {
        let value = JSONValue.object(["list": .array([.null, .bool(false), .number(3), .string("é\n")])])
        let encoded = try JSONEncoder().encode(value)
        #expect(try JSONValue.parse(encoded) == value)
    }

    @Test func briefDescriptionQuotesEscapesAndShortens() {
        #expect(JSONValue.string("a\"b\n").briefDescription == #""a\"b\n""#)
        #expect(JSONValue.string(String(repeating: "x", count: 100)).briefDescription == "\"" + String(repeating: "x", count: 48) + "…\"")
        #expect(JSONValue.number(301.46).briefDescription == "301.46")
        #expect(JSONValue.number(3).briefDescription == "3")
        #expect(JSONValue.array([]).briefDescription == "an array")
    }

    struct MalformedCase: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var column: Int
        var reason: String
        var testDescription: String { reason }
    }

    static let malformedCases: [MalformedCase] = [
        .init(text: "{\"a\": 1,\n \"b\": [1, 2,, 3]}", line: 2, column: 13, reason: "expected a value, found ','"),
        .init(text: "{\"a\": tru}", line: 1, column: 7, reason: "expected true, false or null"),
        .init(text: "", line: 1, column: 1, reason: "unexpected end of input"),
        .init(text: "[1, 2", line: 1, column: 6, reason: "unexpected end of input"),
        .init(text: "{\"a\": 1} x", line: 1, column: 10, reason: "unexpected 'x' after the end of the document"),
        .init(text: "{\"a\" 1}", line: 1, column: 6, reason: "expected ':' after the member name, found '1'"),
        .init(text: "{a: 1}", line: 1, column: 2, reason: "expected a quoted member name, found 'a'"),
        .init(text: "[1 2]", line: 1, column: 4, reason: "expected ',' or ']', found '2'"),
        .init(text: "[1,,2]", line: 1, column: 4, reason: "expected a value, found ','"),
        .init(text: "[,]", line: 1, column: 2, reason: "expected a value, found ','"),
        .init(text: "{,}", line: 1, column: 2, reason: "expected a quoted member name, found ','"),
        .init(text: "[1, 2,] x", line: 1, column: 9, reason: "unexpected 'x' after the end of the document"),
        .init(text: "\r\n\r\n  [01]", line: 3, column: 5, reason: "expected ',' or ']', found '1'"),
        .init(text: "[\"tab\there\"]", line: 1, column: 6, reason: "unescaped control character U+0009 in a string"),
        .init(text: "[\"\\x\"]", line: 1, column: 4, reason: "invalid escape \\'x'"),
        .init(text: "[\"open", line: 1, column: 7, reason: "unterminated string"),
        .init(text: "[1.]", line: 1, column: 4, reason: "expected a digit after '.', found ']'"),
        .init(text: "[\"é\", é]", line: 1, column: 7, reason: "expected a value, found U+00E9 'é'"),
    ]

    @Test(arguments: malformedCases)
    func malformedJSONReportsLineAndColumn(_ example: MalformedCase) {
        #expect(throws: JSONParseError(line: example.line, column: example.column, reason: example.reason)) {
            try JSONValue.parse(Array(example.text.utf8))
        }
    }

    @Test func locatorAgreesWithTheDecoderOnValidDocuments() {
        for text in ["{}", "[]", "0", "-0.5e+3", "\"\\u00e9\"", " {\"a\":[{\"b\":null}]} ", "[1,]", "{\"a\":1,}"] {
            #expect(JSONSyntaxLocator.firstError(in: Array(text.utf8)) == nil, "\(text)")
        }
    }

    /// JSONDecoder (swift-foundation) accepts a trailing comma; the box follows its JSON reader.
    @Test func trailingCommasAreAcceptedLikeJSONDecoderDoes() throws {
        #expect(try JSONValue.parse(Array(#"{"a": [1, 2,],}"#.utf8)) == ["a": [1, 2]])
    }

    @Test func leadingZerosAreRefusedWithAPosition() {
        #expect(throws: JSONParseError(line: 1, column: 3, reason: "expected ',' or ']', found '1'")) {
            try JSONValue.parse(Array("[01]".utf8))
        }
    }

    @Test func positionsIgnoreAByteOrderMark() {
        #expect(throws: JSONParseError(line: 1, column: 4, reason: "expected a value, found ','")) {
            try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1,,]".utf8))
        }
    }

    @Test(arguments: [65, 600, 100_000])
    func deepButBalancedNestingIsRefusedQuickly(_ depth: Int) {
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: JSONParseError(line: 1, column: 65, reason: "arrays and objects nested more than 64 deep")) {
            try JSONValue.parse(Array(text.utf8))
        }
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test func theNestingLimitCanBeLowered() {
        #expect(throws: JSONParseError(line: 1, column: 7, reason: "arrays and objects nested more than 1 deep")) {
            try JSONValue.parse(Array(#"{"a": [1]}"#.utf8), maximumNesting: 1)
        }
    }

    @Test func deepNestingIsReportedNotCrashed() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test func numbersBeyondDoubleAreRejectedWithTheirPath() {
        #expect(throws: JSONParseError(reason: "value at sessions[1].durationSeconds is a number out of the range of a Double")) {
            try JSONValue.parse(Array(#"{"sessions": [{}, {"durationSeconds": 1e999}]}"#.utf8))
        }
    }

    @Test func loneSurrogatesAreRejectedWithTheirPath() {
        #expect(throws: JSONParseError(reason: "value at [0] is a string that is not valid Unicode (a lone surrogate escape)")) {
            try JSONValue.parse(Array(#"["\ud800"]"#.utf8))
        }
    }
}
