import StillroomCore
import Testing

/// The live notices' one rule (LiveNotices.swift): a dismissal lasts until that problem goes or changes its
/// words; a stored notice's id is never taken for a live one.
@Suite struct LiveNoticesTests {
    let output = LiveNotices.Standing(.output, kind: .outputLost, message: "The sound output does not answer.")
    let wifi = LiveNotices.Standing(.wifi, kind: .wifiNotJoined, message: "The passphrase was refused.")

    @Test func aDismissedNoticeStaysHiddenWhileItsProblemStandsAsItIs() {
        var notices = LiveNotices()
        let before = notices.shown([output, wifi])
        #expect(before.map(\.id) == [-2, -4])
        let dismissed = notices.dismiss(-2, standing: [output, wifi])
        #expect(dismissed)
        let after = notices.shown([output, wifi])
        #expect(after.map(\.id) == [-4])
        let atTheNextRebuild = notices.shown([output, wifi])
        #expect(atTheNextRebuild.map(\.id) == [-4])
        let again = notices.dismiss(-2, standing: [output, wifi])
        #expect(!again, "already dismissed")
    }

    @Test func aProblemThatGoesAndComesBackIsShownAgain() {
        var notices = LiveNotices()
        _ = notices.dismiss(-2, standing: [output])
        let gone = notices.shown([])
        #expect(gone.isEmpty)
        let back = notices.shown([output])
        #expect(back.map(\.id) == [-2])
    }

    @Test func aProblemThatChangesItsWordsIsShownAgain() {
        var notices = LiveNotices()
        _ = notices.dismiss(-4, standing: [wifi])
        let other = LiveNotices.Standing(.wifi, kind: .wifiNotJoined, message: "The network is out of reach.")
        let shown = notices.shown([other])
        #expect(shown.map(\.message) == [other.message])
        // Back to the first words: a change came between, so it is shown.
        let back = notices.shown([wifi])
        #expect(back.map(\.message) == [wifi.message])
    }

    @Test func aStoredNoticesIdOrAProblemGoneIsNoLiveNotice() {
        var notices = LiveNotices()
        let stored = notices.dismiss(7, standing: [output])
        let gone = notices.dismiss(-4, standing: [output])
        #expect(!stored && !gone)
        let shown = notices.shown([output])
        #expect(shown.count == 1)
    }
}
