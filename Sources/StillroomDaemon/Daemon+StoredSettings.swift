import SQLiteStore
import StillroomCore

extension Daemon {
    /// Stored values this version refuses (a day boundary of 23:30 saved by an older version, a damaged
    /// value) were replaced by their defaults when the settings were read. Say so where the owner looks —
    /// a notice on the screen and in `stillroomctl status` — and store the replacement, so the saved value
    /// is the one the box uses and the notice is given once, not at every start.
    func replaceRefusedStoredSettings() {
        for problem in settings.storedProblems {
            let now = wallMilliseconds
            do {
                try store.transaction {
                    try store.addNotice(kind: .settingReplaced, message: problem.noticeMessage, now: now)
                    try store.setSetting(problem.key, to: problem.replacement, now: now)
                }
                logger.notice("setting \(problem.key): the stored \"\(problem.storedValue)\" was replaced by \(problem.replacement) and the owner told")
            } catch {
                // Nothing was written: the same problem is found, and reported, at the next start.
                logger.error("setting \(problem.key): could not store its replacement: \(error)")
            }
        }
    }
}
