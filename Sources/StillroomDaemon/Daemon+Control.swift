import ControlProtocol
import CairoPainter
import ControlSocket
import EspeakSpeech
import SQLiteStore
import StillroomCore

/// The control commands the daemon answers. Each returns a result object or a typed error whose message
/// says what to do; none blocks the loop.
extension Daemon {
    func handle(_ request: ControlRequest, from peer: PeerCredentials) -> Result<JSONValue, ControlError> {
        defer {
            storedChanged = true // a command may have changed favourites, notices or settings
            refreshModel()
        }
        if let refusal = refusalWhileUpdating(request) { return .failure(refusal) }
        switch request.command {
        case "status": return .success(statusJSON())
        case "play": return playCommand(request)
        case "pause":
            apply(.pause(.user))
            return .success(statusJSON())
        case "resume":
            apply(.resume)
            return .success(statusJSON())
        case "toggle":
            apply(.toggle)
            return .success(statusJSON())
        case "stop":
            apply(.stop)
            return .success(statusJSON())
        case "seek": return seekCommand(request)
        case "volume": return volumeCommand(request)
        case "dismiss": return dismissCommand(request)
        case "sessions":
            let remote = (downloads?.sessions ?? []).filter { content.catalog.session(withID: $0.id) == nil }
            return .success(.object(["sessions": .array((content.catalog.sessions + remote).map(sessionJSON))]))
        case "show": return withSession(request) { .success(sessionJSON($0)) }
        case "favorite": return favoriteCommand(request)
        case "doctor": return .success(doctorJSON())
        case "say": return sayCommand(request)
        case "settings": return settingsCommand(request)
        case "history": return historyCommand(request)
        case "downloads": return downloadsCommand(request)
        case "reminder": return reminderCommand(request)
        case "timer": return timerCommand(request)
        case "screenshot": return screenshotCommand(request)
        case "transcript": return transcriptCommand(request)
        case "update": return updateCommand(request)
        case "network": return .success(networkJSON())
        default:
            return .failure(ControlError(.unknownCommand, "unknown command \"\(request.command)\"; see stillroomctl --help"))
        }
    }

