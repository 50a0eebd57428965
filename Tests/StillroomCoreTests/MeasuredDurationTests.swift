import Testing
import StillroomCore

@Suite struct MeasuredDurationTests {
    private func session(declaring seconds: Double) throws -> Session {
        let catalog = CatalogFixtures.parse(CatalogFixtures.catalog(sessions: [.object(CatalogFixtures.session("steady-breath"))])).catalog
        var session = try #require(catalog.sessions.first)
        session.durationSeconds = seconds
        return session
    }

    @Test(arguments: [301.46, 300.46, 302.46, 301.0, 302.0])
    func measurementWithinOneSecondIsAccepted(_ measured: Double) throws {
        #expect(try session(declaring: 301.46).durationProblem(measuredSeconds: measured, fileName: "catalog.json") == nil)
    }

    @Test func measurementOffByMoreThanTheToleranceIsAPreciseProblem() throws {
        let problem = try session(declaring: 301.46).durationProblem(measuredSeconds: 297.1, fileName: "catalog.json")
        #expect(problem?.description == #"catalog.json: session "steady-breath": field "durationSeconds": declares 301.46 s, but the audio lasts 297.1 s (4.36 s apart; at most 1 s allowed)"#)
    }

    @Test func justOverTheToleranceIsAProblem() throws {
        #expect(try session(declaring: 300).durationProblem(measuredSeconds: 301.001, fileName: "c.json") != nil)
        #expect(try session(declaring: 300).durationProblem(measuredSeconds: 298.999, fileName: "c.json") != nil)
    }

    @Test func unmeasurableAudioIsAProblem() throws {
        let problem = try session(declaring: 300).durationProblem(measuredSeconds: 0, fileName: "catalog.json")
        #expect(problem?.message == "the audio's length could not be measured (got 0 s)")
        #expect(try session(declaring: 300).durationProblem(measuredSeconds: .nan, fileName: "catalog.json") != nil)
    }

    @Test func toleranceCanBeGiven() throws {
        #expect(try session(declaring: 300).durationProblem(measuredSeconds: 300.4, fileName: "c.json", tolerance: 0.25) != nil)
    }
}
