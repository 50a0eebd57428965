import EventLoop
import Glibc
import MonotonicTime
import SystemCalls

/// Stands between wpa_supplicant's control sockets (`upstream`, which only the relay's group may reach) and
/// sockets of the same names in `relayDirectory`, which the daemon's group may: each sender gets its own
/// connection to wpa_supplicant, carrying only `RelayedCommands` one way and everything wpa_supplicant
/// answers (replies, and events once attached) the other. A relay socket follows its wpa_supplicant: made
/// when it appears, made anew when it restarts (so a client sees a new socket and attaches again, as it
/// would to wpa_supplicant itself), removed when it goes. One loop, nothing polled: a folder watch, one
/// watch per socket, and a timer only while a client that never attached may be idle.
public final class SupplicantRelay {
    /// Clients per interface (the daemon, and the CLI for a moment): beyond it the least recently heard
    /// one is let go.
    public static let maximumClients = 8
    /// A client that has not attached is let go this long after its last command (the CLI's STATUS).
    public static let idleLimit: Duration = .seconds(10)

    private final class Client {
        let upstream: SupplicantSocket
        var watch: IOWatch?
        var attached = false
        var lastHeard: MonotonicInstant

        init(upstream: SupplicantSocket, lastHeard: MonotonicInstant) {
            self.upstream = upstream
            self.lastHeard = lastHeard
        }
    }

    private final class Relayed {
        let server: DatagramServerSocket
        var watch: IOWatch?
        /// The inode of wpa_supplicant's socket this relay socket stands for.
        let upstreamInode: UInt64
        var clients: [DatagramServerSocket.Address: Client] = [:]

        init(server: DatagramServerSocket, upstreamInode: UInt64) {
            self.server = server
            self.upstreamInode = upstreamInode
        }
    }

    private let loop: EventLoop
    private let upstream: String
    private let relayDirectory: String
    private let log: (String) -> Void
    private var folder: FolderFollower?
    private var relayed: [String: Relayed] = [:]
    private lazy var sweepTimer = loop.makeTimer { [unowned self] in sweepIdleClients() }

    public init(loop: EventLoop, upstream: String, relayDirectory: String, log: @escaping (String) -> Void) {
        self.loop = loop
        self.upstream = upstream
        self.relayDirectory = relayDirectory
        self.log = log
        let follower = FolderFollower(loop: loop, path: upstream) { [unowned self] folder in follow(folder) }
        folder = follower
        if !follower.exists { log("waiting for \(upstream) (wpa_supplicant makes it when it starts)") }
    }

    deinit {
        for interface in Array(relayed.keys) { close(interface) }
    }

    /// The interfaces relayed now.
    public var interfaces: [String] { relayed.keys.sorted() }

    /// Brings the relay sockets in line with wpa_supplicant's: one per socket, made anew for a new one.
    private func follow(_ folder: FolderFollower) {
        // wpa_supplicant makes its folder when it starts, and removes it when its last interface goes.
        guard folder.exists else {
            for interface in Array(relayed.keys) { close(interface) }
            folder.restart()
            return
        }
        let present = Set(SupplicantSocket.interfaces(in: upstream))
        for (interface, relay) in relayed where !present.contains(interface)
            || relay.upstreamInode != SupplicantSocket.inode(of: upstream + "/" + interface) {
            close(interface)
        }
        for interface in present.sorted() where relayed[interface] == nil { open(interface) }
    }

    private func open(_ interface: String) {
        let inode = SupplicantSocket.inode(of: upstream + "/" + interface)
        do {
            let server = try DatagramServerSocket(path: relayDirectory + "/" + interface, mode: 0o660)
            let relay = Relayed(server: server, upstreamInode: inode)
            relay.watch = try loop.watch(server.fd, for: .readable) { [unowned self] _ in serve(interface) }
            relayed[interface] = relay
            log("relaying \(upstream)/\(interface) at \(server.path)")
        } catch {
            log("cannot relay \(interface): \(error)")
        }
    }

    private func close(_ interface: String) {
        guard let relay = relayed.removeValue(forKey: interface) else { return }
        for client in relay.clients.values { client.watch?.cancel() }
        relay.watch?.cancel()
        relay.server.unlinkPath()
        log("stopped relaying \(interface)")
    }

    /// Commands from the relay's clients: allowed ones go on, on the sender's own connection.
    private func serve(_ interface: String) {
        guard let relay = relayed[interface] else { return }
        for (bytes, sender) in relay.server.receiveWaiting() {
            guard RelayedCommands.allows(bytes) else {
                relay.server.send(Array(RelayedCommands.refusal.utf8), to: sender)
                log("refused \(RelayedCommands.logName(bytes)) on \(interface): only \(RelayedCommands.allowed.sorted().joined(separator: ", ")) are passed on")
                continue
            }
            guard let client = relay.clients[sender] ?? connect(interface, sender) else {
                relay.server.send(Array(RelayedCommands.refusal.utf8), to: sender)
                continue
            }
            let command = String(decoding: bytes, as: UTF8.self)
            client.lastHeard = loop.now
            if command == "ATTACH" { client.attached = true }
            if command == "DETACH" { client.attached = false }
            if !client.upstream.send(command) { relay.server.send(Array(RelayedCommands.refusal.utf8), to: sender) }
        }
        scheduleSweep()
    }

    private func connect(_ interface: String, _ sender: DatagramServerSocket.Address) -> Client? {
        guard let relay = relayed[interface] else { return nil }
        if relay.clients.count >= Self.maximumClients,
           let (oldest, _) = relay.clients.min(by: { $0.value.lastHeard < $1.value.lastHeard }) {
            drop(oldest, of: interface)
        }
        guard let socket = try? SupplicantSocket(path: upstream + "/" + interface) else { return nil }
        let client = Client(upstream: socket, lastHeard: loop.now)
        client.watch = try? loop.watch(socket.fd, for: .readable) { [unowned self] _ in answer(interface, sender) }
        guard client.watch != nil else { return nil }
        relay.clients[sender] = client
        return client
    }

    /// What wpa_supplicant said on a client's connection, passed to the client as it came.
    private func answer(_ interface: String, _ sender: DatagramServerSocket.Address) {
        guard let relay = relayed[interface], let client = relay.clients[sender] else { return }
        let (datagrams, gone) = client.upstream.receiveWaitingBytes()
        for datagram in datagrams where !relay.server.send(datagram, to: sender) {
            drop(sender, of: interface) // the client is gone (a daemon restarted, a CLI done)
            return
        }
        if gone {
            // wpa_supplicant stopped: its clients learn it as they would from it, by their socket going.
            close(interface)
            if let folder { follow(folder) }
        }
    }

    private func drop(_ sender: DatagramServerSocket.Address, of interface: String) {
        guard let client = relayed[interface]?.clients.removeValue(forKey: sender) else { return }
        client.watch?.cancel()
        if client.attached { _ = client.upstream.send("DETACH") }
    }

    private func scheduleSweep() {
        let idle = relayed.values.flatMap { $0.clients.values }.filter { !$0.attached }
        guard let earliest = idle.map(\.lastHeard).min() else {
            sweepTimer.cancel()
            return
        }
        sweepTimer.schedule(at: earliest + Self.idleLimit)
    }

    private func sweepIdleClients() {
        for (interface, relay) in relayed {
            for (sender, client) in relay.clients where !client.attached && loop.now - client.lastHeard >= Self.idleLimit {
                drop(sender, of: interface)
            }
        }
        scheduleSweep()
    }
}
