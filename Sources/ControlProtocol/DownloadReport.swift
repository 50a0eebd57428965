import StillroomCore

/// One session's download as the protocol carries it, in `downloads` answers and in a session's
/// `download`; built by the daemon from a live job, and by the CLI from a database record when the
/// daemon is down.
///
///     {"session": "far-sweep", "state": "downloading", "offer": "current", "bytesDone": 1200,
///      "bytesTotal": 4800, "percent": 25, "previousCopy": false, "summary": "Downloading …",
///      "failure": {"code": "connection_lost", "reason": "…", "advice": "…"}}
///
/// `bytesTotal`, `percent` and `failure` are left out when unknown.
public struct DownloadReport: Equatable, Sendable {
    /// Why it failed (or why a retry is waiting), and what to do.
    public struct Failure: Equatable, Sendable {
        public var code: String
        public var reason: String
        public var advice: String

        public init(code: String, reason: String, advice: String) {
            self.code = code
            self.reason = reason
            self.advice = advice
        }

        var json: JSONValue { .object(["code": .string(code), "reason": .string(reason), "advice": .string(advice)]) }

        init?(json: JSONValue) {
            guard let code = json["code"]?.stringValue, let reason = json["reason"]?.stringValue,
                  let advice = json["advice"]?.stringValue else { return nil }
            self.init(code: code, reason: reason, advice: advice)
        }
    }

    public var session: String
    public var state: DownloadStatus.State
    public var offer: DownloadStatus.Offer
    public var bytesDone: Int64
    public var bytesTotal: Int64?
    public var percent: Int?
    /// A verified earlier copy is still on the box and plays.
    public var previousCopy: Bool
    /// One line for people ("Downloading 1.2 MB of 4.8 MB (25%)").
    public var summary: String
    public var failure: Failure?

    public init(_ status: DownloadStatus) {
        session = status.sessionID
        state = status.state
        offer = status.offer
        bytesDone = status.bytesDone
        bytesTotal = status.bytesTotal
        percent = status.percent
        previousCopy = status.previousCopyOnThisBox
        summary = status.summary()
        failure = status.failure.map { Failure(code: $0.code, reason: $0.reason, advice: $0.advice) }
    }

    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "session": .string(session), "state": .string(state.rawValue), "offer": .string(offer.rawValue),
            "bytesDone": .number(Double(bytesDone)), "previousCopy": .bool(previousCopy), "summary": .string(summary),
        ]
        if let bytesTotal { members["bytesTotal"] = .number(Double(bytesTotal)) }
        if let percent { members["percent"] = .number(Double(percent)) }
        if let failure { members["failure"] = failure.json }
        return .object(members)
    }

    /// Reads an answer's download back; nil when it is not one (a field missing or of the wrong kind).
    public init?(json: JSONValue) {
        guard let session = json["session"]?.stringValue, let state = json["state"]?.stringValue.flatMap(DownloadStatus.State.init),
              let offer = json["offer"]?.stringValue.flatMap(DownloadStatus.Offer.init),
              let bytesDone = json["bytesDone"]?.integerValue, let previousCopy = json["previousCopy"]?.boolValue,
              let summary = json["summary"]?.stringValue else { return nil }
        self.session = session
        self.state = state
        self.offer = offer
        self.bytesDone = Int64(bytesDone)
        self.bytesTotal = json["bytesTotal"]?.integerValue.map(Int64.init)
        self.percent = json["percent"]?.integerValue
        self.previousCopy = previousCopy
        self.summary = summary
        self.failure = json["failure"].flatMap(Failure.init(json:))
    }
}
