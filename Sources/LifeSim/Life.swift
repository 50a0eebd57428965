import CHeapUsage
import ControlProtocol
import FoundationEssentials
import Glibc
import StillroomCore
import SystemCalls

/// One life of one box: the schedule's events performed at their times on the box's virtual clock, the
/// oracle checking after every step. Time between events moves in steps short enough to see what the
/// person would (a minute while something plays or a reminder is due, up to half an hour when the box is idle).
final class Life {
    /// Where the simulated world starts: 2027-01-01 00:00 in London (winter: UTC).
    static let wallStart = Date(timeIntervalSince1970: 1_798_761_600)

    let schedule: Schedule
    let box: SimulatedBox
    var oracle = Oracle()
    /// What is owed around system updates (the agent is the box's world: `box.updates`).
    var updatePromises = UpdatePromises()
    /// The box is rebooting into an update the daemon asked for (the agent's reboot: Life+Updates.swift).
    var rebootingIntoUpdate = false
    /// The box's monotonic time when the life began.
    private let origin: MonotonicInstant
    private var rules: TimeZoneRules
    /// The life second of the last event, person's or world's.
    private var lastEventAt: Int64 = -1_000_000
    private var nextEventIndex = 0
    private var lastStatus: StatusReport?
    /// A reminder due the oracle knows the outcome of (a quiet moment: nothing else happening around it).
    private var expected: ExpectedReminder?
    private(set) var kills = 0
    /// Kills that were power cuts between two of the box's effects (taken, not run out of effects), and
    /// inside SQLite's writes.
    private(set) var cuts = 0
    private(set) var crashes = 0
    /// What a cut may cost beyond a kill: the step of time it came in (0 for a kill, which lands between handlers).
    private var cutSlack = 0.0
    private(set) var restarts = 0
    private(set) var eventsDone = 0
    /// The heap in use and the resident size a month into the life (warm), and at its end, in kB.
    private(set) var memoryWarm: (heapKB: Int, residentKB: Int)?
    private(set) var memoryEnd: (heapKB: Int, residentKB: Int)?
    /// A year's growth of the heap beyond this is a leak: about a hundred daemons started and stopped,
    /// thousands of sessions played, each day's history read whole (seen: it wanders between 0.4 and
    /// 1.9 MB over a year, with no trend).
    static let heapGrowthLimitKB = 2048

    struct ExpectedReminder {
        var due: Int64 // unix seconds
        var deadline: Int64 // life seconds
        var chime: Bool
        var fired = false
    }

    struct Failure: Error {
        var violation: Oracle.Violation
        /// The life second it was seen at, and the events done by then.
        var at: Int64
        var eventsDone: Int
    }

    /// Print each event as it is performed (a replay).
    let verbose: Bool

    init(schedule: Schedule, folder: String, content: String, verbose: Bool = false) throws {
        self.schedule = schedule
        self.verbose = verbose
        // A content host only in a world whose events need one (a shrunk life may leave it out).
        let host = try schedule.entries.contains { $0.event.needsHost } ? LifeHost(repository: LifeContent.repository) : nil
        box = SimulatedBox(folder: folder, content: content, repository: LifeContent.repository, wallStart: Self.wallStart,
                           timeZone: "Europe/London", host: host)
        origin = box.clock.now
        rules = try Self.rules(for: "Europe/London")
        try box.start()
    }

    static func rules(for zone: String) throws -> TimeZoneRules {
        try TimeZoneRules(tzif: Files.readAll("/usr/share/zoneinfo/" + zone, limit: 1 << 20))
    }

    var lifeNow: Int64 { Int64((box.clock.now - origin).seconds) }
    var wallNow: Int64 { Int64(box.clock.wallNow.timeIntervalSince1970) }

