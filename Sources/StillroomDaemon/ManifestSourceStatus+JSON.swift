import CurlDownloader
import StillroomCore

/// A download source as `stillroomctl downloads` shows it: a stable word for scripts ("loaded") and a
/// sentence for people ("3 sessions listed").
extension ManifestSourceStatus {
    var jsonValue: JSONValue {
        var fields: [String: JSONValue] = ["url": .string(url.description), "state": .string(stateWord), "summary": .string(summary),
                                           "remembered": .bool(remembered)]
        if case .loaded(let count) = state { fields["sessions"] = .number(Double(count)) }
        if case .failed(let failure) = state {
            fields["failure"] = .object(["code": .string(failure.code), "reason": .string(failure.reason), "advice": .string(failure.advice)])
        }
        return .object(fields)
    }

    var stateWord: String {
        switch state {
        case .notLoaded: "not_loaded"
        case .loading: "loading"
        case .loaded: "loaded"
        case .failed: "failed"
        }
    }
}
