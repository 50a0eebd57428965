import Testing
import StillroomCore

@Suite struct BreathCueTests {
    private func parse(_ text: String, recordingSeconds: Double = 60) throws(ContentFileRejected) -> BreathCueTrack {
        try BreathCueParser.parse(Array(text.utf8), fileName: "breath.json", recordingSeconds: recordingSeconds)
    }

    /// The problems a rejected sidecar reports, as lines.
    private func problems(_ text: String, recordingSeconds: Double = 60) -> [String] {
        do {
            _ = try parse(text, recordingSeconds: recordingSeconds)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    static let valid = #"""
    { "schema": 1, "cues": [ { "phase": "inhale", "start": 12.0, "end": 16.0 },
                              { "phase": "hold",   "start": 16.0, "end": 18.0 },
                              { "phase": "exhale", "start": 18.0, "end": 24.0 },
                              { "phase": "inhale", "start": 30.0, "end": 34.0 } ] }
    """#

    @Test func validSidecarKeepsEveryCueInOrder() throws {
        let track = try parse(Self.valid)
        #expect(track.cues == [
            BreathCue(phase: .inhale, startSeconds: 12, endSeconds: 16),
            BreathCue(phase: .hold, startSeconds: 16, endSeconds: 18),
            BreathCue(phase: .exhale, startSeconds: 18, endSeconds: 24),
            BreathCue(phase: .inhale, startSeconds: 30, endSeconds: 34),
        ])
    }

    @Test(arguments: [
        (0.0, nil), (11.999, nil), (12.0, BreathPhase.inhale), (15.999, .inhale), (16.0, .hold), (17.5, .hold),
        (18.0, .exhale), (23.999, .exhale), (24.0, nil), (29.0, nil), (30.0, .inhale), (34.0, nil), (1000.0, nil), (-1.0, nil),
    ] as [(Double, BreathPhase?)])
    func cueLookupHonoursBoundaries(_ seconds: Double, _ phase: BreathPhase?) throws {
        #expect(try parse(Self.valid).cue(atSeconds: seconds)?.phase == phase)
    }

    @Test func lookupByDurationMatchesLookupBySeconds() throws {
        let track = try parse(Self.valid)
        #expect(track.cue(at: .milliseconds(15_999))?.phase == .inhale)
        #expect(track.cue(at: .seconds(16))?.phase == .hold)
    }

    @Test func emptyTrackHasNoCueAnywhere() {
        #expect(BreathCueTrack(cues: []).cue(atSeconds: 0) == nil)
    }

    @Test(arguments: [
        (#"{"schema": 1, "cues": [{"phase": "inhale", "start": 5, "end": 5}]}"#,
         [#"breath.json: cues[0]: field "end": must be after the start (5 s), got 5"#]),
        (#"{"schema": 1, "cues": [{"phase": "inhale", "start": 5, "end": 4}]}"#,
         [#"breath.json: cues[0]: field "end": must be after the start (5 s), got 4"#]),
        (#"{"schema": 1, "cues": [{"phase": "inhale", "start": -1, "end": 4}]}"#,
         [#"breath.json: cues[0]: field "start": must not be negative, got -1"#]),
        (#"{"schema": 1, "cues": [{"phase": "inhale", "start": 58, "end": 61.5}]}"#,
         [#"breath.json: cues[0]: field "end": is past the end of the recording (60 s), got 61.5"#]),
        (#"{"schema": 1, "cues": [{"phase": "inhale", "start": 10, "end": 14}, {"phase": "exhale", "start": 13, "end": 18}]}"#,
         [#"breath.json: cues[1]: field "start": 13 s is before the end of cues[0] (14 s); cues must not overlap"#]),
        (#"{"schema": 1, "cues": [{"phase": "inhale", "start": 10, "end": 14}, {"phase": "exhale", "start": 2, "end": 6}]}"#,
         [#"breath.json: cues[1]: field "start": 2 s is before the start of cues[0] (10 s); cues must be sorted"#]),
        (#"{"schema": 1, "cues": [{"phase": "sigh", "start": 1, "end": 2}]}"#,
         [#"breath.json: cues[0]: field "phase": expected one of inhale, hold, exhale, got "sigh""#]),
        (#"{"schema": 1, "cues": [{"phase": "hold", "start": "1", "end": null}]}"#,
         [#"breath.json: cues[0]: field "start": expected a number, got "1""#, #"breath.json: cues[0]: field "end": expected a number, got null"#]),
        (#"{"schema": 1, "cues": [[1, 2]]}"#,
         [#"breath.json: cues[0]: expected an object, got an array"#]),
        (#"{"schema": 1, "cues": []}"#,
         [#"breath.json: field "cues": lists no cues"#]),
        (#"{"schema": 1, "cues": {}}"#,
         [#"breath.json: field "cues": expected an array, got an object"#]),
        (#"{"schema": 1}"#,
         [#"breath.json: field "cues": is required but missing"#]),
        (#"{"schema": 2, "cues": []}"#,
         [#"breath.json: field "schema": unsupported schema version 2; this firmware reads version 1"#]),
        (#"[]"#,
         [#"breath.json: expected a JSON object at the top level, got an array"#]),
        (#"{"schema": 1, "cues": [}"#,
         [#"breath.json: malformed JSON at line 1, column 24: expected a value, found '}'"#]),
    ] as [(String, [String])])
    func invalidSidecarIsRejectedWithPreciseProblems(_ text: String, _ expected: [String]) {
        #expect(problems(text) == expected)
    }

    @Test func everyBadCueIsReportedAndOrderIsCheckedAgainstTheLastGoodTimes() {
        let text = #"""
        {"schema": 1, "cues": [
          {"phase": "inhale", "start": 0, "end": 4},
          {"phase": "pause", "start": 4, "end": 6},
          {"phase": "exhale", "start": 5, "end": 9},
          {"phase": "inhale", "start": 9, "end": 99}
        ]}
        """#
        #expect(problems(text) == [
            #"breath.json: cues[1]: field "phase": expected one of inhale, hold, exhale, got "pause""#,
            #"breath.json: cues[2]: field "start": 5 s is before the end of cues[1] (6 s); cues must not overlap"#,
            #"breath.json: cues[3]: field "end": is past the end of the recording (60 s), got 99"#,
        ])
    }
}
