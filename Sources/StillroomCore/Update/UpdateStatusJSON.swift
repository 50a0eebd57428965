/// `stillroomctl update status --json`, one shape from the daemon and from the files when it is down.
public enum UpdateStatusJSON {
    public static func unavailable(folder: String) -> JSONValue {
        .object(["available": false, "reason": .string("no \(folder): system updates are for the appliance image")])
    }

    public static func make(phase: SystemUpdate.Phase, source: String, slots: SlotStatus?) -> JSONValue {
        var update: [String: JSONValue] = ["source": .string(source)]
        switch phase {
        case .idle: update["state"] = "idle"
        case .installing(let percent, let step):
            update["state"] = "installing"
            update["percent"] = .number(Double(percent))
            update["step"] = .string(step)
        case .restarting(let version):
            update["state"] = "restarting"
            update["version"] = .string(version)
        case .failed(let message):
            update["state"] = "failed"
            update["message"] = .string(message)
        }
        var result: [String: JSONValue] = ["available": true, "update": .object(update)]
        if let slots {
            result["slots"] = .object([
                "booted": .string(slots.booted), "booted_version": .string(slots.bootedVersion),
                "committed": .string(slots.committed), "pending": .string(slots.pending),
                "pending_version": .string(slots.pendingVersion), "other_version": .string(slots.otherVersion),
                "bad": .array(slots.bad.map { .string($0) }),
            ])
            result["last_result"] = .string(slots.lastResult)
        }
        return .object(result)
    }
}

extension SystemUpdate.Phase {
    /// The phase an agent's report alone tells (the CLI's answer while the daemon is down).
    public init(report: UpdateProgress?) {
        switch report?.state {
        case nil: self = .idle
        case .installing?: self = .installing(percent: report?.percent ?? 0, step: report?.step ?? "")
        case .installed?, .restarting?: self = .restarting(version: report?.version ?? "")
        case .failed?: self = .failed(message: report?.message ?? "")
        }
    }
}
