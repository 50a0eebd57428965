import CLinuxShims
import ControlProtocol
import EventLoop
import Glibc
import SystemCalls
import StillroomCore

/// Who is on the other end of a control connection (SO_PEERCRED).
public struct PeerCredentials: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

/// The control socket: a Unix stream socket in the loop, JSON lines in and out.
///
/// Each client has its own line framer and output queue. Nothing a client does can stall the loop: reads
/// and writes are non-blocking, an oversized line is answered with an error and skipped, and a client that
/// stops reading while its answers pile up beyond `maximumQueuedBytes` is disconnected. A client that asks
/// nothing for `idleLimit` (since it connected, or since its last request) is closed, so silent connections
/// cannot hold every slot; and the last slot is root's alone, so a maintainer with sudo always gets in.
public final class ControlServer {
    public typealias Handler = (ControlRequest, PeerCredentials) -> Result<JSONValue, ControlError>

    static let maximumClients = 32
    static let maximumQueuedBytes = 1 << 20
    /// Long enough for a person typing a request by hand into socat; stillroomctl asks at once.
    public static let idleLimit: Duration = .seconds(30)
    /// `idleLimit` on this loop's clock: a client's silence is in real time, so under `--time-warp` it is
    /// that many times longer on the warped clock (else 30 s would be 50 ms at ×600).
    private let idleLimitOnLoop: Duration

    /// Whether a new connection from `peer` may be served beside `clientCount` others: every slot for
    /// root, all but the last for anyone else.
    static func hasRoom(for peer: PeerCredentials, clientCount: Int) -> Bool {
        clientCount < (peer.uid == 0 ? maximumClients : maximumClients - 1)
    }

    public let path: String
    private let loop: EventLoop
    private let log: (String) -> Void
    private let handler: Handler
    private let listener: FileDescriptor
    private var listenWatch: IOWatch?
    private var clients: [Int32: Client] = [:]
    private let permittedGroup: UInt32?
    /// Armed for the earliest moment a client has been idle for `idleLimit`; idle while there are none.
    private var idleTimer: LoopTimer?

    final class Client {
        /// The connection; `fd` keeps its number as the key in `clients` after it is closed.
        let socket: FileDescriptor
        let fd: Int32
        let peer: PeerCredentials
        var framer = LineFramer()
        var output: [UInt8] = []
        var watch: IOWatch?
        var closeWhenFlushed = false
        /// When it connected, or last sent a whole request.
        var lastAsked: MonotonicInstant

        init(socket: FileDescriptor, peer: PeerCredentials, now: MonotonicInstant) {
            self.socket = socket
            fd = socket.rawValue
            self.peer = peer
            lastAsked = now
        }
    }

    public init(path: String, loop: EventLoop, timeWarpFactor: Int64 = 1, log: @escaping (String) -> Void,
                handler: @escaping Handler) throws(ControlSocketError) {
        self.path = path
        idleLimitOnLoop = Self.idleLimit * Int(max(1, timeWarpFactor))
        self.loop = loop
        self.log = log
        self.handler = handler
        permittedGroup = Self.groupID(named: "stillroom")
        listener = try Self.listen(at: path, group: permittedGroup)
        do {
            listenWatch = try loop.watch(listener.rawValue, for: .readable) { [unowned self] _ in acceptClients() }
            idleTimer = loop.makeTimer { [unowned self] in closeIdleClients() }
        } catch {
            listener.close()
            throw ControlSocketError("control socket \(path): \(error)")
        }
    }

    /// Closes every connection and removes the socket file.
    public func shutDown() {
        for client in clients.values { disconnect(client) }
        idleTimer?.cancel()
        listenWatch?.cancel()
        listener.close()
        unlink(path)
    }

    public var clientCount: Int { clients.count }

    // MARK: Connections

    private func acceptClients() {
        while true {
            let fd = retryingOnInterrupt { stillroom_accept_nonblocking(listener.rawValue) }
            if fd < 0 {
                if errno != EAGAIN && errno != EWOULDBLOCK { log(SystemError("accept").description) }
                return
            }
            let connection = FileDescriptor(adopting: fd)
            guard let peer = Self.credentials(of: fd) else {
                connection.close()
                continue
            }
            guard isPermitted(peer) else {
                log("refused a connection from uid \(peer.uid) (pid \(peer.pid)): not root, not the daemon's user, not in group stillroom")
                refuse(connection, ControlError(.notPermitted, "permission denied: run as root or as a member of the group stillroom"))
                continue
            }
            guard Self.hasRoom(for: peer, clientCount: clients.count) else {
                log("too many clients; refusing pid \(peer.pid)")
                refuse(connection, ControlError(.busy, "the box is busy: it is already serving \(clients.count) connections; try again in a "
                                                + "moment (idle ones are closed after \(Self.idleLimit.components.seconds) s; root has a slot of its own)"))
                continue
            }
            let client = Client(socket: connection, peer: peer, now: loop.now)
            guard let watch = try? loop.watch(fd, for: .readable, handler: { [unowned self, unowned client] events in
                serve(client, events: events)
            }) else {
                connection.close()
                continue
            }
            client.watch = watch
            clients[fd] = client
            armIdleTimer()
        }
    }

    /// Closes the clients that asked nothing for `idleLimit`, and arms the timer for the next one.
    private func closeIdleClients() {
        let now = loop.now
        for client in clients.values where now - client.lastAsked >= idleLimitOnLoop {
            log("pid \(client.peer.pid) asked nothing for \(Self.idleLimit.components.seconds) s; disconnected")
            disconnect(client)
        }
        armIdleTimer()
    }

