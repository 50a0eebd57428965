import StillroomCore

/// The status on the wire, and read back by the CLI.
extension StatusReport {
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "state": .string(state.rawValue), "daemon": .bool(live != nil), "session": session.map { .string($0) } ?? .null,
            "title": title.map { .string($0) } ?? .null, "position": .number(position), "duration": .number(duration),
            "resumeOffer": resumeOffer.map { .object(["session": .string($0.session), "title": .string($0.title), "position": .number($0.position)]) } ?? .null,
            "lastCheckpoint": lastCheckpoint.map { checkpoint in
                var saved: [String: JSONValue] = ["session": .string(checkpoint.session), "position": .number(checkpoint.position)]
                if let age = checkpoint.ageSeconds { saved["ageSeconds"] = .number(age) }
                return .object(saved)
            } ?? .null,
            "notices": .array(notices.map { .object(["id": .number(Double($0.id)), "kind": .string($0.kind.rawValue), "message": .string($0.message)]) }),
        ]
        if let live { fields.merge(live.fields) { $1 } }
        return .object(fields)
    }

    /// Reads an answer back; what is missing reads as nothing chosen, nothing saved, no notices.
    public init(json: JSONValue) {
        state = json["state"]?.stringValue.flatMap(PlayerState.init(rawValue:)) ?? .unknown
        session = json["session"]?.stringValue
        title = json["title"]?.stringValue
        position = json["position"]?.doubleValue ?? 0
        duration = json["duration"]?.doubleValue ?? 0
        resumeOffer = json["resumeOffer"].flatMap { offer in
            offer["title"]?.stringValue.map {
                ResumeOffer(session: offer["session"]?.stringValue ?? "", title: $0, position: offer["position"]?.doubleValue ?? 0)
            }
        }
        lastCheckpoint = json["lastCheckpoint"].flatMap { saved in
            saved["position"]?.doubleValue.map {
                Checkpoint(session: saved["session"]?.stringValue ?? "", position: $0, ageSeconds: saved["ageSeconds"]?.doubleValue)
            }
        }
        notices = (json["notices"]?.arrayValue ?? []).map { notice in
            Notice(id: Int64(notice["id"]?.integerValue ?? 0), kind: NoticeKind(rawValue: notice["kind"]?.stringValue ?? ""), message: notice["message"]?.stringValue ?? "")
        }
        live = json["daemon"]?.boolValue == false ? nil : Live(json: json)
    }
}

extension StatusReport.Live {
    var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "pauseReason": pauseReason.map { .string($0.rawValue) } ?? .null,
            "volume": .number(Double(volume)), "effectiveVolume": .number(Double(effectiveVolume)), "headphones": .bool(headphones),
            "output": .object(["name": .string(outputName), "available": .bool(outputAvailable),
                               "problem": outputProblem.map { .string($0) } ?? .null]),
            "storage": storageProblem.map { .object(["canSave": false, "problem": .string($0)]) } ?? .object(["canSave": true]),
        ]
        if let error { fields["error"] = .string(error) }
        fields.merge(observed.fields) { $1 }
        return fields
    }

    init(json: JSONValue) {
        self.init(pauseReason: json["pauseReason"]?.stringValue.flatMap(PauseReason.init(rawValue:)), volume: json["volume"]?.integerValue ?? 0,
                  effectiveVolume: json["effectiveVolume"]?.integerValue ?? json["volume"]?.integerValue ?? 0,
                  headphones: json["headphones"]?.boolValue ?? false, outputName: json["output"]?["name"]?.stringValue ?? "?",
                  outputAvailable: json["output"]?["available"]?.boolValue ?? true, outputProblem: json["output"]?["problem"]?.stringValue,
                  error: json["error"]?.stringValue, storageProblem: json["storage"]?["problem"]?.stringValue,
                  observed: StatusReport.Observed(json: json))
    }
}

extension StatusReport.Observed {
    var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "spokenLabels": .number(Double(spokenLabels)), "labelPending": .bool(labelPending), "spoken": .array(spoken.map { .string($0) }),
            "describer": .bool(describer), "cuesPlayed": .number(Double(cuesPlayed)), "outputIdle": .bool(outputIdle),
            "inputEvents": .number(Double(inputEvents)), "framesPresented": framesPresented.map { .number(Double($0)) } ?? .null,
            "framePending": .bool(framePending), "heardSeconds": .number(heardSeconds), "screen": .string(screen), "page": .string(page),
        ]
        if let timeWarp {
            fields["timeWarp"] = .object(["factor": .number(Double(timeWarp.factor)), "wallTime": .number(timeWarp.wallTime)])
        }
        return fields
    }

    init(json: JSONValue) {
        self.init()
        spokenLabels = json["spokenLabels"]?.integerValue ?? 0
        labelPending = json["labelPending"]?.boolValue ?? false
        spoken = (json["spoken"]?.arrayValue ?? []).compactMap(\.stringValue)
        describer = json["describer"]?.boolValue ?? false
        cuesPlayed = json["cuesPlayed"]?.integerValue ?? 0
        outputIdle = json["outputIdle"]?.boolValue ?? true
        inputEvents = json["inputEvents"]?.integerValue ?? 0
        framesPresented = json["framesPresented"]?.integerValue
        framePending = json["framePending"]?.boolValue ?? false
        heardSeconds = json["heardSeconds"]?.doubleValue ?? 0
        screen = json["screen"]?.stringValue ?? "none"
        page = json["page"]?.stringValue ?? ""
        timeWarp = json["timeWarp"].flatMap { warp in
            warp["factor"]?.integerValue.map { StatusReport.TimeWarp(factor: $0, wallTime: warp["wallTime"]?.doubleValue ?? 0) }
        }
    }
}