    /// Runs the whole schedule, then `tail` seconds more; the first broken promise ends it.
    func run(until end: Int64) throws(Failure) {
        do throws(Oracle.Violation) {
            try check(afterEvent: false)
            while nextEventIndex < schedule.entries.count {
                let entry = schedule.entries[nextEventIndex]
                if entry.at > end { break }
                try advance(to: entry.at)
                if verbose { say("\(entry.at) [\(rules.localDateTime(at: wallNow))] \(entry.event)") }
                lastEvent = entry.event
                try perform(entry.event)
                nextEventIndex += 1
                eventsDone += 1
                lastEventAt = lifeNow
            }
            try advance(to: end)
            try dailyChecks()
            memoryEnd = Self.memory()
            if let warm = memoryWarm, let last = memoryEnd, last.heapKB - warm.heapKB > Self.heapGrowthLimitKB {
                throw Oracle.Violation(invariant: "memory stays flat",
                                       detail: "the heap held \(warm.heapKB) kB a month in, \(last.heapKB) kB at the end")
            }
        } catch {
            throw Failure(violation: error, at: lifeNow, eventsDone: eventsDone)
        }
    }

    func finish() { box.takeOut() }

    // MARK: Time

    private func advance(to target: Int64) throws(Oracle.Violation) {
        while lifeNow < target {
            var step = min(target - lifeNow, busy ? 60 : 1800)
            // Stop just after a reminder comes due, to know what the box was doing then.
            if let due = nextDue(), due.unix > wallNow, due.unix - wallNow < step { step = due.unix - wallNow + 1 }
            // And when the update agent has something to write, or reboots the box.
            if let next = box.updates.nextActionAt, next > lifeNow, next - lifeNow < step { step = next - lifeNow }
            let day = currentDay
            let wallBefore = wallNow
            do { try box.advance(by: .seconds(step)) } catch { throw Oracle.Violation(invariant: "the loop runs", detail: "\(error)") }
            try updateAgentActs()
            // What the box was doing as the due moment came is the status before this step.
            if let due = nextDue(before: wallNow, after: wallBefore) { try reminderCameDue(due) }
            try check(afterEvent: false)
            if let expectation = expected, lifeNow >= expectation.deadline { try settle(expectation) }
            if currentDay != day { try dailyChecks() }
        }
    }

    /// Something moves: a recording, a breathing timer, a reminder waiting for its outcome.
    private var busy: Bool {
        guard let status = lastStatus else { return true }
        return status.state == .playing || status.state == .paused || status.state == .loading || expected != nil || timerRunning
            || updatePromises.busy // the box must give up on a silent agent in minutes: looked at every minute
    }

    private var timerRunning = false
    /// Runs seen dated again by a sync after a stale boot.
    private(set) var runsRedated = 0
    /// How far behind the clock the last stale boot left is, until the sync that undoes it.
    private var staleBy: Int?
    /// The clock was set by hand while it was stale: the runs' true times are not known to the oracle.
    private var staleClockSetByHand = false
    /// The first run id this life of the daemon can give (the history's highest before it, and one).
    private var firstRunIDThisLife: Int64 = 1
    /// The speaker was gone at some moment of this life of the daemon.
    private var speakerGoneThisLife = false
    /// When the speaker came back (nil while gone, or before it ever went), and how often it went.
    private var speakerBackAt: Int64?
    private(set) var speakerOutages = 0
    /// The event last performed, and the longest turn of the loop so far with the event it came in the
    /// step of (a figure for docs/reliability.md and issue 47: what keeps the loop busiest).
    private var lastEvent: LifeEvent?
    private(set) var longestTurn: (took: Duration, after: String, day: Int64) = (.zero, "", 0)
    private var currentDay: Int64 { lifeNow / 86_400 }

    // MARK: Checks

    private func check(afterEvent: Bool) throws(Oracle.Violation) {
        guard box.running else { return }
        guard let status = box.status() else { throw Oracle.Violation(invariant: "status always answers", detail: "it did not") }
        try oracle.observe(status, afterEvent: afterEvent)
        try oracle.ear.heard(box.takeSpoken(), standingNow: status.notices)
        // Virtual time stands still in a turn: the real clock is the one a stall shows on (here, on a fast
        // machine; on a Pi Zero a turn takes several times as long, which docs/reliability.md weighs).
        if box.longestTurn > longestTurn.took {
            longestTurn = (box.longestTurn, lastEvent.map { "\($0)" } ?? "the start", currentDay)
        }
        if box.longestTurn > Oracle.watchdog {
            throw Oracle.Violation(invariant: "the loop never stalls past its watchdog",
                                   detail: "one turn took \(NumberText.oneDecimal(box.longestTurn.seconds)) s of real time")
        }
        try checkSpeaker(status)
        try checkUpdate(status)
        // Playing at both ends of a step with no event in it: it played throughout (nothing starts by itself).
        let playedThroughout = !afterEvent && lastStatus?.state == .playing && status.state == .playing
        lastStatus = status
        if case .success(.timer(let timer)) = box.request(.timer(.show)) { timerRunning = timer.running != nil }
        try readLog(playedThroughout: playedThroughout)
    }

