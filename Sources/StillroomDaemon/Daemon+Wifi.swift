import ControlProtocol
import NetworkProbe
import StillroomCore

/// The Wi-Fi as wpa_supplicant tells it (docs/image.md, "Wi-Fi"): the daemon follows its events, never
/// waits for the network, and when the box cannot join says why: a quiet notice on the screen (standing
/// until it joins, or until dismissed), a line in the journal and in `stillroomctl doctor`.
extension Daemon {
    func startWifiWatch() {
        guard let directory = options.wifiControlDirectory else { return }
        wifi.monitor = SupplicantMonitor(loop: loop, directory: directory) { [unowned self] message in heard(message) }
    }

    private func heard(_ message: SupplicantMonitor.Message) {
        let changed: Bool
        switch message {
        case .status(let interface, let status):
            let before = wifi.watch
            wifi.watch.take(status)
            changed = wifi.watch != before
            logger.info("wi-fi: \(interface) \(status.joined ? "joined \"\(status.ssid ?? "")\"" : status.state.lowercased())")
        case .event(let interface, let event):
            let joinedBefore = wifi.watch.joined
            changed = wifi.watch.take(event)
            if wifi.watch.joined != joinedBefore { logger.info("wi-fi: \(interface) \(wifi.watch.joined ? "joined" : "left the network")") }
            if changed, let problem = wifi.watch.problem { logger.warning("wi-fi: \(interface): \(problem.detail)") }
        }
        guard changed else { return }
        refreshModel() // a new problem (or none) is shown afresh (LiveNotices)
    }

    var wifiProblemStanding: LiveNotices.Standing? {
        wifi.watch.problem.map { LiveNotices.Standing(.wifi, kind: .wifiNotJoined, message: $0.noticeMessage) }
    }

    /// Doctor's "wi-fi" line: only on a box that has Wi-Fi set up (wpa_supplicant runs).
    var wifiCheck: DoctorReport.Check? {
        guard let monitor = wifi.monitor, !monitor.interfaces.isEmpty || wifi.watch.problem != nil else { return nil }
        let problem = wifi.watch.problem
        let detail = problem?.detail ?? (wifi.watch.joined ? "joined (\(monitor.interfaces.joined(separator: ", ")))" : "not joined yet")
        return DoctorReport.Check("wi-fi", ok: problem == nil, detail: detail, fix: problem?.fix ?? "")
    }

    /// `network`: what the daemon knows that the CLI cannot read for itself (it adds interfaces and lookups).
    func networkReport() -> DaemonNetworkReport {
        DaemonNetworkReport(downloadHosts: options.downloadHosts, wifiProblem: wifi.watch.problem)
    }
}

/// The daemon's Wi-Fi side: the monitor, and what it heard.
struct WifiSide {
    var monitor: SupplicantMonitor?
    var watch = WifiWatch()
}
