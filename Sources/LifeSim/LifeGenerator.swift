import StillroomCore

/// A life from a seed: a person, random but plausible (sittings morning and evening, a seek here, the
/// headphones out there, a reminder set and moved, a breathing timer, settings changed — some to absurd
/// values — history deleted now and then, asleep at night), and a world, random and hostile (kill -9 at
/// any moment, often mid-session; restarts; the clock jumping either way; a move to another time zone).
/// Seconds are from the life's start at local midnight; the clock and the zone drift from that as the
/// world moves them, which the person does not notice.
struct LifeGenerator {
    static let sessions = ["sweep", "long"]
    static let zones = ["Europe/London", "America/New_York", "Australia/Adelaide", "Asia/Kolkata", "Europe/Berlin"]

    private var random: SplitMix64
    /// The network's part of a life (the host, downloads, outages, lies) draws from a stream of its own,
    /// so the rest of a seed's life is the one it was before downloads came into the simulation (and the
    /// broken rules are still caught where docs/reliability.md says).
    private var network: SplitMix64
    /// Which kills are cuts between two of the box's effects, and after how many: a stream of its own too,
    /// so every kill lands when it did before cuts came in, and nothing else in a life moves.
    private var cuts: SplitMix64
    /// When the speaker goes and comes back: its own stream as well.
    private var output: SplitMix64
    /// When the person installs a system update, and what becomes of it: its own stream too.
    private var updates: SplitMix64
    /// Half the boxes have a content host to download from.
    private var hasHost = false
    private var entries: [Schedule.Entry] = []
    /// The reminder as the person last set it.
    private var reminderMinute: Int?
    static let london = try? Life.rules(for: "Europe/London")

    init(seed: UInt64) {
        // Seeds next to each other must not give lives one draw apart: SplitMix64's state moves by a fixed
        // step, so the seed is mixed once before it becomes the state.
        var mixer = SplitMix64(seed: seed)
        random = SplitMix64(seed: mixer.next())
        network = SplitMix64(seed: mixer.next())
        cuts = SplitMix64(seed: mixer.next())
        output = SplitMix64(seed: mixer.next())
        updates = SplitMix64(seed: mixer.next())
    }

    static func life(seed: UInt64, days: Int) -> Schedule {
        var generator = LifeGenerator(seed: seed)
        for day in 0..<days {
            generator.day(day)
            generator.networkDay(day)
        }
        generator.makeCuts()
        generator.takeTheSpeakerAway(days: days)
        generator.installUpdates(days: days)
        return Schedule(entries: generator.entries)
    }

    private mutating func chance(_ p: Double) -> Bool { Double(random.next() >> 11) / Double(1 << 53) < p }
    private mutating func between(_ low: Int, _ high: Int) -> Int { low + Int(random.next() % UInt64(high - low + 1)) }
    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

    private mutating func add(_ at: Int, _ event: LifeEvent) { entries.append(.init(at: Int64(at), event: event)) }