    /// With the speaker gone nothing shows as playing; once it has been back for the box's next try (every
    /// 2 s), the notice that it is missing is gone.
    private func checkSpeaker(_ status: StatusReport) throws(Oracle.Violation) {
        if box.speakerGone && status.state == .playing {
            throw Oracle.Violation(invariant: "the speaker's state is the truth", detail: "playing with the speaker gone")
        }
        if let back = speakerBackAt, lifeNow - back >= 3, status.notices.contains(where: { $0.kind == .outputLost }) {
            throw Oracle.Violation(invariant: "the speaker's state is the truth",
                                   detail: "the speaker came back \(lifeNow - back) s ago and the box still says it is missing")
        }
    }

    private func readLog(playedThroughout: Bool) throws(Oracle.Violation) {
        let lines = box.newLogLines()
        guard !DiskCache.powerCut else { return } // the doomed box's: its writes fail from the cut on
        for line in lines {
            oracle.wiped.logged(line)
            // The speaker pulled out is an error the box logs (and says on the screen): only that one, then.
            let speakerError = speakerGoneThisLife && line.contains("audio output")
            if line.hasPrefix("<3>") && !oracle.cardTroubleThisLife && !speakerError { throw Oracle.Violation(invariant: "nothing goes wrong unseen", detail: "logged: \(line)") }
            guard line.hasPrefix("<6>reminder: ") else { continue }
            let chimed = line.contains("reminder: chime")
            guard chimed || line.contains("silent card") else { continue }
            try oracle.reminderFired(on: rules.localDateTime(at: wallNow).date)
            if playedThroughout {
                throw Oracle.Violation(invariant: "a reminder waits while a session plays", detail: String(line.dropFirst(3)))
            }
            if var expectation = expected {
                if expectation.fired { throw Oracle.Violation(invariant: "one reminder at a time", detail: "fired twice for one due") }
                if expectation.chime != chimed {
                    throw Oracle.Violation(invariant: expectation.chime ? "the reminder chimes when sound is allowed and nothing plays"
                                                                        : "the reminder is a silent card when sound is not allowed",
                                           detail: String(line.dropFirst(3)))
                }
                expectation.fired = true
                expected = expectation
            }
        }
    }

    /// Once a box day, and after every restart: the history, the settings and the reminder as the box keeps them.
    private func dailyChecks() throws(Oracle.Violation) {
        if currentDay == 30 && memoryWarm == nil { memoryWarm = Self.memory() }
        guard box.running else { return }
        try oracle.checkHistory(csv: exportCSV())
        if case .success(.settings(let report)) = box.request(.settings(change: nil)) { try oracle.checkSettings(report) }
        if case .success(.reminder(let report)) = box.request(.reminder(.show)) { try oracle.checkReminder(report) }
        try checkDownloads()
        try oracle.wiped.check(database: box.dataDirectory + "/stillroom.db", cardTrouble: oracle.cardTroubleThisLife || oracle.cardUnwritable)
    }

    /// The downloads as the box lists them, against what it listed before and what the host published.
    private func checkDownloads() throws(Oracle.Violation) {
        guard let host = box.host, box.running else { return }
        guard case .success(.downloads(let report)) = box.request(.downloads(.list)) else {
            throw Oracle.Violation(invariant: "the downloads answer", detail: "they did not")
        }
        try oracle.downloads.observe(report, folder: box.dataDirectory + "/downloads", published: host.publishedDigest)
    }

    private func exportCSV() -> String {
        guard case .success(.historyExport(let report)) = box.request(.history(.export(.csv))) else { return "" }
        return report.text
    }

