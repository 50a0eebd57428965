import ControlProtocol
import StillroomCore
import Testing

/// Requests and responses on the wire: what round-trips, and the typed error (with the request's id
/// when it can be read) for every way a line can be wrong.
@Suite struct ControlCodecTests {
    func decode(_ text: String) -> Result<ControlRequest, RejectedRequest> { ControlCodec.decodeRequest(Array(text.utf8)) }

    func rejection(_ text: String) -> RejectedRequest? {
        if case .failure(let rejected) = decode(text) { return rejected }
        return nil
    }

    @Test func aRequestRoundTripsWithItsIdAndArguments() throws {
        let request = ControlRequest(id: 4_000_000_123, command: "seek",
                                     arguments: ["by": .number(-15.5), "note": .string("a \"quoted\"\nline ✓"),
                                                 "list": .array([.bool(true), .null])])
        let line = ControlCodec.encode(request)
        #expect(line.last == 0x0A)
        #expect(!line.dropLast().contains(0x0A)) // one line: the newline inside the text is escaped
        #expect(try decode(String(decoding: line.dropLast(), as: UTF8.self)).get() == request)
    }

    @Test func theEncodedRequestIsCompactWithSortedKeys() {
        let line = String(decoding: ControlCodec.encode(ControlRequest(id: 7, command: "status")), as: UTF8.self)
        #expect(line == "{\"arguments\":{},\"command\":\"status\",\"id\":7,\"v\":1}\n")
    }

    @Test func argumentsMayBeLeftOutAndUnknownFieldsAreIgnored() throws {
        let request = try decode(#"{"v":1,"id":3,"command":"status","future":"field"}"#).get()
        #expect(request == ControlRequest(id: 3, command: "status"))
    }

    struct BadLine: Sendable, CustomTestStringConvertible {
        let line: String
        let id: Int?
        let code: ControlError.Code
        let words: String
        var testDescription: String { line }
    }

    static let badLines = [
        BadLine(line: #"not json"#, id: nil, code: .badRequest, words: "not a JSON line"),
        BadLine(line: #"[1,2]"#, id: nil, code: .badRequest, words: "a request is a JSON object"),
        BadLine(line: #"{"id":5,"command":"status"}"#, id: 5, code: .badRequest, words: "no protocol version"),
        BadLine(line: #"{"v":2,"id":6,"command":"status"}"#, id: 6, code: .unsupportedVersion, words: "protocol version 2 is not supported"),
        BadLine(line: #"{"v":1,"command":"status"}"#, id: nil, code: .badRequest, words: "no integer \"id\""),
        BadLine(line: #"{"v":1,"id":1.5,"command":"status"}"#, id: nil, code: .badRequest, words: "no integer \"id\""),
        BadLine(line: #"{"v":1,"id":"7","command":"status"}"#, id: nil, code: .badRequest, words: "no integer \"id\""),
        BadLine(line: #"{"v":1,"id":8}"#, id: 8, code: .badRequest, words: "no \"command\""),
        BadLine(line: #"{"v":1,"id":9,"command":""}"#, id: 9, code: .badRequest, words: "no \"command\""),
        BadLine(line: #"{"v":1,"id":10,"command":"seek","arguments":[1]}"#, id: 10, code: .badRequest, words: "\"arguments\" must be an object"),
    ]

    @Test(arguments: badLines)
    func aBadLineIsATypedErrorWithTheIdWhenReadable(_ bad: BadLine) {
        let rejected = rejection(bad.line)
        #expect(rejected != nil, "\(bad.line) was accepted")
        #expect(rejected?.id == bad.id)
        #expect(rejected?.error.code == bad.code)
        #expect(rejected?.error.message.contains(bad.words) == true, "\(rejected?.error.message ?? "")")
    }

    @Test func nestingDeeperThanSixteenIsRefusedNotRecursedInto() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(rejection(#"{"v":1,"id":1,"command":"x","arguments":{"a":\#(deep)}}"#)?.error.code == .badRequest)
        let shallow = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect((try? decode(#"{"v":1,"id":1,"command":"x","arguments":{"a":\#(shallow)}}"#).get()) != nil)
    }

    @Test func aSuccessRoundTrips() {
        let response = ControlResponse(id: 12, outcome: .success(.object(["state": .string("playing"), "position": .number(12.345)])))
        let line = ControlCodec.encode(response)
        #expect(line.last == 0x0A)
        #expect(ControlCodec.decodeResponse(Array(line.dropLast())) == response)
    }

    @Test(arguments: ControlError.Code.allCases)
    func everyErrorCodeRoundTripsWithItsMessage(_ code: ControlError.Code) {
        let response = ControlResponse(id: nil, outcome: .failure(ControlError(code, "what to do about \(code.rawValue)")))
        #expect(ControlCodec.decodeResponse(Array(ControlCodec.encode(response).dropLast())) == response)
    }

    @Test func anUnknownErrorCodeReadsAsFailedAndAMissingMessageIsSaid() {
        let response = ControlCodec.decodeResponse(Array(#"{"v":1,"id":2,"ok":false,"error":{"code":"from_the_future"}}"#.utf8))
        guard case .failure(let error)? = response?.outcome else {
            Issue.record("not read as a failure: \(String(describing: response))")
            return
        }
        #expect(response?.id == 2)
        #expect(error.code == .failed)
        #expect(error.message == "the daemon reported an error without a message")
    }

    @Test func aLineThatIsNoResponseIsNil() {
        #expect(ControlCodec.decodeResponse(Array("garbage".utf8)) == nil)
        #expect(ControlCodec.decodeResponse(Array(#"{"v":1,"id":2}"#.utf8)) == nil) // no "ok"
        #expect(ControlCodec.decodeResponse(Array("[true]".utf8)) == nil)
    }
}
