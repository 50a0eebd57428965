import Devices
import StillroomCore

/// The problems that stand now, as live notices (LiveNotices: what is shown and how long a dismissal
/// lasts): the card (Daemon+Storage), the sound output, an update that failed (Daemon+Update), the Wi-Fi
/// (Daemon+Wifi), controls whose device is not there.
extension Daemon {
    /// In the order shown: the most urgent first.
    var standingProblems: [LiveNotices.Standing] {
        [storageProblemStanding, outputProblemStanding, controlsProblemStanding, updateFailureStanding, wifiProblemStanding]
            .compactMap { $0 }
    }

    /// A control's device missing (not yet there at start, or gone): a box whose buttons do not answer
    /// says why, and a device misnamed in the board file is seen, not silently waited on.
    private var controlsProblemStanding: LiveNotices.Standing? {
        let missing = missingControls
        guard !missing.isEmpty else { return nil }
        return LiveNotices.Standing(.controls, kind: .controlsMissing,
                                    message: "Not answering yet: " + missing.map(\.inWords).joined(separator: "; ") + ".")
    }

    var missingControls: [MissingControls] { inputs.backends.flatMap(\.missingControls) }

    /// No speaker or headphones answer, from the first frame if the output was missing at start-up: the
    /// library then tells the truth instead of offering a PLAY that cannot sound.
    private var outputProblemStanding: LiveNotices.Standing? {
        guard !player.outputAvailable else { return nil }
        return LiveNotices.Standing(.output, kind: .outputLost,
                                    message: "The sound output (\(engine.sink.name)) does not answer, so nothing can be heard yet. "
                                        + "The box keeps trying; PLAY tries again at once.")
    }

    /// The live notices shown now (before the stored ones).
    func liveNotices() -> [InterfaceModel.Notice] {
        box.liveNotices.shown(standingProblems)
    }

    /// Dismisses a live notice; false if `id` is not one shown now.
    func dismissLiveNotice(_ id: Int64) -> Bool {
        box.liveNotices.dismiss(id, standing: standingProblems)
    }
}