    /// What malloc has handed out and not had back, in kB: a leak grows it; memory freed but kept by the
    /// allocator for reuse (which resident memory counts) does not.
    /// With VmRSS of this process (the daemon's whole life runs in it), in kB.
    static func memory() -> (heapKB: Int, residentKB: Int) {
        let status = (try? Files.readAll("/proc/self/status", limit: 1 << 16)) ?? []
        let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        let resident = line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        return (Int(stillroom_heap_in_use()) / 1024, resident)
    }

    // MARK: The reminder's due moments

    /// The reminder's due instant on the local day of `wall` or the next, in unix seconds.
    private func nextDue() -> (unix: Int64, day: CivilDate)? { nextDue(before: Int64.max, after: wallNow) }

    private func nextDue(before limit: Int64, after start: Int64) -> (unix: Int64, day: CivilDate)? {
        guard let minute = oracle.reminderMinute else { return nil }
        var date = rules.localDateTime(at: start).date
        for _ in 0..<2 {
            if let local = LocalDateTime(date: date, hour: minute / 60, minute: minute % 60),
               case let unix = rules.unixSeconds(for: local), unix > start, unix <= limit { return (unix, date) }
            date = date.adding(days: 1)
        }
        return nil
    }

    /// The clock passed a due moment by itself. Only a quiet moment has a known outcome: the reminder set
    /// an hour before, nothing done by the person or the world for two minutes before and ten after, the
    /// box idle or playing on, and not fired that day already. Then it fires once within ten minutes: a chime when sound is allowed, else a card.
    private func reminderCameDue(_ due: (unix: Int64, day: CivilDate)) throws(Oracle.Violation) {
        guard expected == nil, let status = lastStatus, let live = status.live, box.running else { return }
        let nextEvent = nextEventIndex < schedule.entries.count ? schedule.entries[nextEventIndex].at : Int64.max
        let quiet = lifeNow - lastEventAt > 120 && lifeNow - oracle.reminderChosenAt > 3600 && nextEvent > lifeNow + 600
        // Idle, or playing to the end undisturbed (then it waits, and goes when the session ends).
        let known = [.idle, .ended, .stopped, .playing].contains(status.state) && !timerRunning && !updateUnderWay
        guard quiet, known, oracle.isOwed(due.day) else { return }
        var style = "chime"
        if case .success(.reminder(let report)) = box.request(.reminder(.show)) { style = report.schedule?.style ?? style }
        let minute = rules.minuteOfDay(at: due.unix)
        let night = isNight(minute)
        let chime = style == "chime" && !night && live.effectiveVolume > 0 && !box.speakerGone
        expected = ExpectedReminder(due: due.unix, deadline: lifeNow + 600, chime: chime)
        oracle.remindersExpected += 1
    }

    private func settle(_ expectation: ExpectedReminder) throws(Oracle.Violation) {
        expected = nil
        if !expectation.fired {
            throw Oracle.Violation(invariant: "the reminder fires on every due day",
                                   detail: "due \(rules.localDateTime(at: expectation.due)) passed quietly, nothing fired")
        }
    }

    private func isNight(_ minute: Int) -> Bool {
        let mode = oracle.settings["night-mode"] ?? "auto"
        if mode != "auto" { return mode == "on" }
        let starts = Self.minutes(oracle.settings["night-starts"] ?? "21:00"), ends = Self.minutes(oracle.settings["night-ends"] ?? "07:00")
        return starts <= ends ? (minute >= starts && minute < ends) : (minute >= starts || minute < ends)
    }

    static func minutes(_ text: String) -> Int {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : 0
    }

    // MARK: Events

