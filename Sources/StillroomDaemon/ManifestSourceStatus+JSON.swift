import ControlProtocol
import CurlDownloader
import StillroomCore

/// A download source as `stillroomctl downloads` shows it: a stable word for scripts ("loaded") and a
/// sentence for people ("3 sessions listed").
extension ManifestSourceStatus {
    var report: DownloadsReport.Source {
        var sessions: Int?
        var failure: DownloadReport.Failure?
        if case .loaded(let count) = state { sessions = count }
        if case .failed(let reason) = state { failure = DownloadReport.Failure(code: reason.code, reason: reason.reason, advice: reason.advice) }
        return DownloadsReport.Source(url: url.description, state: stateWord, summary: summary, remembered: remembered,
                                      sessions: sessions, failure: failure)
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
