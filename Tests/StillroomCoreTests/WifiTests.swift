import StillroomCore
import Testing

@Suite struct SupplicantMessageTests {
    @Test func eventsAreReadWithOrWithoutTheirLevel() {
        #expect(SupplicantEvent.parse("<3>CTRL-EVENT-CONNECTED - Connection to 02:00:00:00:01:00 completed [id=0 id_str=]") == .connected)
        #expect(SupplicantEvent.parse("CTRL-EVENT-DISCONNECTED bssid=02:00:00:00:01:00 reason=3 locally_generated=1") == .disconnected)
        #expect(SupplicantEvent.parse("<3>CTRL-EVENT-NETWORK-NOT-FOUND") == .networkNotFound)
        #expect(SupplicantEvent.parse("<3>CTRL-EVENT-TERMINATING") == .terminating)
        #expect(SupplicantEvent.parse("<3>CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid=\"home\" auth_failures=2 duration=20 reason=WRONG_KEY")
                == .wrongPassphrase(ssid: "home"))
        #expect(SupplicantEvent.parse("<3>CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid=\"home\" auth_failures=1 duration=10 reason=CONN_FAILED")
                == .joinFailed(ssid: "home", reason: "CONN_FAILED"))
    }

    @Test func ssidsAreUnescapedAsWpaSupplicantPrintsThem() {
        // printf_encode: \" \\ and \xHH for bytes outside printable ASCII (here UTF-8 é and a tab).
        let line = #"<3>CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid="Flat \"4\" caf\xc3\xa9\\\t" auth_failures=1 duration=10 reason=WRONG_KEY"#
        #expect(SupplicantEvent.parse(line) == .wrongPassphrase(ssid: "Flat \"4\" café\\ "))
        // An SSID with spaces and an equals sign is one field.
        #expect(SupplicantEvent.parse("<3>CTRL-EVENT-SSID-TEMP-DISABLED id=0 ssid=\"a b=c\" reason=WRONG_KEY") == .wrongPassphrase(ssid: "a b=c"))
    }

    @Test func malformedEventsAreNotTrusted() {
        for line in ["", "<3>", "<>", "<3", "<3>CTRL-EVENT-SSID-TEMP-DISABLED", "<3>CTRL-EVENT-SSID-TEMP-DISABLED ssid=\"home\"",
                     "<3>CTRL-EVENT-SSID-TEMP-DISABLED ssid=\"home reason=WRONG_KEY", "<3>CTRL-EVENT-SCAN-RESULTS ",
                     "<3>CTRL-EVENT-SSID-TEMP-DISABLED ssid=\"" + String(repeating: "x", count: 33) + "\" reason=WRONG_KEY",
                     "<3>CTRL-EVENT-CONNECTEDX", "OK\n", "wpa_state=COMPLETED\n"] {
            #expect(SupplicantEvent.parse(line) == nil, "\(line)")
        }
        // 32 bytes is the longest SSID there is, and is read.
        let longest = String(repeating: "\\xc3\\xa9", count: 16)
        #expect(SupplicantEvent.parse("<3>CTRL-EVENT-SSID-TEMP-DISABLED ssid=\"\(longest)\" reason=WRONG_KEY")
                == .wrongPassphrase(ssid: String(repeating: "é", count: 16)))
    }

    @Test func statusRepliesGiveTheStateAndNetwork() {
        let reply = "bssid=02:00:00:00:01:00\nfreq=2412\nssid=home\nid=0\nmode=station\nwpa_state=COMPLETED\nip_address=192.168.4.23\n"
        #expect(SupplicantStatus.parse(reply) == SupplicantStatus(state: "COMPLETED", ssid: "home"))
        #expect(SupplicantStatus.parse(reply)?.joined == true)
        #expect(SupplicantStatus.parse("wpa_state=SCANNING\n")?.joined == false)
        #expect(SupplicantStatus.parse("OK\n") == nil)
        #expect(SupplicantStatus.parse("FAIL\n") == nil)
    }
}

@Suite struct WifiWatchTests {
    @Test func aRefusalStandsUntilTheBoxJoins() {
        var watch = WifiWatch()
        let refused = watch.take(.wrongPassphrase(ssid: "home"))
        #expect(refused)
        #expect(watch.problem == .wrongPassphrase(ssid: "home"))
        // wpa_supplicant retries: the same refusal again is no change; scans finding "nothing" while the
        // network is disabled, or a later failure, keep the more useful cause.
        let refusedAgain = watch.take(.wrongPassphrase(ssid: "home"))
        #expect(!refusedAgain)
        let notFoundWhileRefused = watch.take(.networkNotFound)
        #expect(!notFoundWhileRefused)
        let failedWhileRefused = watch.take(.joinFailed(ssid: "home", reason: "CONN_FAILED"))
        #expect(!failedWhileRefused)
        let joined = watch.take(.connected)
        #expect(joined)
        #expect(watch.problem == nil && watch.joined)
        let scanWhileJoined = watch.take(.networkNotFound)
        #expect(!scanWhileJoined, "a joined box's scans are not a problem")
        watch.take(.disconnected)
        #expect(!watch.joined)
        let lost = watch.take(.networkNotFound)
        #expect(lost)
        #expect(watch.problem == .networkNotFound)
        // wpa_supplicant stopped (or gone): nothing is trying to join, so nothing stands.
        let stopped = watch.take(.terminating)
        #expect(stopped && watch.problem == nil && !watch.joined)
    }

