/// One thing that happens to the box in its life: something the person does, or something the world
/// does to it. A life is a list of them at seconds from the life's start (`Schedule`), made from a seed
/// before the box starts, so a life can be replayed exactly and shrunk by leaving events out.
enum LifeEvent: Equatable {
    // The person.
    case play(session: String?)
    case pause
    case resume
    case toggle
    case stop
    case seekBy(Double)
    case seekTo(Double)
    case volume(Int)
    case favourite(session: String, Bool)
    case setting(key: String, value: String)
    case reminderAt(minuteOfDay: Int)
    case reminderOff
    case timerStart(minutes: Int)
    case timerStop
    case deleteLatestRun
    case deleteAllHistory
    case dismissResume
    case dismissNotices
    /// The headphones in or out (the jack; `j` on the simulator's terminal).
    case headphones
    /// A control on the box itself, typed on the simulator's terminal (docs/controls.md).
    case press(Control)
    /// Fetch a session from the content host (`stillroomctl downloads start`, the downloads page).
    case download(session: String)
    /// Remove a downloaded session, confirmed.
    case removeDownload(session: String)
    /// Install a system update from a bundle on a stick (`stillroomctl update install … --yes`); what becomes
    /// of it is the world's (the update agent's `Outcome`).
    case update(UpdateAgent.Outcome)
    // The world.
    case kill
    /// The power cut between two of the box's effects: after the `afterEffects`-th it performs from this
    /// instant on (within a minute; at the minute's end if it does fewer), the card holds what the effects
    /// before it wrote, whatever the handler went on to do; then as a kill.
    case cut(afterEffects: Int)
    /// The power cut inside SQLite's writes: at the `afterWrites`-th write it makes from this instant (within
    /// a minute), what it had not synced is lost (`loss` 0), or torn (1: a prefix of it kept, 2: some of
    /// it), through the crash VFS; then as a kill.
    case crash(afterWrites: Int, loss: Int)
    case restart
    /// The wall clock jumps by this many seconds (a sync after a wrong RTC, a person setting it).
    case clockJump(seconds: Int)
    /// The box restarts in another time zone (moved house, or set by its owner).
    case zoneChange(String)
    /// The box restarts with its wall clock this many seconds behind (no RTC: the time saved at the last
    /// shutdown), until a later `clockJump` syncs it.
    case staleBoot(secondsBehind: Int)
    /// The card fills up (other files, a log gone wild) and is emptied again.
    case cardFull
    case cardEmptied
    /// The card comes up read-only at a power cycle (the kernel's answer to a failing card), and writable again.
    case cardReadOnly
    case cardWritable
    /// The home's network goes, and comes back (the content host cannot be reached meanwhile).
    case networkDown
    case networkUp
    /// The content host lies once to the next request for what the fault touches.
    case hostFault(HostFault)
    /// The speaker goes (a USB DAC pulled out, a driver gone), and comes back.
    case outputGone
    case outputBack

    /// The box dies with no word: a kill -9, or a power cut between two effects.
    var isKill: Bool {
        switch self {
        case .kill, .cut, .crash: true
        default: false
        }
    }

    /// Needs a content host in the box's world (a life without such events has no download source).
    var needsHost: Bool {
        switch self {
        case .download, .removeDownload, .networkDown, .networkUp, .hostFault: true
        case .play(let session): session.map(LifeHost.sessions.contains) ?? false
        default: false
        }
    }

    /// Done to the box from outside, not by its person.
    var isWorld: Bool {
        switch self {
        case .kill, .cut, .crash, .restart, .clockJump, .zoneChange, .staleBoot, .cardFull, .cardEmptied, .cardReadOnly, .cardWritable,
             .networkDown, .networkUp, .hostFault, .outputGone, .outputBack: true
        default: false
        }
    }
}

/// The box's controls as the simulator's terminal types them.
enum Control: String, CaseIterable {
    case play, back, enter, knobForward, knobBack, favourite, describer, guide, labels

    var keys: String {
        switch self {
        case .play: " "
        case .back: "\u{1B}"
        case .enter: "\r"
        case .knobForward: "\u{1B}[C"
        case .knobBack: "\u{1B}[D"
        case .favourite: "F"
        case .describer: "K"
        case .guide: "G"
        case .labels: "L"
        }
    }

    /// Held down (a chord, a long press): it acts when let go, up to 3.5 s later.
    var isHeld: Bool { [.favourite, .describer, .guide, .labels].contains(self) }

    /// PLAY, and Enter on a session, may start sound.
    var mayStartSound: Bool { self == .play || self == .enter }
}

