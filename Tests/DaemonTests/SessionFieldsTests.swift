import StillroomCore
import TestSupport
import Testing

/// A session reads the same from the real daemon and from the CLI alone (daemon stopped): the same fields
/// with the same values, but for the length, which only the daemon measures: the CLI alone gives the
/// catalog's and says so (`durationMeasured` false, "as the catalog gives it").
@Suite struct SessionFieldsTests {
    @Test func theDaemonAndTheCLIAloneDescribeASessionAlike() throws {
        let harness = DaemonHarness()
        harness.start()
        #expect(harness.ctl("favorite", "add", "long").status == 0)
        let online = (show: harness.ctl("show", "long", "--json"), list: harness.ctl("sessions", "--json"),
                      text: harness.ctl("show", "long"), listText: harness.ctl("sessions"))
        let (exit, _) = harness.stop()
        #expect(exit == 0)
        let offline = (show: harness.ctl("show", "long", "--json"), list: harness.ctl("sessions", "--json"),
                       text: harness.ctl("show", "long"), listText: harness.ctl("sessions"))
        for answer in [online.show, online.list, online.text, online.listText, offline.show, offline.list, offline.text, offline.listText] {
            #expect(answer.status == 0, "\(answer.stderr)")
        }

        let measured = try JSONValue.parse(Array(online.show.stdout.utf8))
        let listed = try JSONValue.parse(Array(offline.show.stdout.utf8))
        guard case .object(let daemonFields) = measured, case .object(let cliFields) = listed else {
            Issue.record("not objects: \(online.show.stdout) \(offline.show.stdout)")
            return
        }
        #expect(Set(daemonFields.keys) == Set(cliFields.keys))
        for key in daemonFields.keys where !["duration", "durationMeasured"].contains(key) {
            #expect(daemonFields[key] == cliFields[key], "\(key)")
        }
        #expect(daemonFields["durationMeasured"] == true)
        #expect(cliFields["durationMeasured"] == false)
        #expect(cliFields["duration"] == 20) // the catalog's figure
        #expect(daemonFields["duration"]?.doubleValue.map { abs($0 - 20) < 0.1 } == true) // measured from the MP3
        #expect(daemonFields["favorite"] == true)

        let daemonList = try JSONValue.parse(Array(online.list.stdout.utf8))["sessions"]?.arrayValue ?? []
        let cliList = try JSONValue.parse(Array(offline.list.stdout.utf8))["sessions"]?.arrayValue ?? []
        #expect(daemonList.compactMap { $0["id"]?.stringValue } == cliList.compactMap { $0["id"]?.stringValue })
        let fieldNames: (JSONValue) -> Set<String> = { $0.objectValue.map { Set($0.keys) } ?? [] }
        #expect(daemonList.map(fieldNames) == cliList.map(fieldNames))

        #expect(offline.text.stdout.contains("Length: 0:20 (as the catalog gives it)   Favourite"))
        #expect(online.text.stdout == offline.text.stdout.replacing(" (as the catalog gives it)", with: ""))
        #expect(online.listText.stdout == offline.listText.stdout)
    }
}
