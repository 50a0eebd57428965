import StillroomCore
import Testing

@Suite struct SettingsTests {
    @Test func everyKeyRoundTripsThroughText() throws {
        let defaults = Settings()
        var copy = Settings()
        for key in Settings.keys { try copy.set(key, to: defaults.value(of: key)) }
        #expect(copy == defaults)
        #expect(Settings.keys.allSatisfy { Settings.explanations[$0] != nil })
    }

    @Test(arguments: [
        ("volume", "loud", "expected a whole number from 0 to 100, got \"loud\""),
        ("volume", "101", "expected a whole number from 0 to 100, got \"101\""),
        ("text-size", "huge", "expected regular, large, largest, got \"huge\""),
        ("reduce-motion", "maybe", "expected on or off, got \"maybe\""),
        ("day-boundary", "25:00", "expected a time as HH:MM (24-hour), got \"25:00\""),
        ("night-starts", "9pm", "expected a time as HH:MM (24-hour), got \"9pm\""),
        ("dark-after", "5", "expected a whole number from 10 to 7200, got \"5\""),
        ("timer-minutes", "0", "expected a whole number from 1 to 60, got \"0\""),
        ("timer-minutes", "61", "expected a whole number from 1 to 60, got \"61\""),
        ("timer-pattern", "4-7", "expected 4-4, 4-7-8, box, 4-6, got \"4-7\""),
    ])
    func aWrongValueSaysWhatTheKeyTakes(key: String, value: String, message: String) {
        var settings = Settings()
        #expect(throws: SettingError(message)) { try settings.set(key, to: value) }
        #expect(settings == Settings()) // nothing changed
    }

    @Test func anUnknownKeyListsTheKnownOnes() {
        var settings = Settings()
        #expect(throws: SettingError.self) { try settings.set("colour", to: "blue") }
    }

    @Test func aDamagedStoredValueFallsBackToItsDefaultAndIsReported() {
        let settings = Settings(stored: ["volume": "35", "night-cap": "very quiet", "unknown-old-key": "x"])
        #expect(settings.volume == 35)
        #expect(settings.nightCap == 40)
        #expect(settings.problems == ["setting night-cap: expected a whole number from 0 to 100, got \"very quiet\"; using 40"])
    }

    @Test func theBreathingTimersChoiceIsRememberedAndChecked() throws {
        var settings = Settings()
        #expect(settings.timerMinutes == 5 && settings.timerPattern == "4-6")
        try settings.set("timer-minutes", to: "12")
        try settings.set("timer-pattern", to: "BOX")
        #expect(settings.timerMinutes == 12 && settings.timerPattern == "box")
        #expect(settings.value(of: "timer-pattern") == "box")
        // Every pattern the timer offers is a value the setting takes.
        for (name, _) in BreathingTimer.patterns { try settings.set("timer-pattern", to: name) }
        let stored = Settings(stored: ["timer-minutes": "90", "timer-pattern": "square"])
        #expect(stored.timerMinutes == 5 && stored.timerPattern == "4-6")
        #expect(stored.problems.count == 2)
    }

    @Test func nightWindowAcrossMidnight() throws {
        var settings = Settings()
        #expect(settings.isNight(atMinuteOfDay: 23 * 60))
        #expect(settings.isNight(atMinuteOfDay: 6 * 60 + 59))
        #expect(!settings.isNight(atMinuteOfDay: 7 * 60))
        #expect(!settings.isNight(atMinuteOfDay: 12 * 60))
        try settings.set("night-mode", to: "on")
        #expect(settings.isNight(atMinuteOfDay: 12 * 60))
    }
}
