import ControlProtocol
import EventLoop
import FoundationEssentials
import MPG123Decoder
import SQLiteStore
import StillroomCore

/// The opt-in reminder: planned in local time on a wall-clock timer that notices clock jumps, deferred
/// while a session plays, silent (a glow and a card) whenever it may not sound.
extension Daemon {
    static let reminderFiredDayKey = "reminder.fired-day"

    /// The reminder as the owner chose it and the day it last fired, from the store.
    func restoreReminder() -> ReminderMachine {
        let preference = try? store.reminderPreference()
        let fired = (try? store.setting(Self.reminderFiredDayKey)).flatMap { $0 }.flatMap(CivilDate.init(parsing:))
        return ReminderMachine(preference: preference ?? nil, firedDay: fired)
    }

    func startReminder() {
        feed(.planReminder(timeZone.rules))
    }

    /// The silent cue: the screen lights (as a touch would, through the interface, which dims it again in
    /// its own time) so the card or the circle is seen without a sound.
    func glow() {
        feed(.glow)
    }

    var unixNow: Int64 { Int64(loop.wallNow.timeIntervalSince1970) }

    func perform(_ effects: [ReminderAction]) {
        for effect in effects {
            switch effect {
            case .chime:
                if playChime() {
                    logger.info("reminder: chime")
                } else {
                    logger.info("reminder: no chime on this box; a silent card instead")
                }
            case .glow:
                logger.info("reminder: a silent card (sound not allowed now)")
                _ = try? store.addNotice(kind: .reminder, message: "Time for your practice.", now: wallMilliseconds)
                modelSources.storeChanged = true
                refreshModel()
                glow()
            case .firedOn(let day):
                try? store.setSetting(Self.reminderFiredDayKey, to: day.description, now: wallMilliseconds)
            }
        }
    }

    private func playChime() -> Bool { playSound("chime") }

    /// A bundled sound (the chime, the tick), alone, at the voice's fixed low level; false when absent.
    func playSound(_ name: String) -> Bool {
        guard let (samples, rate) = decodeSound(name) else { return false }
        engine.speak(samples, rate: rate) // through the voice's channel: its level and the caps
        return true
    }

    /// A bundled sound (Content/sounds), decoded to mono samples, with its rate.
    func decodeSound(_ name: String) -> (samples: [Int16], rate: Int)? {
        guard let id = try? ContentID(validating: name), let sound = content.catalog.sound(withID: id) else { return nil }
        guard let decoder = try? MP3Decoder(path: content.path(of: sound.audio)) else { return nil }
        var samples: [Int16] = []
        var buffer = [Int16](repeating: 0, count: 8192 * 2)
        while case .frames(let count)? = try? buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) {
            samples += stride(from: 0, to: count * 2, by: 2).map { buffer[$0] } // one channel is enough
        }
        return (samples, decoder.sampleRate)
    }

    func reminderCommand(_ request: ControlCommand.ReminderRequest) -> Result<ControlReply, ControlError> {
        switch request {
        case .show:
            return .success(.reminder(reminderReport()))
        case .off:
            guard var preference = reminder.preference else { return .success(.reminder(reminderReport())) }
            preference.enabled = false
            preference.updatedAt = wallMilliseconds
            return saveReminder(preference)
        case .set(let choice):
            // What was left out keeps the stored choice.
            let stored = reminder.preference
            let quiet = choice.quiet ?? ControlCommand.QuietHours(startMinute: stored?.quietStartMinute ?? 0, endMinute: stored?.quietEndMinute ?? 0)
            return saveReminder(ReminderPreferenceRecord(enabled: true, minuteOfDay: choice.minuteOfDay, weekdays: choice.weekdays ?? .all,
                                                         style: choice.style ?? stored?.style ?? .chime,
                                                         quietStartMinute: quiet.startMinute, quietEndMinute: quiet.endMinute,
                                                         updatedAt: wallMilliseconds))
        }
    }

    private func saveReminder(_ preference: ReminderPreferenceRecord) -> Result<ControlReply, ControlError> {
        do {
            try store.setReminderPreference(preference)
        } catch {
            logger.error("reminder: not saved: \(error)")
            return .failure(ControlError(.failed, "the reminder was not saved: \(storageWords(error))"))
        }
        feed(.reminderChosen(preference))
        logger.info("reminder: \(preference.enabled ? "at \(Settings.clock(preference.minuteOfDay))" : "off")")
        return .success(.reminder(reminderReport()))
    }

    func reminderReport() -> ReminderReport {
        let next = reminder.due.map { due in
            let local = timeZone.rules.localDateTime(at: due)
            return "\(local.date) \(Settings.clock(local.hour * 60 + local.minute))"
        }
        return ReminderReport(reminder.preference, next: next, waiting: reminder.waiting, card: reminder.cardShowing)
    }
}