    private mutating func day(_ day: Int) {
        let midnight = day * 86_400
        // One person in three listens to the box's voice from the first day (spoken labels), so its
        // notices are said, and heard by the oracle, in a good share of lives.
        if day == 0 && chance(0.35) { add(midnight + 6 * 3600, .setting(key: "spoken-labels", value: "on")) }
        if day == 0 || chance(0.01) {
            if chance(day == 0 ? 0.8 : 0.7) {
                let minute = between(9 * 60, 20 * 60 + 30)
                add(midnight + between(7 * 3600, 22 * 3600), .reminderAt(minuteOfDay: minute))
                reminderMinute = minute
            } else {
                add(midnight + between(7 * 3600, 22 * 3600), .reminderOff)
                reminderMinute = nil
            }
        }
        // Now and then a session is under way when the reminder comes due: it must wait for the end. (The
        // person's day is in London's local time: an hour later than the life's seconds in summer.)
        if let minute = reminderMinute, chance(0.06) {
            let summer = Self.london?.isDaylightSaving(at: Int64(Life.wallStart.timeIntervalSince1970) + Int64(midnight) + 43_200) ?? false
            sitting(at: midnight + minute * 60 - (summer ? 3600 : 0) - between(10, 90), session: "long", quiet: true)
        }
        if chance(0.6) { sitting(at: midnight + between(7 * 3600, 9 * 3600)) }
        if chance(0.5) { sitting(at: midnight + between(12 * 3600 + 1800, 14 * 3600)) }
        if chance(0.6) { sitting(at: midnight + between(19 * 3600, 22 * 3600 + 1800)) }
        if chance(0.15) {
            let at = midnight + between(10 * 3600, 18 * 3600)
            add(at, .timerStart(minutes: between(1, 3)))
            if chance(0.3) { add(at + between(5, 100), .timerStop) }
        }
        if chance(0.05) { add(midnight + between(8 * 3600, 22 * 3600), .volume(pick([0, 10, 35, 60, 80, 100]))) }
        if chance(0.04) { setting(at: midnight + between(8 * 3600, 22 * 3600)) }
        if chance(0.03) { add(midnight + between(8 * 3600, 22 * 3600), .favourite(session: pick(Self.sessions), chance(0.7))) }
        if chance(0.1) { add(midnight + between(8 * 3600, 23 * 3600), .dismissNotices) }
        if chance(0.004) { add(midnight + between(8 * 3600, 22 * 3600), .deleteLatestRun) }
        if chance(0.0015) { add(midnight + between(8 * 3600, 22 * 3600), .deleteAllHistory) }
        // The world.
        if chance(0.04) { add(midnight + between(0, 86_399), .kill) }
        if chance(0.02) { add(midnight + between(0, 86_399), .restart) }
        if chance(0.006) {
            let jump = between(60, 3 * 3600) * (chance(0.5) ? 1 : -1)
            add(midnight + between(0, 86_399), .clockJump(seconds: jump))
        }
        if chance(0.002) { add(midnight + between(10 * 3600, 18 * 3600), .zoneChange(pick(Self.zones))) }
        if chance(0.01) {
            let at = midnight + between(0, 86_399), behind = between(600, 5 * 86_400)
            add(at, .staleBoot(secondsBehind: behind))
            add(at + between(30, 36 * 3600), .clockJump(seconds: behind)) // the sync: at once, or once the Wi-Fi is back
        }
        if chance(0.01) {
            let at = midnight + between(0, 86_399)
            add(at, .cardFull)
            add(at + between(3600, 3 * 86_400), .cardEmptied)
        }
        if chance(0.005) {
            let at = midnight + between(0, 86_399)
            add(at, .cardReadOnly)
            add(at + between(600, 2 * 86_400), .cardWritable)
        }
    }

    /// Half the kills become cuts between two effects, after the first to the fourth from their instant; a
    /// quarter, cuts inside SQLite's writes (after the first to the twelfth), losing or tearing what it had
    /// not synced.
    private mutating func makeCuts() {
        swap(&random, &cuts)
        defer { swap(&random, &cuts) }
        for index in entries.indices where entries[index].event == .kill {
            if chance(0.5) {
                entries[index].event = .cut(afterEffects: between(1, 4))
            } else if chance(0.5) {
                entries[index].event = .crash(afterWrites: between(1, 12), loss: between(0, 2))
            }
        }
    }

    /// When each sitting so far begins (its `play`).
    private var sittingStarts: [Int64] {
        entries.compactMap { entry in
            if case .play = entry.event { return entry.at }
            return nil
        }
    }

    /// The speaker goes now and then: pulled out in one sitting in thirty (a few seconds to half an hour),
    /// and about monthly at any time of the day for a minute to six hours.
    private mutating func takeTheSpeakerAway(days: Int) {
        swap(&random, &output)
        defer { swap(&random, &output) }
        let sittings = sittingStarts
        for start in sittings where chance(1.0 / 30) {
            let gone = Int(start) + between(5, 100)
            add(gone, .outputGone)
            add(gone + between(10, 1800), .outputBack)
        }
        for day in 0..<days where chance(1.0 / 30) {
            let gone = day * 86_400 + between(0, 86_399)
            add(gone, .outputGone)
            add(gone + between(60, 6 * 3600), .outputBack)
        }
    }

    /// About monthly the person installs a system update from a stick, now and then while a session
    /// plays (refused: it waits for nothing to play). Most are committed; some versions do not start well and
    /// the box goes back; some bundles are refused; now and then the agent never answers, or stops midway.
    private mutating func installUpdates(days: Int) {
        swap(&random, &updates)
        defer { swap(&random, &updates) }
        let sittings = sittingStarts
        for day in 0..<days where chance(1.0 / 30) {
            let roll = Double(random.next() >> 11) / Double(1 << 53)
            let outcome: UpdateAgent.Outcome = roll < 0.45 ? .committed : roll < 0.65 ? .rolledBack : roll < 0.8 ? .refused
                : roll < 0.9 ? .unanswered : .silentMidway
            let midnight = Int64(day) * 86_400
            let duringASitting = chance(0.3) ? sittings.first { $0 >= midnight && $0 < midnight + 86_400 } : nil
            let at = duringASitting.map { Int($0) + between(3, 15) } ?? Int(midnight) + between(9 * 3600, 21 * 3600)
            add(at, .update(outcome))
            // Or sits down to listen while it installs (PLAY waits for the update).
            if duringASitting == nil && chance(0.4) { add(at + between(20, 200), .play(session: pick(Self.sessions))) }
        }
    }

