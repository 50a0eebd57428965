import EventLoop
import Glibc
import StillroomCore

/// Follows wpa_supplicant's events in the daemon's loop: attaches to each control socket in `directory`
/// (ATTACH, then STATUS for the state it is in), hands what it hears to `onMessage`, and attaches again
/// whenever a socket is made anew (wpa_supplicant restarted). Until wpa_supplicant runs the folder may not
/// exist: its parent is watched until it does. Nothing is polled; a box without Wi-Fi costs one inotify watch.
public final class SupplicantMonitor {
    public enum Message: Equatable, Sendable {
        case event(interface: String, SupplicantEvent)
        case status(interface: String, SupplicantStatus)
    }

    private let loop: EventLoop
    private let directory: String
    private let onMessage: (Message) -> Void
    private var folder: FolderFollower?
    private var attached: [String: (socket: SupplicantSocket, watch: IOWatch)] = [:]

    public init(loop: EventLoop, directory: String, onMessage: @escaping (Message) -> Void) {
        self.loop = loop
        self.directory = directory
        self.onMessage = onMessage
        folder = FolderFollower(loop: loop, path: directory) { [unowned self] folder in attachAll(folder) }
    }

    deinit {
        for (_, entry) in attached { entry.watch.cancel() }
    }

    /// The interfaces followed now.
    public var interfaces: [String] { attached.keys.sorted() }

    /// Attaches to every socket not yet followed, and again to one whose socket file was made anew.
    private func attachAll(_ folder: FolderFollower) {
        guard folder.exists else {
            // The folder went away (wpa_supplicant removes it when its last interface goes): start over.
            for (interface, entry) in attached { forget(interface, entry) }
            folder.restart()
            return
        }
        let present = Set(SupplicantSocket.interfaces(in: directory))
        for (interface, entry) in attached where !present.contains(interface) || entry.socket.inode != SupplicantSocket.inode(of: directory + "/" + interface) {
            forget(interface, entry)
        }
        for interface in present.sorted() where attached[interface] == nil {
            attach(interface)
        }
    }

    private func attach(_ interface: String) {
        let path = directory + "/" + interface
        guard let socket = try? SupplicantSocket(path: path),
              let watch = try? loop.watch(socket.fd, for: .readable, handler: { [unowned self] _ in read(interface) }) else { return }
        attached[interface] = (socket, watch)
        socket.send("ATTACH")
        socket.send("STATUS")
    }

    private func read(_ interface: String) {
        guard let entry = attached[interface] else { return }
        let (datagrams, gone) = entry.socket.receiveWaiting()
        for datagram in datagrams {
            if datagram.hasPrefix("<") {
                if let event = SupplicantEvent.parse(datagram) { onMessage(.event(interface: interface, event)) }
            } else if let status = SupplicantStatus.parse(datagram) {
                onMessage(.status(interface: interface, status))
            }
        }
        if gone {
            // Stopped: a new wpa_supplicant makes the socket anew and the folder's watch attaches to it.
            forget(interface, entry)
        }
    }

    /// Stops following `interface`: its wpa_supplicant is gone (killed without a word, or its socket
    /// replaced), which is told as if it had said it was terminating.
    private func forget(_ interface: String, _ entry: (socket: SupplicantSocket, watch: IOWatch)) {
        entry.watch.cancel()
        attached[interface] = nil
        onMessage(.event(interface: interface, .terminating))
    }
}
