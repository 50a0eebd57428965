/// Something the loop fires when its deadline passes.
protocol ScheduledTimer: AnyObject {
    /// The sequence number of the timer's current scheduling; nil when not scheduled.
    var scheduledSequence: UInt64? { get set }
    func fire()
}

/// Timers ordered by deadline, ties broken by the order in which they were scheduled.
struct TimerQueue<Deadline: Comparable> {
    private struct Entry {
        let deadline: Deadline
        let sequence: UInt64
        let timer: ScheduledTimer
    }

    private var entries: [Entry] = []
    private var nextSequence: UInt64 = 0

    var earliest: Deadline? { entries.first?.deadline }
    var count: Int { entries.count }

    /// Schedules (or re-schedules) `timer` for `deadline`.
    mutating func schedule(_ timer: ScheduledTimer, at deadline: Deadline) {
        remove(timer)
        nextSequence += 1
        let entry = Entry(deadline: deadline, sequence: nextSequence, timer: timer)
        // Few timers exist (one per kind), so a sorted array beats a heap in clarity and speed.
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert(entry, at: index)
        timer.scheduledSequence = nextSequence
    }

    mutating func remove(_ timer: ScheduledTimer) {
        guard timer.scheduledSequence != nil else { return }
        entries.removeAll { $0.timer === timer }
        timer.scheduledSequence = nil
    }

    /// Removes the timers due at `now` and fires them in order. A timer cancelled or re-scheduled by an
    /// earlier one's handler does not fire; one scheduled for the past by a handler fires next iteration.
    mutating func fireDue(at now: Deadline) -> [() -> Void] {
        let split = entries.firstIndex { $0.deadline > now } ?? entries.endIndex
        let due = entries[..<split]
        entries.removeSubrange(..<split)
        return due.map { entry in
            { [entry] in
                guard entry.timer.scheduledSequence == entry.sequence else { return }
                entry.timer.scheduledSequence = nil
                entry.timer.fire()
            }
        }
    }
}
