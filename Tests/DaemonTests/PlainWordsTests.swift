import ControlProtocol
import Glibc
import TestSupport
import Testing

/// What stillroomctl prints is written for people: no Swift values, no enum case names, plurals right.
@Suite struct PlainWordsTests {
    @Test func downloadSourcesAreDescribedInWords() throws {
        let harness = DaemonHarness()
        let server = try RemoteSessionServer(in: harness.directory)
        harness.extraArguments = ["--manifest", server.manifestURL]
        harness.start()
        let listed = harness.waitForStatus(attempts: 500) { _ in harness.ctl("downloads").stdout.contains("1 session listed") }
        _ = listed
        let downloads = harness.ctl("downloads").stdout
        #expect(downloads.contains("Source: \(server.manifestURL) — 1 session listed"), "\(downloads)")
        #expect(!downloads.contains("loaded("), "\(downloads)")
        harness.stop()
    }

    @Test func offlineDoctorSaysWhatIsWrongNotASwiftValue() {
        let harness = DaemonHarness()
        let missing = harness.directory.file("no-content")
        let doctor = Subprocess.run(BuiltProducts.path("stillroomctl"),
                                    ["--socket", harness.socketPath, "--data-dir", harness.dataDirectory, "--content-dir", missing, "doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains("FAIL content       \(missing)/catalog.json: No such file or directory"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("OfflineError"), "\(doctor.stdout)")
    }

    @Test func aPauseForUnpluggedHeadphonesIsSaidInWords() {
        let harness = DaemonHarness(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        harness.start(keys: true)
        harness.ctl("play", "long")
        harness.typeKeys("j") // the headphones pulled out
        _ = harness.waitForStatus { statusReport($0).live?.pauseReason == .headphonesRemoved }
        let status = harness.ctl("status").stdout
        #expect(status.contains("Paused because the headphones were unplugged"), "\(status)")
        #expect(!status.contains("headphonesRemoved"), "\(status)")
        harness.stop()
    }

    @Test func oneDayOneSessionAndOneRunAreSingular() {
        let harness = DaemonHarness()
        harness.start()
        harness.stop()
        // Two runs written as the daemon writes them: one dated (noon UTC on 15 June 2026, two minutes
        // heard), one played before the clock was set.
        let database = harness.dataDirectory + "/stillroom.db"
        #expect(runShell("""
            sqlite3 '\(database)' "INSERT INTO practice_run (session_id, started_at, actual_listening_seconds, covered_seconds, \
            recording_seconds, clock_trusted, updated_at) VALUES ('long', 1781524800000, 120, 20, 20, 1, 1781524800000), \
            ('long', 1781524900000, 30, 20, 20, 0, 1781524900000)"
            """) == 0)
        harness.start()
        let history = harness.ctl("history", "--month", "2026-06").stdout
        #expect(history.hasPrefix("Practice in 2026-06: 2 minutes on 1 day\n"), "\(history)")
        #expect(history.contains("All time: 2 minutes in 2 sessions, 0 completed"), "\(history)")
        #expect(history.contains("\n1 session has no date yet (the clock was not set when it was played)"), "\(history)")
        #expect(harness.ctl("history", "delete", "--run", "2").stdout == "Deleted run 2.\n")
        #expect(harness.ctl("history", "delete", "--all", "--yes").stdout == "Deleted 1 run.\n")
        harness.stop()
    }

    @Test func recentHistoryNamesADownloadedSessionByItsTitle() throws {
        let harness = DaemonHarness()
        let server = try RemoteSessionServer(in: harness.directory)
        harness.extraArguments = ["--manifest", server.manifestURL]
        harness.daemonAudioDevice = "paced:8" // the 20-second sweep heard in 2.5 s
        harness.start()
        harness.download("far-sweep")
        #expect(harness.ctl("play", "far-sweep").status == 0)
        _ = harness.waitForStatus { statusReport($0).state == .ended }
        let text = harness.ctl("history", "recent").stdout
        #expect(text.contains("Far sweep"), "\(text)")
        harness.stop()
    }
}
