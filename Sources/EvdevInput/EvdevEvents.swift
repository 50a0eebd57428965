import StillroomCore

/// One `struct input_event` as read from /dev/input/event*: time, type, code, value.
public struct RawInputEvent: Equatable, Sendable {
    public var seconds: Int64
    public var microseconds: Int64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(seconds: Int64, microseconds: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }

    /// The timestamp as a monotonic instant (the device's clock is set to CLOCK_MONOTONIC at open).
    public var instant: MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, microseconds)) * 1_000)
    }

    static let synchronization: UInt16 = 0x00
    static let report: UInt16 = 0 // SYN_REPORT
    static let dropped: UInt16 = 3 // SYN_DROPPED
}

/// Splits bytes read from an evdev descriptor into events. On 64-bit Linux a record is 24 bytes: a
/// `struct timeval` (two 64-bit words), then `__u16 type`, `__u16 code`, `__s32 value`, little-endian on
/// the Pi and x86. A partial record at the end is kept for the next read (the kernel never splits one,
/// but a short buffer could).
public struct EvdevRecordReader: Equatable, Sendable {
    public static let recordSize = 24
    private var pending: [UInt8] = []

    public init() {}

    public mutating func events(from bytes: some Collection<UInt8>) -> [RawInputEvent] {
        pending.append(contentsOf: bytes)
        var events: [RawInputEvent] = []
        var offset = 0
        while pending.count - offset >= Self.recordSize {
            func word(_ at: Int, _ size: Int) -> UInt64 {
                var value: UInt64 = 0
                for index in (0..<size).reversed() { value = value << 8 | UInt64(pending[offset + at + index]) }
                return value
            }
            events.append(RawInputEvent(seconds: Int64(bitPattern: word(0, 8)), microseconds: Int64(bitPattern: word(8, 8)),
                                        type: UInt16(word(16, 2)), code: UInt16(word(18, 2)),
                                        value: Int32(bitPattern: UInt32(word(20, 4)))))
            offset += Self.recordSize
        }
        pending.removeFirst(offset)
        return events
    }

    /// Encodes an event as the kernel would (for tests and fakes).
    public static func bytes(of event: RawInputEvent) -> [UInt8] {
        func little(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return little(UInt64(bitPattern: event.seconds), 8) + little(UInt64(bitPattern: event.microseconds), 8)
            + little(UInt64(event.type), 2) + little(UInt64(event.code), 2) + little(UInt64(UInt32(bitPattern: event.value)), 4)
    }
}

/// What one input device is read for: which keys are which buttons, which axis is the knob, which
/// switch is the headphone jack.
public struct EvdevDeviceRole: Equatable, Sendable {
    public var keys: [UInt16: Control] = [:]
    /// The knob's axis: EV_REL or EV_ABS and its code.
    public var axis: (type: UInt16, code: UInt16)?
    public var jackSwitch: UInt16?

    public init() {}

    public static func == (a: EvdevDeviceRole, b: EvdevDeviceRole) -> Bool {
        a.keys == b.keys && a.axis?.type == b.axis?.type && a.axis?.code == b.axis?.code && a.jackSwitch == b.jackSwitch
    }

    /// The (type, code) pairs the device must be able to send.
    public var needed: [(type: UInt16, code: UInt16)] {
        keys.keys.sorted().map { (EvdevNames.typeKey, $0) } + (axis.map { [$0] } ?? [])
            + (jackSwitch.map { [(EvdevNames.typeSwitch, $0)] } ?? [])
    }
}

/// What an evdev event means for the controls, before debouncing.
public enum EvdevReading: Equatable, Sendable {
    case button(Control, pressed: Bool, at: MonotonicInstant)
    case steps(Int, at: MonotonicInstant)
    case jack(connected: Bool, at: MonotonicInstant)
    /// Events were dropped (SYN_DROPPED): read the keys' and switches' state again (EVIOCGKEY, EVIOCGSW).
    case resynchronize
}

/// Interprets one device's events for its role, with the kernel's SYN_DROPPED rule: after a drop,
/// everything up to the next SYN_REPORT is stale and ignored, and the state must be read again.
/// Autorepeat (key value 2) is ignored: long presses and repeats are ours.
public struct EvdevInterpreter: Equatable, Sendable {
    public let role: EvdevDeviceRole
    private var dropping = false
    /// The last absolute position and the axis's range, for EV_ABS knobs (set at open).
    public var absolutePosition: Int32?
    public var absoluteRange: ClosedRange<Int32>?

    public init(role: EvdevDeviceRole) {
        self.role = role
    }

    public mutating func readings(for events: [RawInputEvent]) -> [EvdevReading] {
        var readings: [EvdevReading] = []
        for event in events {
            if event.type == RawInputEvent.synchronization {
                if event.code == RawInputEvent.dropped {
                    dropping = true
                } else if event.code == RawInputEvent.report && dropping {
                    dropping = false
                    readings.append(.resynchronize)
                }
                continue
            }
            guard !dropping else { continue }
            switch event.type {
            case EvdevNames.typeKey:
                guard let control = role.keys[event.code], event.value == 0 || event.value == 1 else { continue }
                readings.append(.button(control, pressed: event.value == 1, at: event.instant))
            case EvdevNames.typeRelative:
                guard let axis = role.axis, axis.type == event.type, axis.code == event.code, event.value != 0 else { continue }
                readings.append(.steps(Int(event.value), at: event.instant))
            case EvdevNames.typeAbsolute:
                guard let axis = role.axis, axis.type == event.type, axis.code == event.code else { continue }
                let steps = absoluteSteps(to: event.value)
                if steps != 0 { readings.append(.steps(steps, at: event.instant)) }
            case EvdevNames.typeSwitch:
                guard event.code == role.jackSwitch else { continue }
                readings.append(.jack(connected: event.value != 0, at: event.instant))
            default:
                continue
            }
        }
        return readings
    }

    /// Steps from the last absolute position to `value`, the short way round when the axis wraps
    /// (rotary-encoder's `rollover`: from the maximum back to the minimum is one step).
    private mutating func absoluteSteps(to value: Int32) -> Int {
        defer { absolutePosition = value }
        guard let last = absolutePosition else { return 0 }
        var delta = Int(value) - Int(last)
        if let range = absoluteRange {
            let span = Int(range.upperBound) - Int(range.lowerBound) + 1
            if span > 1 {
                if delta > span / 2 { delta -= span }
                if delta < -span / 2 { delta += span }
            }
        }
        return delta
    }
}

/// Matches a board file's `device` against an input device's name: `*` stands for any run of characters.
public enum EvdevDeviceMatch {
    public static func matches(_ pattern: String, name: String) -> Bool {
        let pattern = Array(pattern.unicodeScalars), name = Array(name.unicodeScalars)
        var p = 0, n = 0
        var star: Int?, resume = 0
        while n < name.count {
            if p < pattern.count && pattern[p] == "*" {
                star = p
                resume = n
                p += 1
            } else if p < pattern.count && pattern[p] == name[n] {
                p += 1
                n += 1
            } else if let star {
                p = star + 1
                resume += 1
                n = resume
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

/// Reads a bit from an EVIOCGBIT / EVIOCGKEY / EVIOCGSW bit array.
public func evdevBit(_ bits: [UInt8], _ index: Int) -> Bool {
    index / 8 < bits.count && bits[index / 8] & (1 << UInt8(index % 8)) != 0
}
