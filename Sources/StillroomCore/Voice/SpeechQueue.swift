/// What the box says aloud, and when, as a pure machine: the daemon only synthesises what it is told to
/// say (`.say`) and reports how long that takes (`spoke`).
///
/// - A label waits `labelSettle` for a newer one: a quick spin of the knob speaks only where it stops.
/// - Speech held back (a notice that came while a recording played) is said a breath after what is being
///   said now, and after a label still settling; several held pieces are said as one.
/// - A transcript is read a line at a time, a breath between lines; a control stops it (the line being
///   said ends on its own).
/// - Saying something cuts off an older label (the mixer's job); the last `recentKept` things said are
///   kept word for word, for the status and the tests.
public struct SpeechQueue: Equatable, Sendable {
    /// How long a label waits for a newer one.
    public static let labelSettle: Duration = .milliseconds(180)
    /// The breath before speech that was held back.
    public static let breathBeforeHeld: Duration = .milliseconds(300)
    /// The breath between two lines read aloud.
    public static let breathBetweenLines: Duration = .milliseconds(400)
    public static let recentKept = 40

    /// The speech queue's timers (the box arms them as `BoxTimer.speech`).
    public enum Timer: Hashable, Sendable {
        case labelSettled
        case heldSpeech
        case nextLine
    }

    public enum Effect: Equatable, Sendable {
        /// Synthesise and play this now; answer with how long it lasts (`spoke`).
        case say(String)
        case arm(Timer, at: MonotonicInstant)
        case cancel(Timer)
    }

    /// A label waiting out its settle.
    public private(set) var pendingLabel: String?
    /// Speech held until what is said now has been said.
    public private(set) var held: [String] = []
    /// When what is being said now ends (as the daemon measured it).
    public private(set) var speakingUntil: MonotonicInstant?
    /// Transcript lines still to read aloud.
    public private(set) var linesToRead: [String] = []
    /// The line just given to say, whose length decides when the next one comes.
    private var lineBeingSaid = false
    /// How many things were said since start, and the last few of them.
    public private(set) var saidCount = 0
    public private(set) var recentlySaid: [String] = []

    public init() {}

    /// Whether a transcript is being read aloud (lines remain).
    public var isReadingAloud: Bool { !linesToRead.isEmpty }

    /// Whether anything is waiting to be said.
    public var isWaiting: Bool { pendingLabel != nil || !held.isEmpty }

    /// A label: said once no newer one comes within the settle.
    public mutating func label(_ text: String, now: MonotonicInstant) -> [Effect] {
        guard !text.isEmpty else { return [] }
        pendingLabel = text
        return [.arm(.labelSettled, at: now + Self.labelSettle)]
    }

    /// Speech to say once what is being said now has been said.
    public mutating func hold(_ text: String, now: MonotonicInstant) -> [Effect] {
        guard !text.isEmpty else { return [] }
        held.append(text)
        return armHeld(now: now)
    }

    /// Reads `lines` aloud from the first, replacing any reading under way.
    public mutating func read(_ lines: [String], now: MonotonicInstant) -> [Effect] {
        linesToRead = lines
        return nextLine(now: now)
    }

    /// A control was used: no more lines.
    public mutating func stopReading() -> [Effect] {
        guard isReadingAloud || lineBeingSaid else { return [] }
        linesToRead = []
        lineBeingSaid = false
        return [.cancel(.nextLine)]
    }

    public mutating func fired(_ timer: Timer, now: MonotonicInstant) -> [Effect] {
        switch timer {
        case .labelSettled:
            guard let label = pendingLabel else { return [] }
            pendingLabel = nil
            return say(label)
        case .heldSpeech:
            guard !held.isEmpty else { return [] }
            if pendingLabel != nil || (speakingUntil.map { $0 > now } ?? false) { return armHeld(now: now) }
            let text = held.joined(separator: " ")
            held = []
            return say(text)
        case .nextLine:
            return nextLine(now: now)
        }
    }

    /// What was said lasts `seconds` from `now` (0 when it could not be said).
    public mutating func spoke(seconds: Double, now: MonotonicInstant) -> [Effect] {
        let length = Duration.milliseconds(Int64((max(0, seconds) * 1000).rounded()))
        speakingUntil = now + length
        guard lineBeingSaid else { return [] }
        lineBeingSaid = false
        return [.arm(.nextLine, at: now + length + Self.breathBetweenLines)]
    }

    /// Something said outside the queue (the CLI's `say`, which answers whether it could be said): kept
    /// with the rest, and held speech waits for its end too.
    public mutating func saidOnRequest(_ text: String, seconds: Double, now: MonotonicInstant) {
        _ = say(text)
        speakingUntil = now + .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
    }

    private mutating func nextLine(now: MonotonicInstant) -> [Effect] {
        guard !linesToRead.isEmpty else { return [] }
        let line = linesToRead.removeFirst()
        lineBeingSaid = true
        return say(line)
    }

    private mutating func armHeld(now: MonotonicInstant) -> [Effect] {
        guard !held.isEmpty else { return [] }
        var at = max(now, speakingUntil ?? now)
        if pendingLabel != nil { at = max(at, now + Self.labelSettle) }
        return [.arm(.heldSpeech, at: at + Self.breathBeforeHeld)]
    }

    private mutating func say(_ text: String) -> [Effect] {
        saidCount += 1
        recentlySaid.append(text)
        if recentlySaid.count > Self.recentKept { recentlySaid.removeFirst(recentlySaid.count - Self.recentKept) }
        return [.say(text)]
    }
}
