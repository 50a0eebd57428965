import SystemCalls

/// Watches a folder the kernel makes device nodes in (/dev/dri, /dev/snd) for a node made or given its
/// group by udev; while the folder itself is missing (no such device at all yet), watches its parent
/// until the folder comes, then the folder. The daemon's screen and its audio output wait this way.
public final class DeviceFolderWatcher {
    public enum Change {
        /// Names in the folder that were made or changed owner, group or mode.
        case nodes([String])
        /// The folder itself was made (now watched); nodes may already be in it.
        case folderAppeared
    }

    public let path: String
    private let loop: EventLoop
    private let onChange: (Change) -> Void
    private var watcher: DirectoryWatcher?

    /// Throws when neither the folder nor its parent can be watched.
    public init(loop: EventLoop, path: String, onChange: @escaping (Change) -> Void) throws(SystemError) {
        self.loop = loop
        self.path = path
        self.onChange = onChange
        try watch()
    }

    private func watch() throws(SystemError) {
        if Files.status(path) != nil {
            watcher = try DirectoryWatcher(loop: loop, path: path, changes: [.created, .attributes]) { [unowned self] names in
                onChange(.nodes(names))
            }
        } else {
            let name = Files.name(of: path)
            watcher = try DirectoryWatcher(loop: loop, path: Files.parent(of: path), changes: [.created]) { [unowned self] names in
                guard names.contains(name) else { return }
                try? watch() // on failure the parent's watch stays: a later change there tries again
                onChange(.folderAppeared)
            }
        }
    }
}
