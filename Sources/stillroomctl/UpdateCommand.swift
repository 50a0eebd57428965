import ControlProtocol
import Glibc
import StillroomCore
import SystemCalls

/// `stillroomctl update install FILE|URL` and `update status` (docs/updates.md, "Installing from the CLI").
/// The install is asked of the daemon, which alone decides the restart; this follows its progress until
/// the box restarts into the new version or says why not.
struct UpdateCommand {
    let invocation: Invocation
    var connection: Connection { Connection(invocation) }
    var folder: String { invocation.flags["--update-dir"] ?? "/run/stillroom-update" }

    func run() throws -> ExitStatus {
        let words = invocation.words
        switch (words.first, words.count) {
        case ("status", 1), (nil, 0): return status()
        case ("install", 2): return try install(words[1])
        default: throw UsageError("usage: stillroomctl update install FILE.raucb|https://HOST/FILE.raucb [--yes] [--allow-downgrade] [--no-wait] | update status")
        }
    }

    /// Root's allowance for one install that is not newer than the running version (board/rauc/
    /// stillroom-version-check reads it, within the hour, and removes it). Written by root's own CLI into the
    /// agent's folder, which only root can write: never through the daemon, which may not grant it.
    private func allowDowngrade(_ source: String) {
        guard getuid() == 0 else {
            fail("only root may allow a downgrade (versions only go forward: docs/updates.md); run it with sudo", .refused)
        }
        // The agent honours it for this source alone (board/rauc/stillroom-update-agent).
        let text = "allowed by root (uid 0)\nsource=\(source)\n"
        do throws(SystemError) {
            try Files.replaceAtomically(folder + "/allow-downgrade", with: Array(text.utf8), temporary: folder + "/.allow-downgrade.new",
                                        mode: 0o600, flags: O_EXCL | O_NOFOLLOW)
        } catch {
            fail("cannot allow the downgrade (\(folder)): \(error.reason)", .failed)
        }
    }

    private func install(_ given: String) throws -> ExitStatus {
        var source = given
        if !given.contains("://") {
            source = given.hasPrefix("/") ? given : CommandRunner.currentDirectory() + "/" + given
            // Said here, where the owner typed it: the daemon cannot see every folder (root's home, for one).
            var info = stat()
            guard stat(source, &info) == 0 else { fail("\(given): \(SystemError("stat").reason)", .failed) }
            guard (info.st_mode & S_IFMT) == S_IFREG else { fail("\(given) is not a file", .failed) }
        }
        if invocation.flags["--allow-downgrade"] != nil { allowDowngrade(source) }
        var result = ask(.update(.install(source: source, confirmed: invocation.flags["--yes"] != nil)))
        if invocation.flags["--no-wait"] != nil { return finish(result, ok: true) }
        var said = ""
        while true {
            let update = result["update"]
            switch update?["state"]?.stringValue {
            case "installing":
                let line = Self.progressLine(update)
                if line != said, !invocation.json { write(line) }
                said = line
            case "restarting":
                let version = update?["version"]?.stringValue ?? ""
                if !invocation.json {
                    write("Installed \(version.isEmpty ? "the update" : version). The box restarts into it now and keeps it only if it starts well;\n"
                          + "`stillroomctl update status` tells which version runs once it is back.")
                }
                return finish(result, ok: true)
            case "failed":
                if invocation.json { return finish(result, ok: false) }
                fail("the update was not installed: \(update?["message"]?.stringValue ?? "no reason given"); nothing changed", .failed)
            default:
                fail("the daemon no longer reports this update; see stillroomctl update status and journalctl -u stillroom-update", .failed)
            }
            usleep(500_000)
            result = ask(.update(.status), duringInstall: true)
        }
    }

    private func status() -> ExitStatus {
        let result: JSONValue
        do {
            let response = try connection.send(.update(.status))
            switch response.outcome {
            case .success(let value): result = value
            case .failure(let error): fail(error.message, CommandRunner.status(for: error.code))
            }
        } catch {
            switch error {
            case .unreachable: result = offlineStatus()
            case .refused(let reason): fail(reason, .refused)
            case .broken(let reason): fail(reason, .failed)
            case .elsewhere(let reason): fail(reason, .unreachable)
            }
        }
        write(invocation.json ? ControlCodec.json(result) : Self.describe(result))
        return .ok
    }