    private func armIdleTimer() {
        guard let earliest = clients.values.map(\.lastAsked).min() else {
            idleTimer?.cancel()
            return
        }
        idleTimer?.schedule(at: earliest + idleLimitOnLoop)
    }

    /// One error line, then the close: a refused client learns why instead of finding the line dead. The
    /// socket is fresh, so the short line fits its buffer; if it does not, the close alone is the answer.
    private func refuse(_ connection: FileDescriptor, _ error: ControlError) {
        let line = ControlCodec.encode(ControlResponse(id: nil, outcome: .failure(error)))
        _ = retryingOnInterrupt {
            line.withUnsafeBytes { send(connection.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
        }
        connection.close()
    }

    private func serve(_ client: Client, events: IOEvents) {
        if events.contains(.writable) { flush(client) }
        guard clients[client.fd] === client else { return }
        if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) { read(client) }
    }

    private func read(_ client: Client) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while clients[client.fd] === client {
            let count = retryingOnInterrupt { recv(client.fd, &chunk, chunk.count, 0) }
            if count > 0 {
                for item in client.framer.append(chunk[..<count]) { answer(item, for: client) }
                continue
            }
            if count == 0 { // the peer closed its end: answer what is queued, then close
                client.closeWhenFlushed = true
                flush(client)
                return
            }
            if errno != EAGAIN && errno != EWOULDBLOCK { disconnect(client) }
            return
        }
    }

    private func answer(_ item: LineFramer.Item, for client: Client) {
        let response: ControlResponse
        switch item {
        case .tooLong:
            response = ControlResponse(id: nil, outcome: .failure(ControlError(.tooLong,
                "the line is longer than \(ControlProtocol.maximumLineBytes) bytes and was skipped")))
        case .line(let bytes) where bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }):
            return // blank lines are harmless (a hand-typed client pressing Enter)
        case .line(let bytes):
            client.lastAsked = loop.now
            switch ControlCodec.decodeRequest(bytes) {
            case .success(let request):
                response = ControlResponse(id: request.id, outcome: handler(request, client.peer))
            case .failure(let failure):
                log("bad request from pid \(client.peer.pid): \(failure.error.message)")
                response = ControlResponse(id: failure.id, outcome: .failure(failure.error))
            }
        }
        client.output += ControlCodec.encode(response)
        flush(client)
    }

    private func flush(_ client: Client) {
        while !client.output.isEmpty {
            let sent = retryingOnInterrupt { client.output.withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            if sent > 0 {
                client.output.removeFirst(sent)
                continue
            }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            disconnect(client)
            return
        }
        if client.output.count > Self.maximumQueuedBytes {
            log("pid \(client.peer.pid) is not reading its answers; disconnected")
            disconnect(client)
            return
        }
        if client.output.isEmpty && client.closeWhenFlushed {
            disconnect(client)
            return
        }
        try? client.watch?.update(events: client.output.isEmpty ? .readable : [.readable, .writable])
    }

    private func disconnect(_ client: Client) {
        client.watch?.cancel()
        client.socket.close()
        clients[client.fd] = nil
    }

    private func isPermitted(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 || peer.uid == geteuid() { return true }
        guard let group = permittedGroup else { return false }
        return peer.gid == group || Self.user(peer.uid, isMemberOf: group)
    }

    // MARK: System pieces

    private static func listen(at path: String, group: UInt32?) throws(ControlSocketError) -> FileDescriptor {
        guard let address = try? UnixSocketAddress(path) else {
            throw ControlSocketError("control socket path \(path) is too long (at most \(UnixSocketAddress.maximumPathBytes) bytes)")
        }
        if Self.someoneListens(at: path) {
            throw ControlSocketError("control socket \(path): another stillroomd is already running")
        }
        unlink(path) // a stale socket from a crash or a power cut
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlSocketError(SystemError("control socket").description) }
        let listener = FileDescriptor(adopting: fd) // closed when a step below fails and it goes
        // Create it 0660 from the start: no window in which others could connect.
        let previous = umask(0o117)
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        umask(previous)
        guard bound == 0 else { throw ControlSocketError(SystemError("control socket", path: path).description) }
        if let group { _ = chown(path, UInt32.max, group) } // best effort: group stillroom may connect
        guard Glibc.listen(fd, 16) == 0 else { throw ControlSocketError("control socket \(path): \(SystemError("listen"))") }
        return listener
    }

    private static func someoneListens(at path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        let probe = FileDescriptor(adopting: fd)
        defer { probe.close() }
        guard let address = try? UnixSocketAddress(path) else { return false }
        return retryingOnInterrupt { address.withSockaddr { connect(fd, $0, $1) } } == 0
    }

    private static func credentials(of fd: Int32) -> PeerCredentials? {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        guard stillroom_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }

    static func groupID(named name: String) -> UInt32? {
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }

    private static func user(_ uid: UInt32, isMemberOf group: UInt32) -> Bool {
        guard let passwd = getpwuid(uid), let name = passwd.pointee.pw_name else { return false }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        guard getgrouplist(name, passwd.pointee.pw_gid, &groups, &count) >= 0 else { return false }
        return groups.prefix(Int(count)).contains(group)
    }
}

/// The control socket could not be set up: one line saying why.
public struct ControlSocketError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