extension LifeEvent: CustomStringConvertible {
    var description: String {
        switch self {
        case .play(let session): "play \(session ?? "-")"
        case .pause: "pause"
        case .resume: "resume"
        case .toggle: "toggle"
        case .stop: "stop"
        case .seekBy(let seconds): "seek-by \(seconds)"
        case .seekTo(let seconds): "seek-to \(seconds)"
        case .volume(let level): "volume \(level)"
        case .favourite(let session, let on): "favourite \(session) \(on ? "on" : "off")"
        case .setting(let key, let value): "setting \(key) \(value)"
        case .reminderAt(let minute): "reminder-at \(minute)"
        case .reminderOff: "reminder-off"
        case .timerStart(let minutes): "timer-start \(minutes)"
        case .timerStop: "timer-stop"
        case .deleteLatestRun: "delete-latest-run"
        case .deleteAllHistory: "delete-all-history"
        case .dismissResume: "dismiss-resume"
        case .dismissNotices: "dismiss-notices"
        case .headphones: "headphones"
        case .press(let control): "press \(control.rawValue)"
        case .download(let session): "download \(session)"
        case .removeDownload(let session): "remove-download \(session)"
        case .update(let outcome): "update \(outcome.rawValue)"
        case .kill: "kill"
        case .cut(let effects): "cut \(effects)"
        case .crash(let writes, let loss): "crash \(writes) \(loss)"
        case .restart: "restart"
        case .clockJump(let seconds): "clock-jump \(seconds)"
        case .zoneChange(let zone): "zone \(zone)"
        case .staleBoot(let behind): "stale-boot \(behind)"
        case .cardFull: "card-full"
        case .cardEmptied: "card-emptied"
        case .cardReadOnly: "card-read-only"
        case .cardWritable: "card-writable"
        case .networkDown: "network-down"
        case .networkUp: "network-up"
        case .hostFault(let fault): "host-fault \(fault.rawValue)"
        case .outputGone: "output-gone"
        case .outputBack: "output-back"
        }
    }

    /// Reads back what `description` wrote (a shrunk life saved to a file, replayed).
    init?(line: Substring) {
        let words = line.split(separator: " ").map(String.init)
        guard let name = words.first else { return nil }
        let rest = Array(words.dropFirst())
        func double(_ i: Int) -> Double? { rest.count > i ? Double(rest[i]) : nil }
        func int(_ i: Int) -> Int? { rest.count > i ? Int(rest[i]) : nil }
        switch name {
        case "play": self = .play(session: rest.first == "-" ? nil : rest.first)
        case "pause": self = .pause
        case "resume": self = .resume
        case "toggle": self = .toggle
        case "stop": self = .stop
        case "seek-by": guard let v = double(0) else { return nil }; self = .seekBy(v)
        case "seek-to": guard let v = double(0) else { return nil }; self = .seekTo(v)
        case "volume": guard let v = int(0) else { return nil }; self = .volume(v)
        case "favourite": guard rest.count == 2 else { return nil }; self = .favourite(session: rest[0], rest[1] == "on")
        case "setting": guard rest.count == 2 else { return nil }; self = .setting(key: rest[0], value: rest[1])
        case "reminder-at": guard let v = int(0) else { return nil }; self = .reminderAt(minuteOfDay: v)
        case "reminder-off": self = .reminderOff
        case "timer-start": guard let v = int(0) else { return nil }; self = .timerStart(minutes: v)
        case "timer-stop": self = .timerStop
        case "delete-latest-run": self = .deleteLatestRun
        case "delete-all-history": self = .deleteAllHistory
        case "dismiss-resume": self = .dismissResume
        case "dismiss-notices": self = .dismissNotices
        case "headphones": self = .headphones
        case "download": guard let session = rest.first else { return nil }; self = .download(session: session)
        case "remove-download": guard let session = rest.first else { return nil }; self = .removeDownload(session: session)
        case "update": guard let outcome = rest.first.flatMap(UpdateAgent.Outcome.init(rawValue:)) else { return nil }; self = .update(outcome)
        case "network-down": self = .networkDown
        case "network-up": self = .networkUp
        case "host-fault": guard let fault = rest.first.flatMap(HostFault.init(rawValue:)) else { return nil }; self = .hostFault(fault)
        case "press": guard let control = rest.first.flatMap(Control.init(rawValue:)) else { return nil }; self = .press(control)
        case "kill": self = .kill
        case "cut": guard let v = int(0), v > 0 else { return nil }; self = .cut(afterEffects: v)
        case "crash": guard let v = int(0), v > 0, let loss = int(1), (0...2).contains(loss) else { return nil }; self = .crash(afterWrites: v, loss: loss)
        case "restart": self = .restart
        case "clock-jump": guard let v = int(0) else { return nil }; self = .clockJump(seconds: v)
        case "zone": guard let zone = rest.first else { return nil }; self = .zoneChange(zone)
        case "stale-boot": guard let v = int(0) else { return nil }; self = .staleBoot(secondsBehind: v)
        case "card-full": self = .cardFull
        case "card-emptied": self = .cardEmptied
        case "card-read-only": self = .cardReadOnly
        case "card-writable": self = .cardWritable
        case "output-gone": self = .outputGone
        case "output-back": self = .outputBack
        default: return nil
        }
    }
}

/// A life's events in time order: `at` seconds after the life began, on the box's monotonic time.
struct Schedule {
    struct Entry: Equatable {
        var at: Int64
        var event: LifeEvent
    }

    var entries: [Entry]

    var text: String { entries.map { "\($0.at) \($0.event)" }.joined(separator: "\n") + "\n" }

    init(entries: [Entry]) { self.entries = entries.sorted { $0.at < $1.at } }

    init?(text: String) {
        var entries: [Entry] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            guard let space = line.firstIndex(of: " "), let at = Int64(line[..<space]),
                  let event = LifeEvent(line: line[line.index(after: space)...]) else { return nil }
            entries.append(Entry(at: at, event: event))
        }
        self.init(entries: entries)
    }
}
