import Testing
@testable import StillroomCore

/// What the library and a session's page say when the box has no network: a session listed only by the
/// kept copy of a manifest downloads "when online"; a downloaded one its source dropped still plays and
/// says it is no longer offered.
@Suite struct OfflineSessionTextTests {
    func model() -> InterfaceModel {
        var model = InterfaceSamples.model()
        model.sessions = model.sessions.map { session in
            var changed = session
            if session.id == "sounds-around-you" { changed.download?.offer = .remembered }
            if session.id == "slow-body-scan" { changed.download?.offer = .withdrawn }
            return changed
        }
        return model
    }

    func texts(_ stack: [Page]) -> [String] {
        let scene = InterfaceScene().scene(Interface(showing: stack), model: model(), size: PixelSize(width: 800, height: 480),
                                           now: InterfaceSamples.now)
        return scene.nodes.compactMap { node in
            if case .text(let run) = node.content { return run.text }
            return nil
        }
    }

    @Test func theLibrarySaysWhatNeedsTheNetworkAndWhatIsNoLongerOffered() {
        let sounds = model().sessions.first { $0.id == "sounds-around-you" }!
        let scan = model().sessions.first { $0.id == "slow-body-scan" }!
        #expect(InterfaceText.cardMeta(sounds) == "7 min \u{00B7} Focus \u{00B7} Download when online \u{00B7} 6.1 MB")
        #expect(InterfaceText.cardMeta(scan).contains("On this box \u{00B7} no longer offered"))
        #expect(InterfaceText.sessionLabel(sounds).contains("Download when online"))
    }

    @Test func aSessionsPageSaysItToo() {
        #expect(texts([Page(.detail(sessionID: "sounds-around-you"))]).contains("Downloads when the box is online"))
        #expect(texts([Page(.detail(sessionID: "slow-body-scan"))]).contains("No longer offered by its source; remove it when you like"))
        // A session still offered says neither.
        var current = model()
        current.sessions = current.sessions.map { var s = $0; s.download?.offer = .current; return s }
        let scene = InterfaceScene().scene(Interface(showing: [Page(.detail(sessionID: "slow-body-scan"))]), model: current,
                                           size: PixelSize(width: 800, height: 480), now: InterfaceSamples.now)
        for node in scene.nodes {
            if case .text(let run) = node.content { #expect(!run.text.contains("offered"), "\(run.text)") }
        }
    }
}