    private func playCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        guard let text = request.argument("session") else {
            // No id: accept a resume offer, resume a pause, or start the first-boot session.
            if player.resumeOffer != nil || player.phase == .paused || player.phase == .ended {
                apply(player.resumeOffer != nil ? .acceptResume : .resume)
            } else if player.phase != .playing {
                // Nothing chosen and nothing to start: say so, rather than answer "ok" having done nothing.
                guard let session = content.catalog.firstBootSession else {
                    return .failure(ControlError(.failed, "there is nothing on this box to play yet; see stillroomctl sessions"))
                }
                _ = play(sessionID: session.id)
            }
            return .success(statusJSON())
        }
        return withSession(request, text: text) { session in
            _ = play(sessionID: session.id)
            return .success(statusJSON())
        }
    }

    private func seekCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        guard player.sessionID != nil, player.sampleRate > 0 else {
            return .failure(ControlError(.failed, "nothing is playing or paused; play a session first"))
        }
        let rate = Double(player.sampleRate)
        let limit = Self.seekLimitSeconds
        // Checked before any conversion: Int64(±1e15 × 48 000) traps, and a client must never stop the box.
        if let by = request.arguments["by"]?.doubleValue {
            guard by.isFinite, abs(by) <= limit else {
                return .failure(ControlError(.invalidArgument, "seek by at most \(Int(limit)) seconds either way"))
            }
            apply(.seekBy(frames: Int64((by * rate).rounded())))
        } else if let to = request.arguments["to"]?.doubleValue {
            guard to.isFinite, (0...limit).contains(to) else {
                return .failure(ControlError(.invalidArgument, "seek to a place from 0 to \(Int(limit)) seconds"))
            }
            apply(.seek(toFrame: Int64((to * rate).rounded())))
        } else {
            return .failure(ControlError(.invalidArgument, "seek needs \"by\" (seconds, + or -) or \"to\" (seconds from the start)"))
        }
        return .success(statusJSON())
    }

    /// The farthest a seek may ask for, either way: a day, longer than any recording the box plays.
    /// Places past the end are clamped by the player; numbers beyond this are a mistake and refused.
    static let seekLimitSeconds = 86_400.0

    private func volumeCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        guard let level = request.arguments["level"]?.integerValue, (0...100).contains(level) else {
            return .failure(ControlError(.invalidArgument, "volume needs a level from 0 to 100"))
        }
        do {
            try change(setting: "volume", to: String(level))
        } catch {
            return .failure(ControlError(.failed, error.message)) // in range, so only a store that cannot save
        }
        return .success(statusJSON())
    }

    private func dismissCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        if let id = request.arguments["notice"]?.integerValue {
            if dismissLiveNotice(Int64(id)) { return .success(statusJSON()) }
            do {
                guard try store.dismissNotice(id: Int64(id), now: UnixMilliseconds(date: loop.wallNow)) else {
                    return .failure(ControlError(.notFound, "no open notice \(id); see stillroomctl status"))
                }
            } catch {
                return .failure(ControlError(.failed, "notice \(id) stays open: its dismissal could not be saved (\(error))"))
            }
            return .success(statusJSON())
        }
        guard player.resumeOffer != nil else { return .failure(ControlError(.notFound, "there is no resume offer to dismiss")) }
        apply(.dismissResume)
        return .success(statusJSON())
    }

    private func favoriteCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        let add = request.argument("action") != "remove"
        return withSession(request) { session in
            do {
                if add {
                    _ = try store.addFavorite(sessionID: session.id.rawValue, now: UnixMilliseconds(date: loop.wallNow))
                } else {
                    _ = try store.removeFavorite(sessionID: session.id.rawValue)
                }
            } catch {
                return .failure(ControlError(.failed, "the favourite was not saved: \(error)"))
            }
            return .success(sessionJSON(session))
        }
    }

    private func settingsCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        if let key = request.argument("key") {
            guard let value = request.argument("value") else {
                return .failure(ControlError(.invalidArgument, "settings set needs a KEY and a VALUE"))
            }
            do {
                try change(setting: key, to: value)
            } catch .refused(let refusal) {
                let code: ControlError.Code = Settings.keys.contains(key) ? .invalidArgument : .notFound
                return .failure(ControlError(code, "\(key): \(refusal.message)"))
            } catch {
                return .failure(ControlError(.failed, error.message))
            }
        }
        return .success(settingsJSON())
    }

    func settingsJSON() -> JSONValue {
        .object(["settings": .array(Settings.keys.map { key in
            .object(["key": .string(key), "value": .string(settings.value(of: key)),
                     "about": .string(Settings.explanations[key] ?? "")])
        })])
    }

    /// Writes what the screen shows now (the painter's frame: what DRM or the PNG got) to a PNG file.
    private func screenshotCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        guard let path = request.argument("path"), path.hasPrefix("/"), path.hasSuffix(".png") else {
            return .failure(ControlError(.invalidArgument, "screenshot needs an absolute path ending in .png"))
        }
        guard let screen else { return .failure(ControlError(.failed, "this box has no screen (stillroomd --display none)")) }
        do {
            try PNGImage.write(screen.painter.frame, to: path)
        } catch {
            return .failure(ControlError(.failed, "the screenshot was not written: \(error)"))
        }
        return .success(.object(["path": .string(path), "width": .number(Double(screen.painter.frame.width)),
                                 "height": .number(Double(screen.painter.frame.height))]))
    }

    /// Speaks a text through the box: checks the speech path end to end (synthesis, mixing, output).
    private func sayCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        guard let text = request.argument("text"), !text.isEmpty, text.count <= 500 else {
            return .failure(ControlError(.invalidArgument, "say needs a text of 1 to 500 characters"))
        }
        do {
            _ = try speak(text)
        } catch {
            return .failure(ControlError(.failed, "speech failed: \(error)"))
        }
        return .success(statusJSON())
    }

    func withSession(_ request: ControlRequest, text: String? = nil,
                             _ body: (Session) -> Result<JSONValue, ControlError>) -> Result<JSONValue, ControlError> {
        guard let raw = text ?? request.argument("session") else {
            return .failure(ControlError(.invalidArgument, "a session id is needed; see stillroomctl sessions"))
        }
        guard let id = try? ContentID(validating: raw), let session = anySession(id) else {
            return .failure(ControlError(.notFound, "no session \"\(raw)\" on this box; see stillroomctl sessions"))
        }
        return body(session)
    }

    func sessionJSON(_ session: Session) -> JSONValue {
        let length = content.lengths[session.id]
        let seconds = length.map { Double($0.frames) / Double($0.sampleRate) } ?? session.durationSeconds
        var fields: [String: JSONValue] = [
            "id": .string(session.id.rawValue),
            "title": .string(session.title),
            "theme": .string(session.theme.rawValue),
            "description": .string(session.description),
            "duration": .number(Self.seconds(seconds)),
            "onBox": .bool(session.audio.isBundled || downloads?.status(of: session.id)?.isPlayableOffline == true),
            "favorite": .bool((try? store.isFavorite(sessionID: session.id.rawValue)) ?? false),
            "license": .object([
                "name": .string(session.license.name),
                "attribution": .string(session.license.attribution),
            ]),
        ]
        if case .remote(let remote) = session.audio { fields["bytes"] = .number(Double(remote.byteCount)) }
        if let status = downloads?.status(of: session.id) { fields["download"] = status.jsonValue }
        return .object(fields)
    }
}
