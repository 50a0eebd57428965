import ControlProtocol
import Glibc
import NetworkProbe
import StillroomCore

/// `stillroomctl network` and doctor's "network" line. The CLI gathers the facts itself (it may wait on
/// DNS; the daemon never does) and asks the daemon, when it runs, for what only it knows: why the Wi-Fi
/// could not join (wpa_supplicant's events) and the hosts downloads come from.
struct NetworkCommand {
    let invocation: Invocation

    func report() -> NetworkReport {
        let daemon = try? Connection(invocation).send(.network)
        var known: DaemonNetworkReport?
        if let daemon, case .success(let result) = daemon.outcome { known = DaemonNetworkReport(json: result) }
        return NetworkReport(interfaces: InterfaceProbe.read(supplicantDirectory: invocation.wifiControlDirectory),
                             wifiProblem: known?.wifiProblem, lookups: known.map { $0.downloadHosts.map(HostLookup.lookUp) })
    }

    func run() -> ExitStatus {
        let report = report()
        if invocation.json {
            write(ControlCodec.json(Self.json(report)))
        } else {
            write(report.lines.joined(separator: "\n"))
        }
        return report.check.ok ? .ok : .failed
    }

    /// Doctor's result with the "network" check added (and its verdict with it).
    func addCheck(_ doctor: JSONValue) -> JSONValue {
        guard doctor["checks"]?.arrayValue != nil else { return doctor }
        let verdict = report().check
        return DoctorReport(json: doctor).adding(DoctorReport.Check("network", ok: verdict.ok, detail: verdict.detail, fix: verdict.fix)).json
    }

    static func json(_ report: NetworkReport) -> JSONValue {
        let interfaces: [JSONValue] = report.interfaces.map { interface in
            var fields: [String: JSONValue] = [
                "name": .string(interface.name), "wireless": .bool(interface.wireless), "up": .bool(interface.up),
                "addresses": .array(interface.addresses.map { .string($0) }),
            ]
            if let signal = interface.signalDBm { fields["signalDBm"] = .number(Double(signal)) }
            if let supplicant = interface.supplicant {
                fields["wifi"] = .object(["state": .string(supplicant.state), "joined": .bool(supplicant.joined),
                                          "ssid": supplicant.ssid.map { .string($0) } ?? .null])
            }
            return .object(fields)
        }
        var result: [String: JSONValue] = ["interfaces": .array(interfaces)]
        if let problem = report.wifiProblem { result["wifiProblem"] = problem.json }
        if let lookups = report.lookups {
            result["lookups"] = .array(lookups.map { lookup in
                switch lookup.result {
                case .success(let addresses): return .object(["host": .string(lookup.host), "addresses": .array(addresses.map { .string($0) })])
                case .failure(let error): return .object(["host": .string(lookup.host), "error": .string(error.message)])
                }
            })
        }
        let verdict = report.check
        result["ok"] = .bool(verdict.ok)
        result["detail"] = .string(verdict.detail)
        result["fix"] = .string(verdict.fix)
        return .object(result)
    }
}
