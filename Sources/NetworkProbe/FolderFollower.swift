import EventLoop
import Glibc

/// Follows a folder that comes and goes (wpa_supplicant's sockets' folder, the Wi-Fi relay's): while it
/// does not exist, its parent is watched for it to appear; once it does, the folder itself. `onChange` runs
/// when it appears and at every change in it, with the follower, so that a caller that finds it gone can
/// call `restart()` (also from the first call, made while the follower is being made). One inotify watch at
/// a time, nothing polled.
final class FolderFollower {
    private let loop: EventLoop
    private let path: String
    private let onChange: (FolderFollower) -> Void
    private var watcher: DirectoryWatcher?

    init(loop: EventLoop, path: String, onChange: @escaping (FolderFollower) -> Void) {
        self.loop = loop
        self.path = path
        self.onChange = onChange
        restart()
    }

    /// Watches the folder if it is there (and says so with `onChange`), else its parent until it is.
    func restart() {
        if let made = try? DirectoryWatcher(loop: loop, path: path, onChange: { [unowned self] _ in onChange(self) }) {
            watcher = made
            onChange(self)
            return
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let name = String(path.split(separator: "/").last ?? "")
        watcher = try? DirectoryWatcher(loop: loop, path: parent.isEmpty ? "/" : parent) { [unowned self] names in
            if names.contains(name) { restart() }
        }
    }

    /// Whether the folder is there now.
    var exists: Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