    private func perform(_ event: LifeEvent) throws(Oracle.Violation) {
        if event.isWorld {
            try world(event)
            return
        }
        guard box.running else { return }
        oracle.personActed(event)
        switch event {
        case .play(let session):
            box.request(.play(session: session))
            // A session from the host plays once the box has it, network or not; before, it may not.
            // With no speaker it cannot; it says so, and the player waits for one.
            // While an update's screen stands it waits.
            let mustPlay = !box.speakerGone && (session.map { !LifeHost.sessions.contains($0) || oracle.downloads.mayPlay($0) } ?? false)
                && !(box.updates.installsAsked > 0 && Self.isBusy(updateState()))
            if mustPlay, let status = box.status(), status.state != .playing && status.state != .loading {
                throw Oracle.Violation(invariant: "PLAY plays", detail: "play \(session!): \(status.state.rawValue), \(status.live?.error ?? "no error")")
            }
        case .pause: box.request(.pause)
        case .resume: box.request(.resume)
        case .toggle: box.request(.toggle)
        case .stop: box.request(.stop)
        case .seekBy(let seconds): box.request(.seek(.by(seconds: seconds)))
        case .seekTo(let seconds): box.request(.seek(.to(seconds: seconds)))
        case .volume(let level):
            if case .success = box.request(.volume(level: level)) { oracle.accepted(setting: "volume", value: String(level)) }
        case .favourite(let session, let on): box.request(.favorite(session: session, add: on))
        case .setting(let key, let value):
            if case .success(.settings(let report)) = box.request(.settings(change: .init(key: key, value: value))),
               let shown = report.entries.first(where: { $0.key == key })?.value {
                oracle.accepted(setting: key, value: shown)
            }
        case .reminderAt(let minute):
            if case .success = box.request(.reminder(.set(.init(minuteOfDay: minute)))) { oracle.reminderChosen(minute, at: lifeNow) }
        case .reminderOff:
            if case .success = box.request(.reminder(.off)) { oracle.reminderChosen(nil, at: lifeNow) }
        case .timerStart(let minutes): box.request(.timer(.start(pattern: nil, minutes: minutes)))
        case .timerStop: box.request(.timer(.stop))
        case .deleteLatestRun: try deleteLatestRun()
        case .deleteAllHistory:
            let before = exportCSV()
            if case .success = box.request(.history(.deleteAll)) {
                oracle.deletedAll(csv: before)
                oracle.wiped.deleted(Self.rows(before).dropFirst().compactMap { row in
                    row.count >= 7 ? Int64(row[6]).map { (row[1], $0) } : nil
                })
            }
        case .dismissResume: box.request(.dismiss(notice: nil))
        case .dismissNotices:
            for notice in lastStatus?.notices ?? [] {
                guard case .success = box.request(.dismiss(notice: Int(notice.id))), notice.kind == .updateRolledBack,
                      !oracle.cardTroubleThisLife, !oracle.cardUnwritable else { continue }
                updatePromises.rollbackDismissed = box.updates.rolledBackResult
            }
        case .headphones: box.type("j")
        case .press(let control):
            box.type(control.keys)
            // A chord or a held control acts when let go, 2.5 to 3.5 s later: the person holds it that long.
            if control.isHeld { try? box.advance(by: .seconds(4)) }
            // A control may change a setting (the labels chord, the settings page): what the box now
            // shows is what the person chose, and is owed across restarts from here on.
            if case .success(.settings(let report)) = box.request(.settings(change: nil)) {
                for entry in report.entries where oracle.settings[entry.key] != nil || entry.key == "spoken-labels" {
                    oracle.accepted(setting: entry.key, value: entry.value)
                }
            }
        case .download(let session): try download(session)
        case .update(let outcome): try askForUpdate(outcome)
        case .removeDownload(let session):
            guard let id = try? ContentID(validating: session) else { break }
            if case .success = box.request(.downloads(.remove(id, confirmed: true))) {
                try oracle.downloads.removed(session, folder: box.dataDirectory + "/downloads")
            }
        case .kill, .cut, .crash, .restart, .clockJump, .zoneChange, .staleBoot, .cardFull, .cardEmptied, .cardReadOnly, .cardWritable,
             .networkDown, .networkUp, .hostFault, .outputGone, .outputBack: break
        }
        try check(afterEvent: true)
        oracle.runBoundary()
    }

    /// The person asks for a session from the host. With the network up, the host honest and the card
    /// writable, it is on the box once the transfer is over (loopback: within the turns that follow).
    private func download(_ session: String) throws(Oracle.Violation) {
        guard let host = box.host, let id = try? ContentID(validating: session) else { return }
        let fair = host.up && !host.lying && !box.cardFull && !box.cardReadOnly && !oracle.cardTroubleThisLife
        let answer = box.request(.downloads(.start(id)))
        box.settleNetwork()
        host.forgetLies()
        try checkDownloads()
        if verbose { say("  \(answerText(answer)); then: \(downloadState(session))") }
        guard fair, case .success = answer else { return }
        if !oracle.downloads.mayPlay(session) {
            throw Oracle.Violation(invariant: "a download asked for with the network up and the host honest ends on the box",
                                   detail: "\(session) is \(downloadState(session))")
        }
    }

