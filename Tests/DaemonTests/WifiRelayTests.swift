import Glibc
import NetworkProbe
import StillroomCore
import TestSupport
import Testing

/// stillroom-wifi-relay between the fake wpa_supplicant and its clients (the real relay binary; the twin's
/// Wi-Fi scenario runs it before a real wpa_supplicant). The daemon's group reaches wpa_supplicant only
/// through it, so a taken-over daemon may read the Wi-Fi but not change it (docs/security.md, "Wi-Fi").
@Suite struct WifiRelayTests {
    final class Relay {
        let process: Subprocess
        let directory: String

        init(upstream: String, directory: String) {
            mkdir(directory, 0o750)
            self.directory = directory
            process = Subprocess(BuiltProducts.path("stillroom-wifi-relay"), ["--upstream", upstream, "--relay", directory])
        }

        deinit {
            process.signal(SIGTERM)
            _ = process.wait()
        }

        func ask(_ command: String, interface: String = "wlan0") -> String? {
            SupplicantSocket.ask(command, interface: interface, in: directory)
        }

        /// Waits until the relay answers PING on `interface` (bounded by attempts, not time).
        func waitUntilRelaying(_ interface: String = "wlan0") -> Bool {
            for _ in 0..<500 {
                if ask("PING", interface: interface) == "PONG\n" { return true }
                usleep(10_000)
            }
            return false
        }
    }

    /// The fake wpa_supplicant and the relay before it, in a new folder; with `relayFirst` the relay starts
    /// before wpa_supplicant has made its folder, as at a boot, and must pick it up when it appears.
    func relayed(relayFirst: Bool = false) throws -> (TemporaryDirectory, FakeSupplicant, Relay) {
        let folder = TemporaryDirectory("stillroom-wifi-relay")
        let supplicant = FakeSupplicant(directory: folder.file("wpa"))
        if !relayFirst { supplicant.start() }
        let relay = Relay(upstream: supplicant.directory, directory: folder.file("relay"))
        if relayFirst {
            let said = relay.process.readStderrLine() ?? ""
            #expect(said.contains("waiting for \(supplicant.directory)"), "\(said)")
            supplicant.start()
        }
        try #require(relay.waitUntilRelaying(), "the relay never answered")
        return (folder, supplicant, relay)
    }

    @Test func onlyReadingCommandsReachWpaSupplicant() throws {
        let (folder, supplicant, relay) = try relayed()
        defer { folder.remove() }
        #expect(relay.ask("STATUS") == "wpa_state=SCANNING\n")
        #expect(relay.ask("SIGNAL_POLL") == "UNKNOWN COMMAND\n") // passed on: the fake does not know it
        // Everything that would change the Wi-Fi, and garbage, is answered FAIL and never passed on.
        let refused = ["ADD_NETWORK", "SET_NETWORK 0 ssid \"elsewhere\"", "RECONFIGURE", "SAVE_CONFIG", "TERMINATE",
                       "STATUS ", "status", "ATTACH\n", "DISCONNECT", "TEST-STATE COMPLETED evil", String(repeating: "A", count: 3000)]
        for command in refused {
            #expect(relay.ask(command) == "FAIL\n", "\(command.prefix(40))")
        }
        let heard = supplicant.ask("TEST-HEARD") ?? ""
        // (The PINGs are the fake's own start and the relay's readiness check.)
        #expect(heard.split(separator: "\n").filter { $0 != "PING" } == ["STATUS", "SIGNAL_POLL"], "wpa_supplicant heard: \(heard)")
        #expect(supplicant.ask("TEST-STATE SCANNING") == "OK\n")
        // Seen failing with every command passed on (heard: … ADD_NETWORK, SET_NETWORK 0 ssid "elsewhere", …).
    }

    /// Many clients (a daemon taken over may make them): at most eight per interface reach wpa_supplicant,
    /// the least recently heard let go (detached); a client that is gone is let go at the next event.
    @Test func clientsAreBoundedAndThoseGoneAreLetGo() throws {
        let (folder, supplicant, relay) = try relayed(relayFirst: true)
        defer { folder.remove() }
        var clients: [SupplicantSocket] = []
        for _ in 0..<12 {
            let client = try SupplicantSocket(path: relay.directory + "/wlan0")
            #expect(client.send("ATTACH"))
            #expect(client.receive(waitingUpTo: 2000) == "OK\n")
            clients.append(client)
        }
        #expect(supplicant.monitors == SupplicantRelay.maximumClients)
        // The four let go first get nothing; the last eight get the event.
        #expect(supplicant.emit("<3>CTRL-EVENT-SCAN-RESULTS ") == 8)
        #expect(clients.suffix(8).allSatisfy { $0.receive(waitingUpTo: 2000) == "<3>CTRL-EVENT-SCAN-RESULTS " })
        #expect(clients.prefix(4).allSatisfy { $0.receive(waitingUpTo: 50) == nil })
        // Three clients close: the next event finds them gone, and the relay detaches them.
        clients.removeLast(3)
        #expect(supplicant.emit("<3>CTRL-EVENT-SCAN-RESULTS ") == 8)
        var left = -1
        for _ in 0..<500 {
            left = supplicant.monitors
            if left == 5 { break }
            usleep(10_000)
        }
        #expect(left == 5)
    }

    /// The daemon follows the Wi-Fi through the relay: events arrive; wpa_supplicant restarting is seen
    /// (the relay's socket is made anew, the daemon attaches again); and its socket's permissions.
    @Test func theDaemonFollowsTheWifiThroughTheRelay() throws {
        let (folder, supplicant, relay) = try relayed()
        defer { folder.remove() }
        var info = stat()
        #expect(lstat(relay.directory + "/wlan0", &info) == 0 && info.st_mode & 0o777 == 0o660)
        let harness = DaemonHarness(extraArguments: ["--wifi-control", relay.directory])
        harness.start()
        defer { harness.stop() }
        try #require(supplicant.waitForMonitors(1), "the daemon did not attach through the relay")
        #expect(supplicant.emit(WifiDaemonTests.wrongKey) == 1)
        let notices = { (statusJSON(harness.ctl("status", "--json").stdout)["notices"]?.arrayValue ?? [])
            .filter { $0["kind"]?.stringValue == "wifi-not-joined" } }
        _ = harness.waitForStatus { _ in !notices().isEmpty }
        #expect(!notices().isEmpty, "the refused passphrase did not come through the relay")

        supplicant.kill()
        supplicant.start()
        try #require(supplicant.waitForMonitors(1), "the daemon did not attach again after wpa_supplicant restarted")
        supplicant.ask("TEST-STATE COMPLETED Flat")
        #expect(supplicant.emit(WifiDaemonTests.connected) == 1)
        _ = harness.waitForStatus { _ in notices().isEmpty }
        #expect(notices().isEmpty, "joining after the restart did not come through")
        // The CLI reads through the relay too.
        let network = harness.ctl("--wifi-control", relay.directory, "network").stdout
        #expect(network.contains("wlan0 (Wi-Fi): joined \u{201C}Flat\u{201D}"), "\(network)")
    }
}