    @Test func aStatusOnAttachingTellsWhetherJoined() {
        var watch = WifiWatch()
        watch.take(.networkNotFound)
        watch.take(SupplicantStatus(state: "COMPLETED", ssid: "home"))
        #expect(watch.joined && watch.problem == nil)
        watch.take(.wrongPassphrase(ssid: "home"))
        watch.take(SupplicantStatus(state: "SCANNING"))
        #expect(watch.problem == .wrongPassphrase(ssid: "home"), "scanning says nothing about why")
    }

    @Test func problemsRoundTripThroughTheProtocol() {
        for problem: WifiWatch.Problem in [.wrongPassphrase(ssid: "a \"b\""), .couldNotJoin(ssid: "c", reason: "CONN_FAILED"), .networkNotFound] {
            #expect(WifiWatch.Problem(json: problem.json) == problem)
        }
        #expect(WifiWatch.Problem(json: .object(["kind": "other"])) == nil)
        #expect(WifiWatch.Problem(json: nil) == nil)
    }
}

@Suite struct NetworkReportTests {
    let wifi = NetworkReport.Interface(name: "wlan0", wireless: true, up: true, addresses: ["192.168.4.23", "fe80::1"], signalDBm: -52,
                                       supplicant: SupplicantStatus(state: "COMPLETED", ssid: "home"))

    @Test func aJoinedWifiWithResolvingHostsIsOk() {
        let report = NetworkReport(interfaces: [NetworkReport.Interface(name: "lo", wireless: false, up: true, addresses: ["127.0.0.1"]), wifi],
                                   lookups: [.init(host: "updates.example.org", result: .success(["203.0.113.5"]))])
        #expect(report.check.ok)
        #expect(report.check.detail == "wlan0 (Wi-Fi): joined \u{201C}home\u{201D}, 192.168.4.23, signal -52 dBm (good); download hosts resolve")
        #expect(report.lines.first == "wlan0 (Wi-Fi): joined \u{201C}home\u{201D}, 192.168.4.23, signal -52 dBm (good)")
        #expect(report.lines.last == "ok")
    }

    @Test func noAddressIsNotOkAndSaysWhatToDo() {
        let cable = NetworkReport.Interface(name: "eth0", wireless: false, up: false, addresses: [])
        var refused = wifi
        refused.up = false
        refused.addresses = ["fe80::1"]
        refused.supplicant = SupplicantStatus(state: "SCANNING")
        let report = NetworkReport(interfaces: [cable, refused], wifiProblem: .wrongPassphrase(ssid: "home"))
        #expect(!report.check.ok)
        #expect(report.check.detail == "no network: Wi-Fi \"home\" refused the passphrase")
        #expect(report.check.fix.hasPrefix("write wifi.txt again"))
        let noWifi = NetworkReport(interfaces: [cable])
        #expect(noWifi.check.detail == "no network: eth0 (wired): no link (no cable?)")
        #expect(noWifi.check.fix.hasPrefix("plug in a network cable; the box plays"))
        let unset = NetworkReport(interfaces: [cable, NetworkReport.Interface(name: "wlan0", wireless: true, up: false, addresses: [])])
        #expect(unset.check.fix.contains("wifi.txt"))
        #expect(NetworkReport(interfaces: []).check.detail == "no network interface")
    }

    @Test func aHostThatDoesNotResolveIsNotOk() {
        let report = NetworkReport(interfaces: [wifi], lookups: [.init(host: "a.example", result: .success(["192.0.2.1"])),
                                                                 .init(host: "b.example", result: .failure(.init("Name or service not known")))])
        #expect(!report.check.ok)
        #expect(report.check.detail.hasSuffix("; b.example does not resolve (Name or service not known)"))
        #expect(report.lines.contains("b.example: does not resolve (Name or service not known)"))
    }

    @Test func signalWordsBandAtSixtyAndSeventy() {
        #expect(NetworkReport.signalWord(-60) == "good")
        #expect(NetworkReport.signalWord(-61) == "fair")
        #expect(NetworkReport.signalWord(-70) == "fair")
        #expect(NetworkReport.signalWord(-71) == "weak")
    }
}
