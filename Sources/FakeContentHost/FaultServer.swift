// A tiny HTTP/1.1 server on 127.0.0.1, running on the same event loop as the downloader it serves, with
// faults scripted per path: each request to a path takes the next fault from its script (then behaves
// normally). Single-threaded and driven by the loop, so tests are deterministic: a "stall" is a server
// that stops sending, a "trickle" a timer, a "crash" closing every socket including the listener.
// The downloader's tests use it, and lifesim's boxes fetch from it (the content host of their world).

import CryptoHash
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

public final class FaultServer {
    public enum Fault: Equatable, Sendable {
        /// Serve the file (honouring `Range: bytes=N-` with 206).
        case normal
        /// Answer with this status and a short text body.
        case status(Int)
        /// Send the headers (full length) and this many body bytes, then close the connection.
        case dropAfter(Int)
        /// Send the headers and this many body bytes, then send nothing more (the connection stays open).
        case stallAfter(Int)
        /// Announce this Content-Length but send the real body, then close.
        case claimLength(Int)
        /// Serve the file with one byte changed.
        case corrupt
        /// 302 to this Location.
        case redirect(String)
        /// Serve these bytes instead of the file (with their own length).
        case body([UInt8])
        /// Serve these bytes with no Content-Length (the end of the connection ends the body).
        case unannounced([UInt8])
        /// Send the body `chunk` bytes at a time, one chunk every `every`.
        case trickle(chunk: Int, every: Duration)
        /// Answer 200 with the whole file even when a Range was asked for.
        case ignoreRange
        /// Send the headers and this many body bytes, then close every socket, the listener too.
        case crashAfter(Int)
    }

    public struct Request: Equatable, Sendable {
        public var path: String
        public var range: String?
    }

    public let loop: EventLoop
    public private(set) var port: UInt16 = 0
    public var files: [String: [UInt8]] = [:]
    public var scripts: [String: [Fault]] = [:]
    /// Signs what `files` holds: `X.sig`, when not in `files` itself, is X's signature with this key (as a
    /// publisher serves a list and its signature).
    public var signingKey: ContentSigningKey?

    private func signature(at path: String) -> [UInt8]? {
        guard path.hasSuffix(".sig"), let signingKey, let signed = files[String(path.dropLast(4))] else { return nil }
        return signingKey.sign(signed)
    }
    public private(set) var requests: [Request] = []
    /// The parts slow answers (`trickle`) have sent so far.
    public private(set) var partsSent = 0
    /// Whether every open connection is a slow answer waiting on its timer with all it had flushed: nothing
    /// more comes through the loopback until the loop's clock moves (on virtual time, until a test moves it).
    public var pacing: Bool { !connections.isEmpty && connections.values.allSatisfy(\.pacing) }
    /// Whether the peers have acknowledged every byte sent to them (`SIOCOUTQ` at 0 on each connection):
    /// over the loopback, what a peer acknowledged is in its socket, where the loop sees it ready.
    public var delivered: Bool { connections.values.allSatisfy(\.delivered) }
    private var listener: Int32 = -1
    private var listenerWatch: IOWatch?
    private var connections: [ObjectIdentifier: Connection] = [:]

    /// `port` 0: one the kernel picks (`port` says which); another: that one (a host back on its address).
    public init(loop: EventLoop, port: UInt16 = 0) throws {
        self.loop = loop
        self.port = port
        try listen()
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> RemoteURL { try! RemoteURL(parsing: "http://127.0.0.1:\(port)\(path)") }

    public func requests(for path: String) -> [Request] { requests.filter { $0.path == path } }

    /// Closes every connection and the listener, as a crashed server would.
    public func stop() {
        for connection in connections.values { connection.close() }
        connections.removeAll()
        listenerWatch?.cancel()
        listenerWatch = nil
        if listener >= 0 { Glibc.close(listener) }
        listener = -1
    }

    /// Listens again on the same port.
    public func restart() throws {
        stop()
        try listen()
    }

    /// A non-blocking TCP socket bound to 127.0.0.1:`port` (0: one the kernel picks), not listening: a
    /// connection to it is refused at once. The port it got is returned beside it.
    public static func boundSocket(port: UInt16) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = SystemError("bind")
            Glibc.close(fd)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func listen() throws {
        let (fd, port) = try Self.boundSocket(port: port)
        guard Glibc.listen(fd, 16) == 0 else {
            let error = SystemError("listen")
            Glibc.close(fd)
            throw error
        }
        self.port = port
        listener = fd
        listenerWatch = try loop.watch(fd, for: .readable) { [unowned self] _ in acceptAll() }
    }

    private func acceptAll() {
        while listener >= 0 {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let connection = Connection(fd: fd, server: self)
            connections[ObjectIdentifier(connection)] = connection
            do {
                try connection.start()
            } catch {
                connection.close()
                connections[ObjectIdentifier(connection)] = nil
            }
        }
    }

    fileprivate func sentPart() { partsSent += 1 }

    fileprivate func closed(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = nil
    }

    /// What to send for a request: the bytes, and what to do once they are out.
    fileprivate func respond(to request: Request) -> (bytes: [UInt8], after: Connection.After, trickle: (Int, Duration)?) {
        requests.append(request)
        var fault = Fault.normal
        if var script = scripts[request.path], !script.isEmpty {
            fault = script.removeFirst()
            scripts[request.path] = script
        }
        guard let file = files[request.path] ?? signature(at: request.path) else {
            return (Self.response(404, body: Array("not found\n".utf8)), .close, nil)
        }
        let offset = Self.rangeStart(request.range)
        switch fault {
        case .status(let status):
            return (Self.response(status, body: Array("fault \(status)\n".utf8)), .close, nil)
        case .redirect(let location):
            return (Self.response(302, headers: ["Location: \(location)"], body: []), .close, nil)
        case .body(let bytes):
            return (Self.response(200, body: bytes), .close, nil)
        case .unannounced(let bytes):
            return (Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + bytes, .close, nil)
        case .ignoreRange:
            return (Self.response(200, body: file), .close, nil)
        case .corrupt:
            var damaged = file
            damaged[damaged.count / 2] ^= 0xFF
            return (Self.serve(damaged, from: offset), .close, nil)
        case .claimLength(let claimed):
            return (Self.response(200, headers: [], body: file, claimedLength: claimed), .close, nil)
        case .normal, .trickle, .dropAfter, .stallAfter, .crashAfter:
            if let offset, offset >= file.count {
                return (Self.response(416, headers: ["Content-Range: bytes */\(file.count)"], body: []), .close, nil)
            }
            let full = Self.serve(file, from: offset)
            let headerLength = full.count - (file.count - (offset ?? 0))
            switch fault {
            case .trickle(let chunk, let every): return (full, .close, (chunk, every))
            case .dropAfter(let n): return (Array(full.prefix(headerLength + n)), .close, nil)
            case .stallAfter(let n): return (Array(full.prefix(headerLength + n)), .stall, nil)
            case .crashAfter(let n): return (Array(full.prefix(headerLength + n)), .crash, nil)
            default: return (full, .close, nil)
            }
        }
    }

    static func rangeStart(_ range: String?) -> Int? {
        guard let range, range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst(6).dropLast())
    }