    private func downloadState(_ session: String) -> String {
        guard case .success(.downloads(let report)) = box.request(.downloads(.list)),
              let download = report.downloads.first(where: { $0.session == session }) else { return "not listed" }
        return "\(download.state.rawValue): \(download.summary)"
    }

    private func answerText(_ answer: Result<ControlReply, ControlError>) -> String {
        switch answer {
        case .success: "accepted"
        case .failure(let error): "refused: \(error)"
        }
    }

    private func deleteLatestRun() throws(Oracle.Violation) {
        guard case .success(.recentRuns(let recent)) = box.request(.history(.recent)),
              let latest = recent.runs.first, let id = latest.run else { return }
        guard let row = Self.rows(exportCSV()).first(where: { $0.first == String(id) }), row.count >= 12 else { return }
        guard case .success = box.request(.history(.deleteRun(Int(id)))) else { return }
        if let start = Int64(row[6]) { oracle.wiped.deleted([(row[1], start)]) }
        oracle.deleted(run: .init(id: row[0], start: row[6], session: row[1]), seconds: Double(row[8]) ?? 0,
                       completed: row[11] == "true", timer: row[1].hasPrefix("timer:"))
    }

    /// The export's rows, split into fields (no field the box writes holds a comma or a line end).
    private static func rows(_ csv: String) -> [[String]] {
        csv.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" })
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    func world(_ event: LifeEvent) throws(Oracle.Violation) {
        switch event {
        case .cardFull, .cardEmptied:
            try check(afterEvent: false) // what was heard while the card was as it was
            if event == .cardFull { box.fillCard() } else { box.emptyCard() }
            oracle.cardChanged(unwritable: box.cardFull || box.cardReadOnly)
        case .kill, .cut, .crash, .restart, .zoneChange, .staleBoot, .cardReadOnly, .cardWritable:
            let killed = event.isKill
            if case .cut(let effects) = event, box.running { try cut(afterEffects: effects) }
            if case .crash(let writes, let loss) = event, box.running { try crash(afterWrites: writes, loss: loss) }
            let before = lastStatus
            let cardTroubleBefore = oracle.cardTroubleThisLife
            if box.running {
                try check(afterEvent: false) // what was heard up to this instant
                if killed {
                    box.kill()
                    kills += 1
                    _ = box.newLogLines() // what the doomed daemon said after the instant of the kill: never said
                } else {
                    box.stop()
                    restarts += 1
                    try readLog(playedThroughout: false) // judged as this life's, card trouble and all
                }
                let underWay = [.playing, .paused, .loading].contains(before?.state) // a run the kill may cut
                oracle.runBoundary(killed: killed && underWay, slack: cutSlack)
                oracle.lifeEnded()
            }
            // A reboot (a power cut, a stale boot, a card's power cycle, the update's own) empties /run and
            // stops the agent; a kill or a restart of the daemon alone leaves them be.
            var bootTakes: Int64 = killed ? 25 : 8
            if rebootingIntoUpdate || !(event == .kill || event == .restart) {
                let boot = box.updates.boot()
                bootTakes += boot.extraSeconds
                if boot.updateReboot && box.updates.rolledBackResult != nil && boot.extraSeconds > 0 {
                    updatePromises.rollbackOwed = true
                    updatePromises.rollbackDismissed = nil
                }
            }
            // A card turns read-only under a running box only on a real card (ext4's errors=remount-ro; a
            // tmpfs with files open for writing refuses): here the box is power-cycled and the card comes
            // up read-only, or writable again, as the kernel mounted it at boot.
            if event == .cardReadOnly || event == .cardWritable {
                box.setCardReadOnly(event == .cardReadOnly)
                oracle.cardChanged(unwritable: box.cardFull || box.cardReadOnly)
            }
            if case .zoneChange(let zone) = event {
                box.timeZone = zone
                rules = (try? Self.rules(for: zone)) ?? rules
            }
            do {
                try box.advance(by: .seconds(bootTakes)) // the box boots again
                if case .staleBoot(let behind) = event {
                    try box.setWall(box.clock.wallNow.addingTimeInterval(-Double(behind)))
                    box.clockSynchronized = false
                    staleBy = behind
                    staleClockSetByHand = false
                }
                speakerGoneThisLife = box.speakerGone
                try box.start()
                updatePromises.lifeStarted(at: lifeNow)
                firstRunIDThisLife = (runsByID().keys.compactMap { Int64($0) }.max() ?? 0) + 1
            } catch {
                throw Oracle.Violation(invariant: "the box starts again", detail: "\(error)")
            }
            try check(afterEvent: false)
            try checkResumeOffer(before: before, cardTroubleBefore: cardTroubleBefore)
            cutSlack = 0
            try dailyChecks()
        case .networkDown:
            box.networkDown()
        case .networkUp:
            do { try box.networkUp() } catch { throw Oracle.Violation(invariant: "the host comes back", detail: "\(error)") }
        case .hostFault(let fault):
            box.host?.lie(fault)
        case .outputGone:
            if !box.speakerGone { speakerOutages += 1 }
            box.takeSpeakerAway()
            speakerGoneThisLife = true
            speakerBackAt = nil
        case .outputBack:
            if box.speakerGone { speakerBackAt = lifeNow }
            box.giveSpeakerBack()
        case .clockJump(let seconds):
            // The jump that undoes a stale boot is the sync: the kernel says the clock is synchronised again.
            // One before it (a person setting the clock) leaves the true times of the runs unknown here.
            let sync = staleBy == seconds
            if !sync && staleBy != nil { staleClockSetByHand = true }
            let before = sync && box.running ? runsByID() : [:]
            if sync {
                box.clockSynchronized = true
                staleBy = nil
            }
            do { try box.setWall(box.clock.wallNow.addingTimeInterval(Double(seconds))) } catch {
                throw Oracle.Violation(invariant: "the loop runs", detail: "\(error)")
            }
            if let status = box.status() { lastStatus = status }
            if sync && box.running {
                try checkRedated(before, by: Int64(seconds) * 1000)
                staleClockSetByHand = false
            }
        default: break
        }
    }

    /// Every run in the history, by id (the export's fields).
    private func runsByID() -> [String: [String]] {
        Self.rows(exportCSV()).dropFirst().reduce(into: [:]) { runs, row in
            if row.count >= 12 { runs[row[0]] = row }
        }
    }

    /// At the sync: each run this life of the daemon saved on the stale clock is dated again, by the sync's
    /// jump (to the second: the box dates it from its monotonic start), and trusted. Runs of earlier boots
    /// keep their dates (their monotonic start is gone with the boot); a clock set by hand before the sync
    /// leaves nothing to judge. Whatever was dated again, the oracle follows its runs under their new start.
    private func checkRedated(_ before: [String: [String]], by jump: Int64) throws(Oracle.Violation) {
        let after = runsByID()
        for (id, old) in before {
            guard let new = after[id], old[6] != new[6] else { continue }
            oracle.redated(Oracle.RunKey(id: id, start: old[6], session: old[1]), to: Oracle.RunKey(id: id, start: new[6], session: new[1]))
        }
        guard !oracle.cardTroubleThisLife, !staleClockSetByHand else { return }
        for (id, old) in before where old[7] == "false" && (Int64(id) ?? 0) >= firstRunIDThisLife {
            guard let new = after[id], let was = Int64(old[6]), let now = Int64(new[6]) else { continue } // deleted
            if new[7] != "true" || abs(now - (was + jump)) > 1000 {
                throw Oracle.Violation(invariant: "a run heard on a stale clock is dated again once it is synchronised",
                                       detail: "run \(id) of \(new[1]): started \(was) on the stale clock, \(now) after a sync of \(jump / 1000) s, trusted \(new[7])")
            }
            runsRedated += 1
        }
    }

    /// The power is cut after the box's `effects`-th effect from now: time moves in small steps (up to a
    /// minute) until it has performed that many, the card is kept as it was right after it, and the kill
    /// that follows puts that back. The box runs on meanwhile, like a process whose power is going: what it
    /// writes after the cut is thrown away with the rest.
    private func cut(afterEffects effects: Int) throws(Oracle.Violation) {
        try check(afterEvent: false)
        box.cutPower(afterEffects: effects)
        try advanceUntilThePowerGoes { box.powerCut }
        if box.powerCut { cuts += 1 }
        try check(afterEvent: false) // what was heard up to the cut, within a step
    }

    /// Time in steps of `Self.cutStep`, up to a minute, until `gone`; the place and the practice a cut may
    /// cost are then those of a kill and one step more (`cutSlack`).
    private func advanceUntilThePowerGoes(_ gone: () -> Bool) throws(Oracle.Violation) {
        for _ in 0..<600 where !gone() {
            do { try box.advance(by: Self.cutStep) } catch { throw Oracle.Violation(invariant: "the loop runs", detail: "\(error)") }
        }
        cutSlack = gone() ? Self.cutStep.seconds + 0.1 : 0 // the step, and a period of the speaker's reports
    }

    static let cutStep: Duration = .milliseconds(100)

    /// The power is cut inside SQLite's writes (the crash VFS): time moves in small steps (up to a minute)
    /// until SQLite has made `writes` more; what it had not synced then is lost or torn, and the
    /// card holds what it held. What the box logs from the minute's start is the doomed box's (its writes
    /// fail from the cut on): not judged.
    private func crash(afterWrites writes: Int, loss: Int) throws(Oracle.Violation) {
        try check(afterEvent: false)
        DiskCache.cutPower(afterWrites: writes, loss: loss)
        try advanceUntilThePowerGoes { DiskCache.powerCut }
        if DiskCache.powerCut {
            crashes += 1
            _ = box.newLogLines()
        }
        try check(afterEvent: false) // what was heard up to the cut, within a step
    }

    /// After a restart: the place kept is never ahead of what the status said was heard before, and at
    /// most a checkpoint's 10 s behind it; the offer to go on is 5 s before it (PlayerMachine's rewind, so
    /// the person hears where they were), as docs/acceptance.md step 5 has it. On a card that could not be
    /// written in that life a place is kept when it can be, so a cut may cost more (docs/reliability.md, "A
    /// full card": checkpoints are logged errors, playback goes on).
    private func checkResumeOffer(before: StatusReport?, cardTroubleBefore: Bool) throws(Oracle.Violation) {
        guard let offer = lastStatus?.resumeOffer, let kept = lastStatus?.lastCheckpoint, let before,
              before.session == offer.session, before.state == .playing || before.state == .paused else { return }
        let heard = before.position
        // On a card that could not be written in that life, the place kept may be one saved in an earlier
        // sitting of the same session (the new one could not be kept): never beyond what was ever heard.
        if cardTroubleBefore {
            let furthest = oracle.furthestPosition[offer.session] ?? 0
            if kept.position > furthest + 0.001 {
                throw Oracle.Violation(invariant: "the place kept is never ahead of what was heard",
                                       detail: "kept \(kept.position) s of \(offer.session), never heard beyond \(furthest) s")
            }
            return
        }
        // A sitting the speaker's going stopped before its first checkpoint leaves the earlier sitting's place
        // (nothing new was heard to keep): that one is never beyond what was ever heard.
        let speakerStoppedIt = before.live?.pauseReason == .outputLost
        let ahead = speakerStoppedIt ? oracle.furthestPosition[offer.session] ?? 0 : heard
        if kept.position > ahead + 0.001 {
            throw Oracle.Violation(invariant: "the place kept is never ahead of what was heard",
                                   detail: "kept \(kept.position) s of \(offer.session), heard to \(heard) s"
                                       + (speakerStoppedIt ? ", never beyond \(ahead) s" : ""))
        }
        if heard - kept.position > 10.001 + cutSlack {
            throw Oracle.Violation(invariant: "the place kept is at most 10 s behind what was heard",
                                   detail: "kept \(kept.position) s of \(offer.session), heard to \(heard) s")
        }
        if abs(offer.position - max(0, kept.position - 5)) > 0.001 { // the promise, not the product's constant
            throw Oracle.Violation(invariant: "the offer is 5 s before the place kept",
                                   detail: "offered \(offer.position) s, kept \(kept.position) s")
        }
    }
}
