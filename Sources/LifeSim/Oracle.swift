import ControlProtocol
import StillroomCore

/// What a person is owed, as a small model beside the box, checked after every step of its life. It knows
/// what the person did and what the world did; it reads the box only through what the box answers (the
/// status, the history export, the settings, the reminder) and what it logs.
struct Oracle {
    /// A broken promise: which one, and what was seen.
    struct Violation: Error, CustomStringConvertible {
        var invariant: String
        var detail: String
        var description: String { "\(invariant): \(detail)" }
    }

    /// A run of at least this long is kept, and a power cut costs at most this much of one: the promise
    /// (docs/practice.md, docs/playback-policy.md), written here, not read from the product it checks.
    static let shortestRunKept = 10.0
    /// systemd kills the daemon when its loop sends no WATCHDOG=1 for this long (WatchdogSec in
    /// board/systemd/stillroom.service): one turn of the loop taking so long would be a reboot of the player.
    static let watchdog: Duration = .seconds(10)

    // Practice: what was heard, across the box's lives, since the whole history was last deleted.
    private var heardInEarlierLives = 0.0
    private var heardThisLife = 0.0
    private var heardAtReset = 0.0
    private var deletedListening = 0.0
    /// What may rightly go unkept since the reset: runs that ended shorter than the minimum (10 s) are not
    /// kept; a run cut by a kill loses what was heard since its last save (at most 10 s).
    private var unkeptShortRuns = 0.0
    private var unkeptAtKills = 0.0
    /// Heard since the last boundary the oracle drew (an event touching playback, a new session, an end).
    private var runTally = 0.0
    private var runSession: String?
    /// Runs seen completed (id and start): never lost unless deleted.
    private var completedRuns: Set<RunKey> = []
    /// Runs deleted: never seen again.
    private var deletedRuns: Set<RunKey> = []

    /// The card is full or read-only: what is heard meanwhile may go unkept, and errors are expected.
    private(set) var cardUnwritable = false
    private var heardWhileUnwritable = 0.0
    /// The card was unwritable at some time in this life of the daemon (its errors may follow it).
    private(set) var cardTroubleThisLife = false

    /// What the box says of its notices: none twice.
    var ear = NoticeEar()
    /// What the box has downloaded: kept, and playing, until removed.
    var downloads = DownloadsKept()
    /// Deleted runs: wiped from the database files once the box says so.
    var wiped = WipedHistory()

    // Settings the box accepted: kept across every restart and kill.
    private(set) var settings: [String: String] = [:]

    /// The furthest place the status showed in each session, in any sitting.
    private(set) var furthestPosition: [String: Double] = [:]

    // Sound: it starts only when the person asked.
    private var lastState: PlayerState = .idle
    private var askedForSound = false

    // The reminder.
    private(set) var reminderMinute: Int?
    /// The local days it fired on (as the box's zone had them when it fired).
    /// The local days it fired on, and whether the box could keep that it did: on a card it could not
    /// write, only the daemon's memory knows, and a later life may rightly fire again that day.
    private var firedDays: [CivilDate: Fired] = [:]

    struct Fired {
        /// The life it fired in, when the card could not keep it; nil when kept.
        var unsavedInLife: Int?
    }
    /// Which life of the daemon this is (each kill or restart starts another).
    private var life = 0
    private(set) var reminderChosenAt: Int64 = 0
    var reminderFires = 0
    /// Due moments whose outcome was known and checked.
    var remindersExpected = 0

    struct RunKey: Hashable {
        var id: String
        var start: String
        var session: String
    }

    // MARK: The person's and the world's events

    mutating func personActed(_ event: LifeEvent) {
        switch event {
        // Not the headphones: plugged back in, the box stays as it was (PlayerMachine).
        case .play, .resume, .toggle: askedForSound = true
        case .press(let control) where control.mayStartSound: askedForSound = true
        default: break
        }
    }