    static func serve(_ file: [UInt8], from offset: Int?) -> [UInt8] {
        guard let offset, offset > 0 else { return response(200, body: file) }
        let rest = Array(file[offset...])
        return response(206, headers: ["Content-Range: bytes \(offset)-\(file.count - 1)/\(file.count)"], body: rest)
    }

    static func response(_ status: Int, headers: [String] = [], body: [UInt8], claimedLength: Int? = nil) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : status == 206 ? "Partial Content" : "Status")\r\n"
        head += "Content-Length: \(claimedLength ?? body.count)\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    fileprivate func crash() { stop() }
}

/// One accepted connection: read one request, write the planned bytes, then close, stall or crash.
fileprivate final class Connection {
    enum After { case close, stall, crash }

    let fd: Int32
    unowned let server: FaultServer
    private var watch: IOWatch?
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var after: After = .close
    private var trickle: (chunk: Int, every: Duration)?
    private var pending: [UInt8] = []
    private var trickleTimer: LoopTimer?
    private var isClosed = false

    init(fd: Int32, server: FaultServer) {
        self.fd = fd
        self.server = server
    }

    func start() throws {
        watch = try server.loop.watch(fd, for: .readable) { [unowned self] events in handle(events) }
    }

    private func handle(_ events: IOEvents) {
        if !events.intersection([.hangUp, .error]).isEmpty {
            close()
            return
        }
        if events.contains(.readable) {
            if watchWantsRead {
                readRequest()
            } else {
                drainInput()
            }
        }
        if events.contains(.writable) { flush() }
    }

    private var watchWantsRead = true

    /// A slow answer between two parts: all it had is out, the rest waits on its timer.
    var pacing: Bool { !isClosed && trickle != nil && !pending.isEmpty && output.isEmpty }

    var delivered: Bool {
        var unacknowledged: Int32 = 0
        return isClosed || (ioctl(fd, UInt(TIOCOUTQ), &unacknowledged) == 0 && unacknowledged == 0)
    }

    /// After the request, reading only tells us the client went away.
    private func drainInput() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { close() }
    }

    private func readRequest() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        if count <= 0 {
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            close()
            return
        }
        input += buffer[..<count]
        guard let end = Self.find([13, 10, 13, 10], in: input) else { return }
        let text = String(decoding: input[..<end], as: UTF8.self)
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let parts = lines.first?.split(separator: " ") ?? []
        let path = parts.count >= 2 ? String(parts[1]) : "/"
        let range = lines.dropFirst().first { $0.lowercased().hasPrefix("range:") }
            .map { String($0.dropFirst(6).drop { $0 == " " }) }
        let plan = server.respond(to: FaultServer.Request(path: path, range: range))
        after = plan.after
        watchWantsRead = false
        if let (chunk, every) = plan.trickle {
            let headEnd = (Self.find([13, 10, 13, 10], in: plan.bytes) ?? 0) + 4
            output = Array(plan.bytes[..<headEnd])
            pending = Array(plan.bytes[headEnd...])
            self.trickle = (chunk, every)
            trickleTimer = server.loop.makeTimer { [unowned self] in trickleStep(chunk: chunk, every: every) }
            trickleTimer?.schedule(after: every)
        } else {
            output = plan.bytes
        }
        flush()
    }

    /// A method, so the connection stays alive for the whole step even when `flush` closes it.
    private func trickleStep(chunk: Int, every: Duration) {
        guard !isClosed else { return }
        let take = min(chunk, pending.count)
        output += pending[..<take]
        pending.removeFirst(take)
        server.sentPart()
        flush()
        if !isClosed && !pending.isEmpty { trickleTimer?.schedule(after: every) }
    }

    private func flush() {
        guard !isClosed else { return }
        while !output.isEmpty {
            let sent = output.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR {
                    try? watch?.update(events: .writable)
                    return
                }
                close()
                return
            }
            output.removeFirst(sent)
        }
        try? watch?.update(events: .readable) // to notice the client closing
        guard pending.isEmpty else { return }
        switch after {
        case .close: close()
        case .stall: break
        case .crash: server.crash()
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        trickleTimer?.cancel()
        watch?.cancel()
        Glibc.close(fd)
        server.closed(self)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where Array(haystack[index..<index + needle.count]) == needle {
            return index
        }
        return nil
    }
}
