import ControlProtocol
import StillroomCore

/// Transcripts: found where the session's files are (the content folder, or the downloads), read for the
/// screen and for `stillroomctl transcript`.
extension Daemon {
    /// Why a session's transcript cannot be shown, in words that say what to do.
    struct TranscriptUnavailable: Error {
        let message: String
    }

    /// The session's transcript file on this box, or nil when it is not here (a remote session not
    /// downloaded).
    func transcriptPath(of session: Session) -> String? {
        switch session.transcript {
        case .bundled(let relative): content.path(of: relative)
        case .remote: downloads?.localFiles(for: session.id)?.transcript
        }
    }

    /// The session's breath-cue file on this box, or nil (none, or a remote session not downloaded).
    func breathCuesPath(of session: Session) -> String? {
        switch session.breathCues {
        case .bundled(let relative)?: content.path(of: relative)
        case .remote?: downloads?.localFiles(for: session.id)?.breathCues
        case nil: nil
        }
    }

    /// Reads and parses the session's transcript.
    func loadTranscript(of session: Session) -> Result<Transcript, TranscriptUnavailable> {
        guard let path = transcriptPath(of: session) else {
            return .failure(TranscriptUnavailable(message: "the transcript of \(session.id) is not on the box yet; download the session first"))
        }
        do {
            return .success(try WebVTTParser.parse(try FileReading.bytes(path), fileName: path))
        } catch {
            return .failure(TranscriptUnavailable(message: "the transcript of \(session.id) cannot be read: \(error)"))
        }
    }

    /// `transcript`: the cues of a session, bundled or downloaded, with their times.
    func transcriptCommand(session id: String) -> Result<ControlReply, ControlError> {
        withSession(id) { session in
            switch loadTranscript(of: session) {
            case .success(let transcript):
                let source: TranscriptReport.Source = if case .bundled = session.transcript { .bundled } else { .downloaded }
                return .success(.transcript(TranscriptReport(session: session.id.rawValue, title: session.title, source: source, transcript: transcript)))
            case .failure(let problem):
                return .failure(ControlError(.failed, problem.message))
            }
        }
    }
}
