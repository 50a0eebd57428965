import ControlProtocol
import SQLiteStore
import StillroomCore

/// The daemon's state as `stillroomctl status` shows it (and the same shape the CLI builds from the
/// database when the daemon is down).
extension Daemon {
    func statusJSON() -> JSONValue {
        var status: [String: JSONValue] = [
            "state": .string(Self.stateName(player.phase)),
            "session": player.sessionID.map { .string($0) } ?? .null,
            "title": player.sessionID == nil ? .null : .string(player.title),
            "position": .number(Self.seconds(player.positionSeconds)),
            "duration": .number(Self.seconds(player.lengthSeconds)),
            "pauseReason": player.phase == .paused ? .string(player.pauseReason?.rawValue ?? "user") : .null,
            "volume": .number(Double(settings.volume)),
            "effectiveVolume": .number(Double(effectiveVolume)),
            "headphones": .bool(player.headphonesConnected),
            "output": .object([
                "name": .string(engine.sink.name),
                "available": .bool(player.outputAvailable),
                "problem": player.outputProblem.map { .string($0) } ?? .null,
            ]),
            "daemon": .bool(true),
            "spokenLabels": .number(Double(labelsSpoken)),
            // What tests synchronise on instead of sleeping: a label still waiting out its settle, the
            // input events handled, the frames the screen presented and whether one is due, and the seconds
            // of recordings heard.
            "labelPending": .bool(pendingLabel != nil || !speechAfter.isEmpty),
            // The last labels said, word for word, oldest first (tests assert what the box said).
            "spoken": .array(recentSpeech.map { .string($0) }),
            "describer": .bool(ui.isDescribing),
            "cuesPlayed": .number(Double(cuesPlayed)),
            // Nothing playing or playing out: a label or a chime alone has been heard to its end.
            "outputIdle": .bool(engine.isIdle),
            "inputEvents": .number(Double(inputEventsHandled)),
            "framesPresented": screen.map { .number(Double($0.framesPresented)) } ?? .null,
            "framePending": .bool(screen?.nextFrameDeadline != nil),
            "heardSeconds": .number(Self.seconds(heardSecondsTotal)),
            "screen": .string(screen == nil ? "none" : (screen!.isScreenOn ? (ui.power == .dim ? "dim" : "on") : "off")),
            "page": .string(ui.screenKind(model).rawValue),
        ]
        if case .failed(let message) = player.phase { status["error"] = .string(message) }
        if let damage = player.damage { status["error"] = .string(damage) }
        if options.timeWarp > 1 {
            // A soak's driver plans in the box's (warped) time: a reminder a few minutes ahead, what was heard.
            status["timeWarp"] = .object(["factor": .number(Double(options.timeWarp)),
                                          "wallTime": .number(loop.wallNow.timeIntervalSince1970)])
        }
        if let offer = player.resumeOffer {
            status["resumeOffer"] = .object([
                "session": .string(offer.position.sessionID),
                "title": .string(offer.title),
                "position": .number(Self.seconds(offer.position.seconds)),
            ])
        } else {
            status["resumeOffer"] = .null
        }
        if let checkpoint = player.lastCheckpoint {
            var saved: [String: JSONValue] = [
                "session": .string(checkpoint.sessionID),
                "position": .number(Self.seconds(checkpoint.seconds)),
            ]
            if let at = player.lastCheckpointAt { saved["ageSeconds"] = .number(Self.seconds((loop.now - at).seconds)) }
            status["lastCheckpoint"] = .object(saved)
        } else {
            status["lastCheckpoint"] = .null
        }
        let notices = liveNotices() + ((try? store.notices()) ?? []).map(InterfaceModel.Notice.init)
        status["notices"] = .array(notices.map { notice in
            .object(["id": .number(Double(notice.id)), "kind": .string(notice.kind.rawValue), "message": .string(notice.message)])
        })
        status["storage"] = storageProblem.map { .object(["canSave": false, "problem": .string($0)]) } ?? .object(["canSave": true])
        return .object(status)
    }

    static func stateName(_ phase: PlayerPhase) -> String {
        switch phase {
        case .idle: return "idle"
        case .loading: return "loading"
        case .playing: return "playing"
        case .paused: return "paused"
        case .ended: return "ended"
        case .failed: return "error"
        }
    }

    /// Seconds to the millisecond: enough for people, stable in JSON.
    static func seconds(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension Daemon {
    /// Minutes after local midnight now.
    var localMinuteOfDay: Int {
        let utc = Int64(loop.wallNow.timeIntervalSince1970)
        let seconds = utc + Int64(timeZone.utcOffset(at: utc))
        return Int(((seconds % 86_400) + 86_400) % 86_400 / 60)
    }
}
