import StillroomCore

/// The `network` answer: only what the daemon knows and the CLI cannot read for itself (the CLI adds the
/// interfaces and the host lookups): the hosts downloads come from (its options), and why the Wi-Fi
/// could not join, which wpa_supplicant says only in events the daemon follows.
///
///     {"downloadHosts": ["content.example.org"], "wifiProblem": {…}}
public struct DaemonNetworkReport: Equatable, Sendable {
    public var downloadHosts: [String]
    public var wifiProblem: WifiWatch.Problem?

    public init(downloadHosts: [String], wifiProblem: WifiWatch.Problem?) {
        self.downloadHosts = downloadHosts
        self.wifiProblem = wifiProblem
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = ["downloadHosts": .array(downloadHosts.map { .string($0) })]
        if let wifiProblem { fields["wifiProblem"] = wifiProblem.json }
        return .object(fields)
    }

    /// nil when the answer names no download hosts (not a network answer).
    public init?(json: JSONValue) {
        guard let hosts = json["downloadHosts"]?.arrayValue else { return nil }
        downloadHosts = hosts.compactMap(\.stringValue)
        wifiProblem = WifiWatch.Problem(json: json["wifiProblem"])
    }
}
