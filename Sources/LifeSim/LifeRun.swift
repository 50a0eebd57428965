import Glibc
import StillroomCore

/// One life, start to end, in a folder of its own: what it lived and how it ended.
struct LifeRun {
    var days: Int
    var summary: String
    var failure: Life.Failure?

    static func run(_ schedule: Schedule, days: Int, scratch: String, label: String, verbose: Bool = false) -> LifeRun {
        run(schedule, until: Int64(days) * 86_400, scratch: scratch, label: label, verbose: verbose)
    }

    /// Lives `schedule` until `end` (seconds from the life's start).
    static func run(_ schedule: Schedule, until end: Int64, scratch: String, label: String, verbose: Bool = false) -> LifeRun {
        let folder = scratch + "/box"
        Shell.run("rm -rf '\(folder)' && mkdir -p '\(folder)'")
        defer { Shell.run("rm -rf '\(folder)'") }
        let started = realSeconds()
        let life: Life
        do { life = try Life(schedule: schedule, folder: folder, content: scratch + "/content", verbose: verbose) } catch {
            return LifeRun(days: 0, summary: "\(label): the box did not start: \(error)",
                           failure: Life.Failure(violation: .init(invariant: "the box starts", detail: "\(error)"), at: 0, eventsDone: 0))
        }
        var failure: Life.Failure?
        do throws(Life.Failure) { try life.run(until: end) } catch { failure = error }
        let logTail = failure == nil ? [] : life.box.logTail(Int(getenv("LIFESIM_LOG_LINES").flatMap { atoi($0) } ?? 15))
        life.finish()
        let real = realSeconds() - started
        let lived = Int((failure?.at ?? end) / 86_400)
        let oracle = life.oracle
        let summary = "\(label): \(lived) days in \(NumberText.oneDecimal(real)) s, \(life.eventsDone) events (\(life.kills) kills, \(life.cuts) of them "
            + "cuts between effects and \(life.crashes) inside SQLite's writes, \(life.restarts) restarts), reminder fired \(oracle.reminderFires) times (\(oracle.remindersExpected) due moments checked), \(oracle.ear.announcements) notices said, "
            + "longest turn \(NumberText.oneDecimal(life.longestTurn.took.seconds * 1000)) ms (day \(life.longestTurn.day), \(life.longestTurn.after))"
            + (oracle.wiped.filesChecked > 0 ? ", deleted history checked gone from the files \(oracle.wiped.filesChecked) times" : "")
            + (life.box.host.map { host in
                ", \(oracle.downloads.arrived) downloads arrived (\(oracle.downloads.removals) removed, \(oracle.downloads.seenUnderWay) seen under way, \(host.outages) network outages, \(host.liesScripted) lies)"
            } ?? "")
            + ", the speaker gone \(life.speakerOutages) times, \(life.runsRedated) runs dated again at a sync"
            + ", \(life.box.updates.installsAsked) updates taken (\(life.box.updates.commits) committed, \(life.box.updates.rollbacks) rolled back, "
            + "\(life.updatePromises.failuresSaid) failures said; \(life.updatePromises.refusedWhilePlaying) refused while playing)"
            + (life.memoryWarm.flatMap { warm in life.memoryEnd.map { ", heap \(warm.heapKB) → \($0.heapKB) kB, resident \(warm.residentKB) → \($0.residentKB) kB" } } ?? "")
        let tail = logTail.isEmpty ? "" : "\n  the box's log, last lines:\n" + logTail.map { "    " + $0 }.joined(separator: "\n")
        return LifeRun(days: lived, summary: summary + tail, failure: failure)
    }
}

