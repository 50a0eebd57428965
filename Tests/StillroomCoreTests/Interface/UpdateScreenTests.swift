import StillroomCore
import Testing

/// While an update installs, its notice covers every screen and the controls start nothing: a press lights
/// the screen and says what is happening (docs/updates.md).
@Suite struct UpdateScreenTests {
    @Test func controlsStartNothingWhileAnUpdateInstalls() {
        var model = InterfaceSamples.model()
        model.systemUpdate = .installing(percent: 10, step: "Checking bundle")
        model.settings.spokenLabels = true // said to those who listen to the box; the screen says it to everyone
        let driver = InterfaceDriver(model: model)
        driver.mark()
        for control in [Control.play, .back, .knob] {
            driver.press(control)
            driver.advance(by: .milliseconds(300))
        }
        driver.turn(3)
        let started = driver.recent.filter {
            switch $0 {
            case .play, .toggle, .acceptResume, .seek, .stop, .startBreathingTimer, .deleteHistory, .changeSetting: return true
            default: return false
            }
        }
        #expect(started.isEmpty, "\(started)")
        #expect(driver.screen == .library, "the stack moved under the notice: \(driver.screen)")
        let spoken = driver.recent.compactMap { effect -> String? in
            if case .speak(let text) = effect { return text }
            if case .announce(let text) = effect { return text }
            return nil
        }
        #expect(spoken.contains { $0.contains("update") || $0.contains("Updating") }, "\(driver.recent)")
    }

    @Test func theNoticeCoversWhateverWasShowing() {
        var model = InterfaceSamples.model()
        model.systemUpdate = .restarting(version: "2027.01")
        let scene = InterfaceScene().scene(Interface(showing: [Page(.player)]), model: model,
                                           size: PixelSize(width: 800, height: 480), now: InterfaceSamples.now)
        let ids = scene.nodes.map(\.id.rawValue)
        #expect(ids.contains("update.heading"), "\(ids)")
        #expect(!ids.contains { $0.hasPrefix("player.") }, "\(ids)")
        model.systemUpdate = nil
        let after = InterfaceScene().scene(Interface(showing: [Page(.player)]), model: model,
                                           size: PixelSize(width: 800, height: 480), now: InterfaceSamples.now)
        #expect(!after.nodes.map(\.id.rawValue).contains("update.heading"))
    }
}
