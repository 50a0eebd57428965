import ControlProtocol
import CairoPainter
import ControlSocket
import EspeakSpeech
import Glibc
import SQLiteStore
import StillroomCore
import SystemCalls

/// The control commands the daemon answers. Each returns a result object or a typed error whose message
/// says what to do; none blocks the loop.
extension Daemon {
    func handle(_ request: ControlRequest, from peer: PeerCredentials) -> Result<ControlReply, ControlError> {
        let command: ControlCommand
        switch ControlCommand.decode(request) {
        case .success(let decoded): command = decoded
        case .failure(let refusal): return .failure(refusal) // nothing was done, so nothing to refresh
        }
        defer {
            modelSources.storeChanged = true // a command may have changed favourites, notices or settings
            refreshModel()
        }
        if let refusal = refusalWhileUpdating(command) { return .failure(refusal) }
        reopenStoreIfTheCardHasRoom() // before the command reads or writes what the card holds
        switch command {
        case .status: return .success(.status(statusReport()))
        case .play(let session): return playCommand(session: session)
        case .pause:
            apply(.pause(.user))
            return .success(.status(statusReport()))
        case .resume:
            apply(.resume)
            return .success(.status(statusReport()))
        case .toggle:
            apply(.toggle)
            return .success(.status(statusReport()))
        case .stop:
            apply(.stop)
            return .success(.status(statusReport()))
        case .seek(let target): return seekCommand(target)
        case .volume(let level): return volumeCommand(level: level)
        case .dismiss(let notice): return dismissCommand(notice: notice)
        case .sessions:
            let remote = (downloads?.sessions ?? []).filter { content.catalog.session(withID: $0.id) == nil }
            return .success(.sessions((content.catalog.sessions + remote).map(sessionSummary)))
        case .show(let id): return withSession(id) { .success(.session(sessionSummary($0))) }
        case .favorite(let id, let add): return favoriteCommand(session: id, add: add)
        case .doctor: return .success(.doctor(doctorReport()))
        case .say(let text): return sayCommand(text: text)
        case .settings(let change): return settingsCommand(change)
        case .history(let request): return historyCommand(request)
        case .downloads(let request): return downloadsCommand(request)
        case .reminder(let request): return reminderCommand(request)
        case .timer(let request): return timerCommand(request)
        case .screenshot(let name): return screenshotCommand(name: name)
        case .transcript(let id): return transcriptCommand(session: id)
        case .update(let request): return updateCommand(request, from: peer)
        case .network: return .success(.network(networkReport()))
        }
    }

    private func playCommand(session text: String?) -> Result<ControlReply, ControlError> {
        guard let text else {
            // No id: what PLAY does, seen from outside the screen (PlayIntent.ofCommand).
            switch PlayIntent.ofCommand(model) {
            case .acceptResume: apply(.acceptResume)
            case .resume: if player.phase != .playing { apply(.resume) }
            case .start(let session, _):
                if let id = try? ContentID(validating: session.id) { _ = play(sessionID: id) }
            default:
                // Nothing chosen and nothing to start: say so, rather than answer "ok" having done nothing.
                return .failure(ControlError(.failed, "there is nothing on this box to play yet; see stillroomctl sessions"))
            }
            return .success(.status(statusReport()))
        }
        return withSession(text) { session in
            // Listed by a source but not downloaded: refused before the player moves, so what plays goes on
            // (a refusal, not the player's failure: nothing on the box went wrong).
            guard audioPath(of: session) != nil else {
                return .failure(ControlError(.failed, "the session \(session.id) is not on this box: download it first (stillroomctl download \(session.id))"))
            }
            _ = play(sessionID: session.id)
            return .success(.status(statusReport()))
        }
    }

    /// The target was checked against `ControlCommand.seekLimitSeconds` when decoded, so the conversion to
    /// frames cannot overflow.
    private func seekCommand(_ target: ControlCommand.SeekTarget) -> Result<ControlReply, ControlError> {
        guard player.sessionID != nil, player.sampleRate > 0 else {
            return .failure(ControlError(.failed, "nothing is playing or paused; play a session first"))
        }
        let rate = Double(player.sampleRate)
        switch target {
        case .by(let seconds): apply(.seekBy(frames: Int64((seconds * rate).rounded())))
        case .to(let seconds): apply(.seek(toFrame: Int64((seconds * rate).rounded())))
        }
        return .success(.status(statusReport()))
    }

    private func volumeCommand(level: Int) -> Result<ControlReply, ControlError> {
        do {
            try change(setting: "volume", to: String(level))
        } catch {
            return .failure(ControlError(.failed, error.message)) // in range, so only a store that cannot save
        }
        return .success(.status(statusReport()))
    }