    /// The content host and the network: the person downloads now and then, removes a download, plays
    /// what was downloaded; the network goes for minutes or days; the host lies once in a while.
    private mutating func networkDay(_ day: Int) {
        swap(&random, &network) // the draws below are the network's stream
        defer { swap(&random, &network) }
        if day == 0 { hasHost = chance(0.5) }
        guard hasHost else { return }
        let midnight = day * 86_400
        if day == 0 || chance(0.03) { add(midnight + between(9 * 3600, 21 * 3600), .download(session: pick(LifeHost.sessions))) }
        if chance(0.01) { add(midnight + between(9 * 3600, 21 * 3600), .removeDownload(session: pick(LifeHost.sessions))) }
        if chance(0.1) { sitting(at: midnight + between(15 * 3600, 18 * 3600), session: pick(LifeHost.sessions)) }
        if chance(0.04) {
            let at = midnight + between(0, 86_399)
            add(at, .networkDown)
            add(at + between(600, 3 * 86_400), .networkUp)
        }
        if chance(0.03) {
            let at = midnight + between(9 * 3600, 21 * 3600)
            let fault = pick(HostFault.allCases)
            add(at, .hostFault(fault))
            if chance(0.7) { // the person fetches a session again: the lie meets a transfer
                let session = pick(LifeHost.sessions), later = at + between(60, 3600)
                add(later, .removeDownload(session: session))
                add(later + 30, .download(session: session))
                if fault == .slow && chance(0.6) { interruptTransfer(at: later + 30 + between(20, 440)) }
            }
        }
    }

    /// The world, while a slow transfer is under way: a kill, a power cut, a restart, or the network gone
    /// for a minute to two hours. (Its own kills land in eight minutes about once in two years.)
    private mutating func interruptTransfer(at moment: Int) {
        switch between(0, 3) {
        case 0: add(moment, .kill)
        case 1: add(moment, .cut(afterEffects: between(0, 3)))
        case 2: add(moment, .restart)
        default:
            add(moment, .networkDown)
            add(moment + between(60, 7200), .networkUp)
        }
    }

    /// The person sits down and plays something, and does what people do while it plays.
    /// `quiet`: the person just listens (no seeks, pauses or controls).
    private mutating func sitting(at start: Int, session chosen: String? = nil, quiet: Bool = false) {
        if quiet {
            add(start, .play(session: chosen))
            return
        }
        let session: String? = chosen ?? (chance(0.2) ? nil : pick(Self.sessions))
        if chance(0.1) { add(start - 5, .dismissResume) }
        add(start, .play(session: session))
        var at = start
        if chance(0.3) { at += between(3, 60); add(at, chance(0.5) ? .seekBy(Double(between(-30, 30))) : .seekTo(Double(between(0, 130)))) }
        if chance(0.2) {
            at += between(2, 40); add(at, .pause)
            at += between(5, chance(0.1) ? 3 * 3600 : 300); add(at, chance(0.5) ? .resume : .toggle)
        }
        if chance(0.15) {
            at += between(2, 60); add(at, .headphones) // out: the player pauses
            at += between(5, 120); add(at, .headphones) // back in
            if chance(0.7) { at += between(1, 10); add(at, .resume) }
        }
        if chance(0.25) { // the box's own controls: the knob, PLAY, BACK, now and then a chord
            for _ in 0..<between(1, 4) {
                at += between(1, 20)
                // The guide is a minute of speech: asked for now and then, not every week.
                let control: Control = chance(0.02) ? .guide : pick([.play, .play, .knobForward, .knobBack, .back, .enter, .favourite, .describer, .labels])
                add(at, .press(control))
            }
        }
        if chance(0.15) { at += between(3, 90); add(at, .stop) }
        if chance(0.12) { add(start + between(1, 130), .kill) }
    }

    private mutating func setting(at: Int) {
        let change: (String, String) = pick([
            ("night-starts", pick(["21:00", "22:30", "20:00", "25:00"])),
            ("night-ends", pick(["07:00", "06:30", "08:00"])),
            ("night-mode", pick(["auto", "off", "on"])),
            ("day-boundary", pick(["04:00", "00:00", "11:59", "12:00"])),
            ("text-size", pick(["standard", "large", "huge"])),
            ("spoken-labels", pick(["on", "off"])),
            ("speaker-cap", pick(["100", "70", "-1"])),
            ("dim-after", pick(["30", "5", "99999"])),
            ("volume", pick(["50", "999", "ten"])),
        ])
        add(at, .setting(key: change.0, value: change.1))
    }
}
