import Glibc
import StillroomCore
import TestSupport
import Testing

/// The real daemon and CLI following a wpa_supplicant (the fake beside these tests: the real one needs a
/// radio, which the QEMU twin has). What a person meets: a refused passphrase is said on the screen, in
/// doctor and in `network`, and the box still plays; joining clears it; wpa_supplicant starting late or
/// restarting is followed; garbage on its socket changes nothing.
@Suite struct WifiDaemonTests {
    static let wrongKey = #"<3>CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid="Flat \"4\" caf\xc3\xa9" auth_failures=1 duration=10 reason=WRONG_KEY"#
    static let connected = "<3>CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:01:00 completed [id=0 id_str=]"

    func wifiNotices(_ harness: DaemonHarness) -> [JSONValue] {
        (statusJSON(harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? []).filter { $0["kind"]?.stringValue == "wifi-not-joined" }
    }

    /// A wpa_supplicant stand-in in `folder`, and the daemon following it.
    func startedWithSupplicant(in folder: TemporaryDirectory) -> (FakeSupplicant, DaemonHarness) {
        let supplicant = FakeSupplicant(directory: folder.file("wpa"))
        supplicant.start()
        let harness = DaemonHarness(extraArguments: ["--wifi-control", supplicant.directory])
        harness.start()
        return (supplicant, harness)
    }

    func check(_ name: String, in doctor: String) -> JSONValue? {
        statusJSON(doctor)["checks"]?.arrayValue?.first { $0["check"]?.stringValue == name }
    }

    @Test func aRefusedPassphraseIsSaidOnTheScreenInDoctorAndNetworkAndTheBoxStillPlays() throws {
        let folder = TemporaryDirectory("stillroom-wifi")
        defer { folder.remove() }
        let (supplicant, harness) = startedWithSupplicant(in: folder)
        defer { harness.stop() }
        try #require(supplicant.waitForMonitors(1), "the daemon did not attach to wpa_supplicant's socket")
        #expect(wifiNotices(harness).isEmpty)
        #expect(check("wi-fi", in: harness.ctl("doctor", "--json").stdout)?["ok"]?.boolValue == true)

        #expect(supplicant.emit(Self.wrongKey) == 1)
        _ = harness.waitForStatus { _ in !wifiNotices(harness).isEmpty }
        let notice = try #require(wifiNotices(harness).first, "no Wi-Fi notice after a refused passphrase")
        #expect(notice["message"]?.stringValue == "The Wi-Fi network \u{201C}Flat \"4\" café\u{201D} did not accept the passphrase. Sessions on the box play as usual.")
        let doctor = harness.ctl("doctor", "--json").stdout
        #expect(check("wi-fi", in: doctor)?["ok"]?.boolValue == false)
        #expect(check("wi-fi", in: doctor)?["detail"]?.stringValue == "Wi-Fi \"Flat \"4\" café\" refused the passphrase")
        #expect(check("network", in: doctor) != nil, "doctor has no network line")
        let network = harness.ctl("--wifi-control", supplicant.directory, "network")
        #expect(network.stdout.contains("Wi-Fi: Wi-Fi \"Flat \"4\" café\" refused the passphrase; write wifi.txt again"), "\(network.stdout)")
        #expect(network.stdout.contains("wlan0 (Wi-Fi): not joined (scanning)"), "\(network.stdout)")
        // The box plays regardless.
        #expect(harness.ctl("play", "sweep").status == 0)
        #expect(statusJSON(harness.waitForStatus { statusJSON($0)["state"]?.stringValue == "playing" })["state"]?.stringValue == "playing")

        // Joined: the notice goes, doctor is content, `network` shows the network joined.
        supplicant.ask("TEST-STATE COMPLETED Flat")
        #expect(supplicant.emit(Self.connected) == 1)
        _ = harness.waitForStatus { _ in wifiNotices(harness).isEmpty }
        #expect(wifiNotices(harness).isEmpty, "the notice stayed after joining")
        #expect(check("wi-fi", in: harness.ctl("doctor", "--json").stdout)?["ok"]?.boolValue == true)
        #expect(harness.ctl("--wifi-control", supplicant.directory, "network").stdout.contains("wlan0 (Wi-Fi): joined \u{201C}Flat\u{201D}"))
        let log = harness.stop().log
        #expect(log.contains("wi-fi: wlan0: Wi-Fi \"Flat \"4\" café\" refused the passphrase"), "\(log)")
        #expect(log.contains("wi-fi: wlan0 joined"))
    }

    @Test func aDismissedNoticeStaysDismissedUntilTheNextProblem() throws {
        let folder = TemporaryDirectory("stillroom-wifi")
        defer { folder.remove() }
        let (supplicant, harness) = startedWithSupplicant(in: folder)
        defer { harness.stop() }
        try #require(supplicant.waitForMonitors(1))
        supplicant.emit(Self.wrongKey)
        _ = harness.waitForStatus { _ in !wifiNotices(harness).isEmpty }
        let id = try #require(wifiNotices(harness).first?["id"]?.doubleValue)
        #expect(harness.ctl("dismiss", "--notice", String(Int(id))).status == 0)
        #expect(wifiNotices(harness).isEmpty)
        // wpa_supplicant says it again at each retry: still dismissed. Doctor still says it.
        supplicant.emit(Self.wrongKey)
        supplicant.emit("<3>CTRL-EVENT-NETWORK-NOT-FOUND")
        #expect(harness.ctl("status").status == 0) // the events before this answer are handled
        #expect(wifiNotices(harness).isEmpty)
        #expect(check("wi-fi", in: harness.ctl("doctor", "--json").stdout)?["ok"]?.boolValue == false)
        // Joined, then the network gone: a new problem, shown again.
        supplicant.emit(Self.connected)
        supplicant.emit("<3>CTRL-EVENT-DISCONNECTED bssid=02:00:00:00:01:00 reason=3")
        supplicant.emit("<3>CTRL-EVENT-NETWORK-NOT-FOUND")
        _ = harness.waitForStatus { _ in !wifiNotices(harness).isEmpty }
        #expect(wifiNotices(harness).first?["message"]?.stringValue == "The box cannot find its Wi-Fi network. Sessions on the box play as usual.")
    }

    @Test func wpaSupplicantStartingAfterTheDaemonAndRestartingIsFollowed() throws {
        let folder = TemporaryDirectory("stillroom-wifi")
        defer { folder.remove() }
        // The folder does not exist yet: the daemon does not wait for the network at boot.
        let supplicant = FakeSupplicant(directory: folder.file("wpa"))
        let harness = DaemonHarness(extraArguments: ["--wifi-control", supplicant.directory])
        harness.start()
        defer { harness.stop() }
        #expect(harness.ctl("play", "sweep").status == 0)
        supplicant.start()
        try #require(supplicant.waitForMonitors(1), "the daemon did not attach once wpa_supplicant started")
        // Killed and started again (systemd's restart): a new socket, attached anew.
        supplicant.kill()
        supplicant.start()
        try #require(supplicant.waitForMonitors(1), "the daemon did not attach to the restarted wpa_supplicant")
        supplicant.emit(Self.wrongKey)
        _ = harness.waitForStatus { _ in !wifiNotices(harness).isEmpty }
        #expect(!wifiNotices(harness).isEmpty)
        // Killed for good (its unit stopped): the problem it told no longer stands.
        supplicant.kill()
        _ = harness.waitForStatus { _ in wifiNotices(harness).isEmpty }
        #expect(wifiNotices(harness).isEmpty, "a Wi-Fi notice stood with no wpa_supplicant running")
        #expect(statusJSON(harness.ctl("status", "--json").stdout)["state"]?.stringValue == "playing")
    }

    @Test func garbageOnTheSupplicantSocketChangesNothing() throws {
        let folder = TemporaryDirectory("stillroom-wifi")
        defer { folder.remove() }
        let (supplicant, harness) = startedWithSupplicant(in: folder)
        defer { harness.stop() }
        try #require(supplicant.waitForMonitors(1))
        #expect(supplicant.ask("TEST-GARBAGE") == "sent 1\n")
        for event in ["<3>CTRL-EVENT-SSID-TEMP-DISABLED", "CTRL-EVENT-SSID-TEMP-DISABLED ssid=\"a", "<3>CTRL-EVENT-SCAN-RESULTS ",
                      "<3>CTRL-EVENT-SSID-TEMP-DISABLED ssid=\"\\x\" reason=WRONG_KEY", "<>", "<3", String(repeating: "=", count: 3000)] {
            supplicant.emit(event)
        }
        // Every event above was read before this answer (one socket, one loop): none was a refusal worth a notice
        // except the malformed-SSID one, which is still a refused passphrase, its SSID shown as sent.
        #expect(harness.ctl("status").status == 0)
        let notices = wifiNotices(harness)
        #expect(notices.count == 1)
        #expect(notices.first?["message"]?.stringValue?.contains("\u{201C}x\u{201D}") == true, "\(notices)")
        #expect(harness.stop().status == 0)
    }

    /// The daemon killed (-9) and started again while wpa_supplicant runs, joined: the new daemon attaches and
    /// learns the state from STATUS (no event comes until something changes), so doctor says joined at once.
    @Test func aDaemonKilledAndRestartedWhileJoinedKnowsItIsJoined() throws {
        let folder = TemporaryDirectory("stillroom-wifi")
        defer { folder.remove() }
        let (supplicant, harness) = startedWithSupplicant(in: folder)
        defer { harness.stop() }
        try #require(supplicant.waitForMonitors(1))
        supplicant.ask("TEST-STATE COMPLETED Flat")
        supplicant.emit(Self.connected)
        _ = harness.stop(signal: SIGKILL)
        harness.start()
        // The dead daemon's monitor is dropped at the next event it cannot take; the new one is attached.
        supplicant.emit("<3>CTRL-EVENT-SCAN-RESULTS ")
        try #require(supplicant.waitForMonitors(1), "the restarted daemon did not attach")
        let wifi = check("wi-fi", in: harness.ctl("doctor", "--json").stdout)
        #expect(wifi?["ok"]?.boolValue == true)
        #expect(wifi?["detail"]?.stringValue == "joined (wlan0)", "\(String(describing: wifi))")
        #expect(wifiNotices(harness).isEmpty)
    }

    /// `stillroomctl network` where the network is gone (a namespace with no interface up but loopback's
    /// name, and no DNS server to reach): not ok, exit 1, the download host said not to resolve, in plain words.
    @Test func networkWithTheNetworkGoneSaysSoAndFails() {
        guard Requirement.need(Subprocess.run("/usr/bin/unshare", ["--net", "/bin/true"]).status == 0,
                               "cannot make a network namespace here (unshare --net needs root)") else { return }
        let harness = DaemonHarness(extraArguments: ["--manifest", "https://downloads.stillroom.test/manifest.json", "--wifi-control", "none"])
        harness.start()
        defer { harness.stop() }
        let run = Subprocess.run("/usr/bin/unshare", ["--net", BuiltProducts.path("stillroomctl"), "--socket", harness.socketPath,
                                                      "--data-dir", harness.dataDirectory, "--content-dir", harness.content, "network"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.hasPrefix("no network interface\n"), "\(run.stdout)")
        #expect(run.stdout.contains("downloads.stillroom.test: does not resolve ("), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("not ok: plug in a network cable; the box plays without a network, but cannot download or set its clock\n"),
                "\(run.stdout)")
        let doctor = Subprocess.run("/usr/bin/unshare", ["--net", BuiltProducts.path("stillroomctl"), "--socket", harness.socketPath,
                                                         "--data-dir", harness.dataDirectory, "--content-dir", harness.content, "doctor", "--json"])
        #expect(doctor.status == 1)
        #expect(check("network", in: doctor.stdout)?["ok"]?.boolValue == false, "\(doctor.stdout)")
    }
}