    /// With the daemon down: the agent's files as they are.
    private func offlineStatus() -> JSONValue {
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return UpdateStatusJSON.unavailable(folder: folder) }
        let report = Self.contents(of: folder + "/progress").flatMap(UpdateProgress.init(reportText:))
        return UpdateStatusJSON.make(phase: SystemUpdate.Phase(report: report), source: report?.source ?? "",
                                     slots: Self.contents(of: folder + "/status").flatMap(SlotStatus.init(reportText:)))
    }

    private func ask(_ request: ControlCommand, duringInstall: Bool = false) -> JSONValue {
        do {
            let response = try connection.send(request)
            switch response.outcome {
            case .success(let value): return value
            case .failure(let error):
                if invocation.json { write(ControlCodec.json(.object(["error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)])]))) }
                fail(error.message, CommandRunner.status(for: error.code))
            }
        } catch {
            switch error {
            case .unreachable(let reason) where duringInstall:
                fail("the daemon stopped answering during the update (\(reason)); `stillroomctl update status` tells what happened", .unreachable)
            case .unreachable(let reason):
                fail("the daemon is not running (\(reason)); start it with: systemctl start stillroom", .unreachable)
            case .refused(let reason): fail(reason, .refused)
            case .broken(let reason): fail(reason, .failed)
            case .elsewhere(let reason): fail(reason, .unreachable)
            }
        }
    }

    private func finish(_ result: JSONValue, ok: Bool) -> ExitStatus {
        if invocation.json { write(ControlCodec.json(result)) }
        return ok ? .ok : .failed
    }

    static func progressLine(_ update: JSONValue?) -> String {
        let percent = Int(update?["percent"]?.doubleValue ?? 0)
        return "\(String(percent).leftPadded(to: 3)) %  \(SystemUpdate.stepInWords(update?["step"]?.stringValue ?? ""))"
    }

    static func describe(_ result: JSONValue) -> String {
        guard result["available"]?.boolValue == true else {
            return "System updates are not available here: \(result["reason"]?.stringValue ?? "no update folder")."
        }
        var lines: [String] = []
        if let slots = result["slots"] {
            let booted = slots["booted"]?.stringValue ?? "?"
            let committed = slots["committed"]?.stringValue ?? ""
            let version = slots["booted_version"]?.stringValue ?? ""
            lines.append("Running:     \(version.isEmpty ? "version unknown" : version) (slot \(booted)\(committed == booted ? "" : ", on trial"))")
            let other = slots["other_version"]?.stringValue ?? ""
            let otherSlot = booted == "A" ? "B" : "A"
            let bad = (slots["bad"]?.arrayValue ?? []).compactMap(\.stringValue).contains(otherSlot)
            lines.append("Other slot:  \(other.isEmpty ? "not written by an update yet" : other) (slot \(otherSlot)\(bad ? ", given up" : ""))")
            if let pending = slots["pending"]?.stringValue, !pending.isEmpty {
                lines.append("Pending:     \(slots["pending_version"]?.stringValue ?? "") in slot \(pending), tried at the next restart")
            }
            let last = result["last_result"]?.stringValue ?? ""
            lines.append("Last update: \(last.isEmpty ? "none yet" : last)")
        } else {
            lines.append("Slots:       not known yet (the boot's slot check has not reported)")
        }
        let update = result["update"]
        switch update?["state"]?.stringValue {
        case "installing": lines.append("Now:         installing, \(Int(update?["percent"]?.doubleValue ?? 0)) % (\(SystemUpdate.stepInWords(update?["step"]?.stringValue ?? "")))")
        case "restarting": lines.append("Now:         restarting into \(update?["version"]?.stringValue ?? "the update")")
        case "failed": lines.append("Now:         the last install failed: \(update?["message"]?.stringValue ?? "")")
        default: break
        }
        return lines.joined(separator: "\n")
    }

    private static func contents(of path: String) -> String? {
        (try? Offline.readFile(path)).map { String(decoding: $0, as: UTF8.self) }
    }
}
