import Glibc

/// Shared libraries as the daemon meets them: where this machine's loader finds one, what a running
/// daemon has mapped, and a daemon run with some of them broken.
public enum SharedLibraries {
    /// The file the loader opens for `soname` (ldconfig's cache), or nil.
    public static func path(of soname: String) -> String? {
        Subprocess.run("/bin/sh", ["-c", "ldconfig -p | awk '$1 == \"\(soname)\" { print $NF; exit }'"]).stdout
            .split(separator: "\n").first.map(String.init)
    }
}

extension DaemonHarness {
    /// What the running daemon has mapped (/proc/PID/maps); empty when it is not running.
    public func mappedFiles() -> String {
        guard let pid = daemon?.pid else { return "" }
        return Subprocess.run("/bin/cat", ["/proc/\(pid)/maps"]).stdout
    }

    /// Starts the daemon from now on with each of `libraries` (paths) replaced by an empty file, in a mount
    /// namespace of its own (needs root): a library a box has lost or that a bad update broke.
    public func breakLibraries(_ libraries: [String]) {
        let mounts = libraries.map { "mount --bind /dev/null '\($0)'" }.joined(separator: " && ")
        wrapper = ["/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", "\(mounts) && exec \"$@\"", "sh"]
    }
}
