extension WifiWatch.Problem {
    /// For the control protocol: the kind and the SSID, so the CLI can word it the same way.
    public var json: JSONValue {
        switch self {
        case .wrongPassphrase(let ssid): return .object(["kind": "wrong-passphrase", "ssid": .string(ssid)])
        case .couldNotJoin(let ssid, let reason): return .object(["kind": "could-not-join", "ssid": .string(ssid), "reason": .string(reason)])
        case .networkNotFound: return .object(["kind": "not-found"])
        }
    }

    public init?(json: JSONValue?) {
        guard let json, let kind = json["kind"]?.stringValue else { return nil }
        let ssid = json["ssid"]?.stringValue ?? "?"
        switch kind {
        case "wrong-passphrase": self = .wrongPassphrase(ssid: ssid)
        case "could-not-join": self = .couldNotJoin(ssid: ssid, reason: json["reason"]?.stringValue ?? "unknown")
        case "not-found": self = .networkNotFound
        default: return nil
        }
    }
}
