import ControlProtocol
import CurlDownloader
import EventLoop
import Glibc
import StillroomCore

/// `stillroomctl doctor`: each part of the box, ok or what to do.
extension Daemon {
    func doctorReport() -> DoctorReport {
        var checks: [DoctorReport.Check] = []
        func check(_ name: String, _ ok: Bool, _ detail: String, fix: String = "") {
            checks.append(DoctorReport.Check(name, ok: ok, detail: detail, fix: ok ? "" : fix))
        }
        do {
            let findings = try store.quickCheck().filter { $0 != "ok" } // ["ok"] when sound
            check("database", findings.isEmpty, findings.isEmpty ? "quick_check ok" : findings.prefix(3).joined(separator: "; "),
                  fix: "stop stillroomd; the next start moves the damaged file aside and starts fresh")
        } catch {
            check("database", false, storageWords(error), fix: "check the data folder's disk and permissions; journalctl -u stillroom has SQLite's own words")
        }
        checks.append(storageCheck())
        let verdict = DataStorageVerdict.of(options.dataDirectory)
        check("data storage", verdict.ok, verdict.detail, fix: verdict.fix)
        let contentProblems = content.problems + sessionFileProblems()
        check("content", contentProblems.isEmpty,
              contentProblems.isEmpty ? "\(content.catalog.sessions.count) sessions, every file present, measured and readable"
                                      : "\(NumberText.count(contentProblems.count, "problem")): \(contentProblems.first ?? "")",
              fix: "reinstall the content package, or see the log lines starting with \"content:\"")
        check("audio output", player.outputAvailable,
              player.outputAvailable ? "\(engine.sink.name)" : "\(engine.sink.name): \(player.outputProblem ?? "unavailable")",
              fix: "check the DAC's cable and `aplay -l`; the box retries every 2 s by itself")
        switch options.input {
        case .none:
            check("input", true, "no controls (stillroomd --input none)")
        default:
            let missing = missingControls
            check("input", !inputs.backends.isEmpty && missing.isEmpty,
                  inputs.backends.map(\.name).joined(separator: ", ") + (missing.isEmpty ? "" : "; waiting for " + missing.map(\.forDoctor).joined(separator: "; ")),
                  fix: "check the board file (\(options.boardFile)) and the wiring; see docs/board.md"
                      + (missing.isEmpty ? "" : "; the device names are in /proc/bus/input/devices"))
        }
        if let screen {
            check("display", !screen.failed, "\(screen.display.name), \(screen.display.size.width)x\(screen.display.size.height)"
                  + (screen.isScreenOn ? "" : ", blanked"), fix: "check the panel's cable; see the log lines starting with \"display:\"")
        } else {
            check("display", options.display == .none, options.display == .none ? "no screen (stillroomd --display none)" : "not found",
                  fix: "check the panel's cable and the DRM driver (dmesg | grep drm); the box keeps playing without a screen")
        }
        let free = Self.freeBytes(options.dataDirectory)
        let reserve: Int64 = 64 << 20
        check("disk space", free >= reserve, "\(free >> 20) MB free in \(options.dataDirectory)",
              fix: "remove downloaded sessions (stillroomctl downloads) to make room")
        let synced = clockSynchronized()
        check("clock", synced, synced ? "synchronised" : "not synchronised: practice times are kept as undated until it is",
              fix: "connect the box to a network so systemd-timesyncd can set the time")
        if let wifiCheck { checks.append(wifiCheck) }
        return DoctorReport(checks: checks)
    }

    static func freeBytes(_ path: String) -> Int64 { DownloadManager.availableBytes(at: path) ?? 0 }

    /// What the player will need and cannot read, for every session on the box (bundled, or downloaded):
    /// its transcript (over 512 KiB, a cue over 1,000 characters, bad WebVTT) and its breath cues. Read here,
    /// when asked, not at start: a transcript is parsed when its session plays, and silently left out then.
    func sessionFileProblems() -> [String] {
        let downloaded = (downloads?.sessions ?? []).filter { content.catalog.session(withID: $0.id) == nil }
        var problems: [String] = []
        for session in content.catalog.sessions + downloaded {
            if transcriptPath(of: session) != nil, case .failure(let problem) = loadTranscript(of: session) {
                problems.append(problem.message)
            }
            guard let cuesPath = breathCuesPath(of: session) else { continue }
            let seconds = content.lengths[session.id].map { Double($0.frames) / Double($0.sampleRate) } ?? 3600
            do {
                _ = try BreathCueParser.parse(try FileReading.bytes(cuesPath), fileName: cuesPath, recordingSeconds: seconds)
            } catch {
                problems.append("the breath cues of \(session.id) cannot be read: \(error)")
            }
        }
        return problems
    }
}
