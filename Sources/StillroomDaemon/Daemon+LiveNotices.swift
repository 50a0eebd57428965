import Devices
import StillroomCore

/// Notices that are not kept in the store but stand while a problem does: the card that cannot be
/// written (Daemon+Storage), the sound output that cannot be opened, controls whose device is not there.
/// Each has a negative id, so dismissing it (on the screen or with `stillroomctl dismiss`) never touches a
/// stored notice.
extension Daemon {
    static let outputNoticeID: Int64 = -2
    static let controlsNoticeID: Int64 = -5

    /// Shown while a control's device is missing (not yet there at start, or gone): a box whose buttons do
    /// not answer says why, and a device misnamed in the board file is seen, not silently waited on.
    var controlsNotice: InterfaceModel.Notice? {
        let missing = missingControls
        guard !missing.isEmpty, !controlsNoticeDismissed else { return nil }
        return InterfaceModel.Notice(id: Self.controlsNoticeID, kind: .controlsMissing,
                                     message: "Not answering yet: " + missing.map(\.inWords).joined(separator: "; ") + ".")
    }

    var missingControls: [MissingControls] { inputBackends.flatMap(\.missingControls) }

    /// Shown while no speaker or headphones answer, from the first frame if the output was missing at
    /// start-up: the library then tells the truth instead of offering a PLAY that cannot sound.
    var outputNotice: InterfaceModel.Notice? {
        guard !player.outputAvailable, !outputNoticeDismissed else { return nil }
        return InterfaceModel.Notice(id: Self.outputNoticeID, kind: .outputLost,
                                     message: "The sound output (\(engine.sink.name)) does not answer, so nothing can be heard yet. "
                                         + "The box keeps trying; PLAY tries again at once.")
    }

    /// The live notices first (they are the most urgent), then the stored ones.
    func liveNotices() -> [InterfaceModel.Notice] {
        [storageNotice, outputNotice, controlsNotice, updateFailureLiveNotice, wifiNotice].compactMap { $0 }
    }

    /// Dismisses a live notice; false if `id` is not one that stands now.
    func dismissLiveNotice(_ id: Int64) -> Bool {
        switch id {
        case Self.storageNoticeID where storageNotice != nil: storageNoticeDismissed = true // until the next start
        case Self.outputNoticeID where outputNotice != nil: outputNoticeDismissed = true // until the output is lost again
        case Self.controlsNoticeID where controlsNotice != nil: controlsNoticeDismissed = true // until a device goes again
        case Self.updateFailureNoticeID where updates.failureNotice != nil: updates.failureNotice = nil
        case Self.wifiNoticeID where wifiNotice != nil: wifi.noticeDismissed = true // until the next problem
        default: return false
        }
        return true
    }
}