    /// A run may end here. The oracle cannot see runs whole, so it draws a boundary after every event
    /// that touches playback, at every new session and at every end: a run may be split in pieces, and a
    /// piece under 10 s is allowed to go unkept (which only loosens the bound). A kill may cost 10 s of the
    /// run under way whatever the pieces (it is saved every 10 s; seed 46 was cut 8 s after its last save,
    /// in a piece of 5 s: the allowance was once that piece, which was wrong).
    mutating func runBoundary(killed: Bool = false, slack: Double = 0) {
        if killed {
            unkeptAtKills += Self.shortestRunKept + slack
        } else if runTally < Self.shortestRunKept {
            unkeptShortRuns += runTally
        }
        runTally = 0
    }

    /// The box's life ended (kill or stop) with `heard` seconds heard in it.
    mutating func cardChanged(unwritable: Bool) {
        cardUnwritable = unwritable
        if unwritable { cardTroubleThisLife = true }
    }

    mutating func lifeEnded() {
        life += 1
        cardTroubleThisLife = cardUnwritable
        heardInEarlierLives += heardThisLife
        heardThisLife = 0
        lastState = .idle
        askedForSound = false
        ear.lifeEnded()
    }

    // MARK: Checks

    /// After every step: what the status says.
    mutating func observe(_ status: StatusReport, afterEvent: Bool) throws(Violation) {
        if let live = status.live {
            let delta = max(0, live.observed.heardSeconds - heardThisLife)
            if cardUnwritable { heardWhileUnwritable += delta }
            if status.session != runSession { runBoundary() } // frames heard meanwhile may be either's: the new one's
            runSession = status.session
            runTally += delta
            if status.state == .ended || status.state == .idle { runBoundary() } // frames heard up to it were its
            heardThisLife = live.observed.heardSeconds
        }
        if status.position < 0 || status.position > status.duration + 0.001 {
            throw Violation(invariant: "position inside the recording", detail: "\(status.position) of \(status.duration)")
        }
        if let session = status.session, status.state == .playing || status.state == .paused {
            furthestPosition[session] = max(furthestPosition[session] ?? 0, status.position)
        }
        let nowPlaying = status.state == .playing || status.state == .loading
        let wasPlaying = lastState == .playing || lastState == .loading
        if nowPlaying && !wasPlaying && !(afterEvent && askedForSound) {
            throw Violation(invariant: "nothing plays by itself",
                            detail: "\(lastState.rawValue) → \(status.state.rawValue) with no request for sound")
        }
        lastState = status.state
        if afterEvent { askedForSound = false }
    }

