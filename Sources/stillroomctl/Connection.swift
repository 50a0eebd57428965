import ControlProtocol
import Glibc
import StillroomCore
import SystemCalls

/// One request, one answer, over the daemon's control socket.
struct Connection {
    enum Failure: Error {
        /// No daemon is listening (not running, or the socket path is wrong).
        case unreachable(String)
        /// The daemon refused this user.
        case refused(String)
        /// The daemon closed the connection or answered something unreadable.
        case broken(String)
        /// A daemon runs (it holds the data folder's lock) but not on this socket: a wrong `--socket`.
        case elsewhere(String)
    }

    let socketPath: String
    /// The data folder whose lock tells whether a daemon runs, when its socket does not answer.
    let dataDirectory: String
    /// How long to wait for the answer once the request is sent (`--wait`).
    let answerWaitSeconds: Int

    /// The connection the command line asks for (`--socket`, `--wait`).
    init(_ invocation: Invocation) {
        socketPath = invocation.socketPath
        dataDirectory = invocation.dataDirectory
        answerWaitSeconds = invocation.answerWaitSeconds
    }

    func send(_ command: ControlCommand) throws(Failure) -> ControlResponse {
        let made = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { throw .unreachable(SystemError("socket").reason) }
        let socket = FileDescriptor(adopting: made)
        defer { socket.close() }
        let fd = socket.rawValue
        guard let address = try? UnixSocketAddress(socketPath) else { throw .unreachable("the socket path is too long") }
        let connected = retryingOnInterrupt { address.withSockaddr { connect(fd, $0, $1) } }
        guard connected == 0 else {
            let error = SystemError("connect", path: socketPath)
            guard error.errno != EACCES else {
                throw .refused("permission denied on \(socketPath): run as root or as a member of the group stillroom")
            }
            // Before the files speak for a daemon that is "not running": one that runs holds its folder's lock.
            if let pid = FileLocks.flockHolder(ofFileAt: dataDirectory + "/stillroomd.lock") {
                throw .elsewhere("stillroomd is running (pid \(pid), data folder \(dataDirectory)) but does not answer on "
                                 + "\(socketPath) (\(error.reason)); give its socket with --socket (the box's is /run/stillroom/control.sock)")
            }
            throw .unreachable("\(socketPath): \(error.reason)")
        }
        // A guard against a wedged daemon, not a timing: the daemon answers within one loop iteration.
        var limit = timeval(tv_sec: answerWaitSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let id = Int(getpid())
        let line = ControlCodec.encode(ControlRequest(id: id, command))
        let written = retryingOnInterrupt { line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        // A refused peer finds the connection closed under its request; the refusal is waiting to be read.
        let sendFailure = written == line.count ? nil : SystemError("send").reason
        var framer = LineFramer(limit: 16 << 20)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = retryingOnInterrupt { recv(fd, &chunk, chunk.count, 0) }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                // The request is in the daemon's socket: a daemon that was only busy still carries it out.
                throw .broken("the daemon did not answer within \(answerWaitSeconds) s (busy, or wedged: "
                    + "journalctl -u stillroom says which; --wait gives it longer); if it was only busy, it will "
                    + "still carry the request out")
            }
            guard count > 0 else {
                throw .broken(sendFailure.map { "could not send the request: \($0)" } ?? "the daemon closed the connection without answering")
            }
            for item in framer.append(chunk[..<count]) {
                guard case .line(let bytes) = item, let response = ControlCodec.decodeResponse(bytes) else {
                    throw .broken("the daemon's answer could not be read")
                }
                if response.id == nil, case .failure(let error) = response.outcome, error.code == .notPermitted {
                    throw .refused(error.message)
                }
                if response.id == id || response.id == nil { return response }
            }
        }
    }
}
