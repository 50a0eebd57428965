/// The shortest life that still breaks the same promise: the events after the failure go first, then
/// halves, quarters… of what is left (delta debugging), each candidate lived again from the start.
enum Shrinker {
    static func shrink(_ schedule: Schedule, days: Int, scratch: String, failing invariant: String) -> Schedule {
        var end = Int64(days) * 86_400
        var entries = schedule.entries
        if let failure = LifeRun.run(schedule, until: end, scratch: scratch, label: "shrinking").failure {
            entries = Array(entries.prefix(failure.eventsDone + 1))
            end = min(end, failure.at + 86_400) // a candidate fails by then or not at all, as far as this search goes
        }
        func fails(_ candidate: Schedule) -> Bool {
            LifeRun.run(candidate, until: end, scratch: scratch, label: "shrinking").failure?.violation.invariant == invariant
        }
        var chunk = max(1, entries.count / 2)
        var tries = 0
        while chunk >= 1 && tries < 200 {
            var removedAny = false
            var start = 0
            while start < entries.count && tries < 200 {
                var candidate = entries
                candidate.removeSubrange(start..<min(start + chunk, entries.count))
                tries += 1
                if fails(Schedule(entries: candidate)) {
                    entries = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        return Schedule(entries: entries)
    }
}