    /// Now and then, and after every restart: the whole history against what was heard and deleted.
    mutating func checkHistory(csv: String) throws(Violation) {
        let rows = csv.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }).dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        var listening = 0.0
        var runs = 0
        var completedNow: Set<RunKey> = []
        for row in rows where row.count >= 12 {
            let key = RunKey(id: row[0], start: row[6], session: row[1])
            if deletedRuns.contains(key) {
                throw Violation(invariant: "deleted history never comes back", detail: "run \(row[0]) of \(row[1]) started \(row[6])")
            }
            if row[11] == "true" || row[11] == "1" { completedNow.insert(key) }
            if !row[1].hasPrefix("timer:") {
                listening += Double(row[8]) ?? 0
                runs += 1
            }
        }
        // Gone, or no longer completed: lost either way.
        if let lost = completedRuns.subtracting(completedNow).first {
            throw Violation(invariant: "a completed run is never lost", detail: "run \(lost.id) of \(lost.session) started \(lost.start)")
        }
        completedRuns = completedNow
        let heard = heardInEarlierLives + heardThisLife - heardAtReset - deletedListening
        let rounding = 0.001 * Double(runs) + 0.05
        if listening > heard + rounding {
            throw Violation(invariant: "practice counted never exceeds what was heard",
                            detail: String(format3(listening)) + " s kept, " + format3(heard) + " s heard")
        }
        // The run in progress may not be kept yet (under 10 s, or not saved since its last 10 s).
        let unkeptAtMost = unkeptShortRuns + unkeptAtKills + heardWhileUnwritable + min(runTally, Self.shortestRunKept)
        if listening < heard - unkeptAtMost - rounding {
            throw Violation(invariant: "practice counted is what was heard, less runs too short to keep",
                            detail: format3(listening) + " s kept, " + format3(heard) + " s heard, " + format3(unkeptAtMost) + " s of it rightly unkept")
        }
    }

    /// The box dated this run again (the clock synchronised): it is the same run under its new start.
    mutating func redated(_ old: RunKey, to new: RunKey) {
        if completedRuns.remove(old) != nil { completedRuns.insert(new) }
    }

    /// The person deleted this run (its seconds as `history recent` shows them, to the tenth).
    mutating func deleted(run: RunKey, seconds: Double, completed: Bool, timer: Bool) {
        deletedRuns.insert(run)
        completedRuns.remove(run)
        if !timer { deletedListening += seconds }
    }

    /// The person deleted the whole history: these were its runs.
    mutating func deletedAll(csv: String) {
        for row in csv.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }).dropFirst() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if fields.count >= 12 { deletedRuns.insert(RunKey(id: fields[0], start: fields[6], session: fields[1])) }
        }
        completedRuns = []
        heardAtReset = heardInEarlierLives + heardThisLife
        deletedListening = 0
        heardWhileUnwritable = 0
        unkeptShortRuns = 0
        unkeptAtKills = 0
        runTally = 0
    }

    /// A setting the box accepted.
    mutating func accepted(setting key: String, value: String) { settings[key] = value }

    /// The settings as the box lists them must hold every value it accepted.
    func checkSettings(_ report: SettingsReport) throws(Violation) {
        for (key, value) in settings {
            let shown = report.entries.first { $0.key == key }?.value
            if shown != value {
                throw Violation(invariant: "settings are kept", detail: "\(key) is \(shown ?? "missing"), was set to \(value)")
            }
        }
    }

    mutating func reminderChosen(_ minute: Int?, at lifeSecond: Int64) {
        reminderMinute = minute
        reminderChosenAt = lifeSecond
    }

    /// The reminder report while it is on: the next time is always shown (or it is waiting for a session).
    func checkReminder(_ report: ReminderReport) throws(Violation) {
        guard reminderMinute != nil else { return }
        if report.schedule == nil { throw Violation(invariant: "the reminder stays on", detail: "it was set, the box says off") }
        if report.next == nil && report.waiting != true {
            throw Violation(invariant: "the next reminder is always shown", detail: "no next time and not waiting")
        }
    }

    /// It fires once a local day: moved to later the same day after it fired, it waits for tomorrow. And a
    /// day on or before the latest it fired on is over, whatever the clock says (docs/routine.md: a box with
    /// no clock chip booted days behind does not go back to days it has lived; seeds 12 and 58, day 317,
    /// once a stale clock could last until a due moment): it is not owed either.
    func isOwed(_ day: CivilDate) -> Bool {
        guard let latest = firedDays.keys.max() else { return true }
        return day > latest
    }

    /// The reminder fired (a chime or a card) on this local day.
    mutating func reminderFired(on day: CivilDate) throws(Violation) {
        reminderFires += 1
        if let earlier = firedDays[day], earlier.unsavedInLife.map({ $0 == life }) ?? true {
            throw Violation(invariant: "the reminder fires at most once a day", detail: "twice on \(day)")
        }
        firedDays[day] = Fired(unsavedInLife: cardUnwritable ? life : nil)
    }
}

func format3(_ value: Double) -> String {
    let thousandths = Int64((value * 1000).rounded())
    let sign = thousandths < 0 ? "-" : ""
    let magnitude = abs(thousandths)
    let fraction = String(magnitude % 1000)
    return sign + String(magnitude / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
