import Glibc
import ControlProtocol
import ControlSocket
import StillroomCore

/// Driving the daemon in-process, without its socket: the command-layer fuzzer feeds requests through
/// the same handler the control socket calls, then lets the loop do what the answers set in motion; the
/// daemon tests on virtual time do the same on a loop whose clock they move.
extension Daemon {
    /// Answers `request` exactly as a client on the control socket would be answered.
    public func answer(_ request: ControlRequest, from peer: PeerCredentials = PeerCredentials(pid: 0, uid: 0, gid: 0)) -> Result<ControlReply, ControlError> {
        handle(request, from: peer)
    }

    /// Dispatches whatever is ready on the loop without waiting (timers due, sink writes, redraws).
    /// Returns false when the loop failed.
    @discardableResult
    public func runReadyWork(turns: Int = 1) -> Bool {
        for _ in 0..<max(0, turns) {
            do {
                try loop.runOnce(timeout: .zero)
            } catch {
                logger.error("event loop failed: \(error)")
                return false
            }
        }
        return true
    }

    /// What SIGTERM does, for a daemon on a loop the caller drives: the last checkpoint, then everything
    /// closed in order. Returns the exit status `run()` would have returned.
    @discardableResult
    public func stopDriven() -> Int32 {
        handle(signal: SIGTERM)
        shutDown()
        return service.exitStatus
    }

    /// SIGHUP, for a daemon on a loop the caller drives: the catalog is read again.
    public func reloadDriven() { handle(signal: SIGHUP) }
}
