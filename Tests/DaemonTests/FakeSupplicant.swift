import Glibc
import NetworkProbe
import TestSupport

/// Tests/Fixtures/wifi/fake-wpa-supplicant on a socket `interface` in `directory`, steered over that socket.
final class FakeSupplicant {
    let directory: String
    let interface: String
    private var process: Subprocess?

    init(directory: String, interface: String = "wlan0") {
        self.directory = directory
        self.interface = interface
    }

    deinit { kill() }

    /// Starts it (making the folder as wpa_supplicant does) and waits until its socket is bound.
    func start() {
        mkdir(directory, 0o770)
        let started = Subprocess("/usr/bin/python3", [RepositoryPaths.fixture("wifi/fake-wpa-supplicant"), directory + "/" + interface])
        process = started
        for _ in 0..<500 where ask("PING") != "PONG\n" { usleep(10_000) }
    }

    /// kill -9, and its socket file removed as a restarted wpa_supplicant would remove the stale one.
    func kill() {
        guard let process else { return }
        process.signal(SIGKILL)
        _ = process.wait()
        self.process = nil
        unlink(directory + "/" + interface)
    }

    @discardableResult
    func ask(_ command: String) -> String? { SupplicantSocket.ask(command, interface: interface, in: directory) }

    /// Sends an event to the attached monitors; how many it reached.
    @discardableResult
    func emit(_ event: String) -> Int { Int((ask("TEST-EMIT " + event) ?? "").dropFirst(5).prefix { $0 != "\n" }) ?? 0 }

    var monitors: Int { Int((ask("TEST-MONITORS") ?? "").prefix { $0 != "\n" }) ?? -1 }

    /// Waits until `count` monitors are attached (the daemon attaches within a loop iteration of the socket
    /// appearing); false if they never were. Bounded by attempts, not time.
    func waitForMonitors(_ count: Int) -> Bool {
        for _ in 0..<1000 {
            if monitors == count { return true }
            usleep(10_000)
        }
        return false
    }
}