    private func dismissCommand(notice: Int?) -> Result<ControlReply, ControlError> {
        if let id = notice {
            if dismissLiveNotice(Int64(id)) { return .success(.status(statusReport())) }
            do {
                guard try store.dismissNotice(id: Int64(id), now: UnixMilliseconds(date: loop.wallNow)) else {
                    return .failure(ControlError(.notFound, "no open notice \(id); see stillroomctl status"))
                }
            } catch {
                logger.error("notice \(id): dismissal not saved: \(error)")
                return .failure(ControlError(.failed, "notice \(id) stays open: its dismissal could not be saved (\(storageWords(error)))"))
            }
            return .success(.status(statusReport()))
        }
        guard player.resumeOffer != nil else { return .failure(ControlError(.notFound, "there is no resume offer to dismiss")) }
        apply(.dismissResume)
        return .success(.status(statusReport()))
    }

    private func favoriteCommand(session id: String, add: Bool) -> Result<ControlReply, ControlError> {
        withSession(id) { session in
            do {
                if add {
                    _ = try store.addFavorite(sessionID: session.id.rawValue, now: UnixMilliseconds(date: loop.wallNow))
                } else {
                    _ = try store.removeFavorite(sessionID: session.id.rawValue)
                }
            } catch {
                logger.error("favourite: not saved: \(error)")
                return .failure(ControlError(.failed, "the favourite was not saved: \(storageWords(error))"))
            }
            return .success(.session(sessionSummary(session)))
        }
    }

    private func settingsCommand(_ requested: ControlCommand.SettingChange?) -> Result<ControlReply, ControlError> {
        if let requested {
            let key = requested.key
            do {
                try change(setting: key, to: requested.value)
            } catch .refused(let refusal) {
                let code: ControlError.Code = Settings.keys.contains(key) ? .invalidArgument : .notFound
                return .failure(ControlError(code, "\(key): \(refusal.message)"))
            } catch {
                return .failure(ControlError(.failed, error.message))
            }
        }
        return .success(.settings(settingsReport()))
    }

    func settingsReport() -> SettingsReport { SettingsReport(settings) }

    /// Writes what the screen shows now (the painter's frame: what DRM or the PNG got) to a PNG file. The
    /// path comes over the socket: a link there is refused (and never followed: the file is written beside
    /// under a new name and renamed over), and so is an existing file that is not a PNG (a link or a wrong
    /// name must not overwrite the database or anything else the daemon can write).
    /// Saves the frame as `name` in the screenshot folder, the only place a screenshot is written (a
    /// client once chose the path, and the daemon's user wrote the PNG over whatever it named), and keeps
    /// the newest few there: the folder is in RAM (and goes with the daemon's runtime folder when it stops).
    private func screenshotCommand(name: String) -> Result<ControlReply, ControlError> {
        guard let screen else { return .failure(ControlError(.failed, "this box has no screen (stillroomd --display none)")) }
        let folder = options.screenshotFolder
        do {
            try Self.ensureScreenshotFolder(folder)
            let bytes = try PNGImage.encode(screen.painter.frame)
            try Files.replaceAtomically(folder + "/" + name, with: bytes, temporary: folder + "/." + name + ".new",
                                        mode: 0o640, flags: O_EXCL | O_NOFOLLOW)
        } catch {
            return .failure(ControlError(.failed, "the screenshot was not written: \(error)"))
        }
        panel.screenshotsWritten.removeAll { $0 == name }
        panel.screenshotsWritten.append(name)
        while panel.screenshotsWritten.count > Self.screenshotsKept { unlink(folder + "/" + panel.screenshotsWritten.removeFirst()) }
        return .success(.screenshot(ScreenshotReport(path: folder + "/" + name, width: screen.painter.frame.width, height: screen.painter.frame.height)))
    }

    static let screenshotsKept = 8

    /// The folder, made when missing (0750: group stillroom reads what stillroomctl copies); refused when
    /// it is anything but a real folder.
    static func ensureScreenshotFolder(_ folder: String) throws(SystemError) {
        if mkdir(folder, 0o750) != 0 && errno != EEXIST { throw SystemError("mkdir", path: folder) }
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw SystemError("", path: folder, errno: ENOTDIR)
        }
    }

    /// Speaks a text through the box: checks the speech path end to end (synthesis, mixing, output).
    private func sayCommand(text: String) -> Result<ControlReply, ControlError> {
        do {
            feed(.saidOnRequest(text, seconds: try speak(text)))
        } catch {
            return .failure(ControlError(.failed, "speech failed: \(error)"))
        }
        return .success(.status(statusReport()))
    }

    /// Runs `body` with the session `raw` names, or answers that the box has no such session.
    func withSession(_ raw: String, _ body: (Session) -> Result<ControlReply, ControlError>) -> Result<ControlReply, ControlError> {
        guard let id = try? ContentID(validating: raw), let session = anySession(id) else {
            return .failure(ControlError(.notFound, "no session \"\(raw)\" on this box; see stillroomctl sessions"))
        }
        return body(session)
    }

    /// The session as the protocol carries it, with its measured length and its download when there is one.
    func sessionSummary(_ session: Session) -> SessionSummary {
        let length = content.lengths[session.id]
        return SessionSummary(session, measuredSeconds: length.map { Double($0.frames) / Double($0.sampleRate) },
                              favorite: (try? store.isFavorite(sessionID: session.id.rawValue)) ?? false,
                              download: downloads?.status(of: session.id))
    }
}
