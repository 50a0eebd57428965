import ControlProtocol
import DrivenDaemonSupport
import StillroomCore
import TestSupport
import Testing

/// The listener's tests on virtual time: the daemon in this process (`DrivenDaemon`) on the bundled
/// content with keys on its terminal, its audio through the real ALSA `file` plugin, which keeps every
/// sample played. That plugin is not paced by hardware, so the sink paces it by the loop's timers: on
/// virtual time a minute of listening is captured in the time the decoding and the writing take, and the
/// capture is the same, sample for sample, as real time's. The real CLI still asks for what a person
/// would. The acceptance journey (`Journey`) keeps the real binary in real time.
final class DrivenJourney {
    let daemon: DrivenDaemon
    let capture: String

    init() {
        daemon = DrivenDaemon(content: RepositoryPaths.content,
                              extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        capture = daemon.directory.file("capture.raw")
        daemon.daemonAudioDevice = "file:FILE=\(capture),FORMAT=raw"
    }

    func start() {
        do { try daemon.start(keys: true) } catch { Issue.record("the daemon did not start: \(error)") }
    }

    @discardableResult
    func ctl(_ arguments: String...) -> (status: Int32, stdout: String, stderr: String) { daemon.ctl(arguments) }

    /// The status the CLI prints, as the daemon answers it in this process.
    func status() -> StatusReport { daemon.status() }

    func keys(_ keys: String) { daemon.typeKeys(keys) }

    /// Moves virtual time on until `condition` holds on the status (for at most an hour of it: a guard,
    /// not a timing); returns that status.
    @discardableResult
    func waitFor(_ what: String, _ condition: (StatusReport) -> Bool) -> StatusReport {
        guard let last = try? daemon.advance(until: condition) else {
            Issue.record("never happened: \(what); the daemon is not running")
            return StatusReport(json: .null)
        }
        if !condition(last) { Issue.record("never happened: \(what); last status \(ControlCodecJSON.text(last.json))") }
        return last
    }

    func finish() -> String { daemon.stop().log }
}
