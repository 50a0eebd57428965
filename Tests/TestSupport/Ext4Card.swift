import Glibc

/// A small real ext4 file system on a loop device, mounted with `errors=remount-ro` as the box's data
/// partition is, so a test can make the card fail for real: `fail()` asks ext4 to report an error
/// (`/sys/fs/ext4/<dev>/trigger_fs_error`), and the kernel then refuses every write, to files already open
/// as to new ones — what an SD card error does to a box in the field.
///
/// Needs root, a loop device and mkfs.ext4 (e2fsprogs); `init` returns nil and says why otherwise. Tests
/// ask `Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot)` first (a counted skip without root, a
/// failure under CI); as root, a card that cannot be made is a failure.
public final class Ext4Card {
    public let mountPoint: String
    public let image: String
    private let device: String

    /// Whether this process may make a loop-mounted card (root).
    public static var mayMount: Bool { getuid() == 0 }
    public static let whyNot = "a loop-mounted ext4 card needs root"

    public init?(mountPoint: String, megabytes: Int = 32, why: inout String) {
        self.mountPoint = mountPoint
        image = mountPoint + ".img"
        guard getuid() == 0 else {
            why = Self.whyNot
            return nil
        }
        let made = Subprocess.run("/bin/sh", ["-c", """
            set -e
            mkdir -p '\(mountPoint)'
            truncate -s \(megabytes)M '\(image)'
            mkfs.ext4 -q -F '\(image)'
            mount -o loop,errors=remount-ro '\(image)' '\(mountPoint)'
            findmnt -n -o SOURCE '\(mountPoint)'
            """])
        let source = made.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard made.status == 0, source.hasPrefix("/dev/") else {
            why = "could not make and mount an ext4 card: \(made.stderr)"
            return nil
        }
        device = String(source.dropFirst("/dev/".count))
    }

    /// An ext4 error: from now on every write on the card fails with EROFS.
    public func fail() {
        let result = Subprocess.run("/bin/sh", ["-c", "echo 1 > /sys/fs/ext4/\(device)/trigger_fs_error"])
        precondition(result.status == 0, "trigger_fs_error: \(result.stderr)")
    }

    /// Whether a write on the card is refused now.
    public var refusesWrites: Bool {
        let probe = mountPoint + "/.card-probe"
        let fd = open(probe, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
            unlink(probe)
            return false
        }
        return errno == EROFS
    }

    deinit {
        _ = Subprocess.run("/bin/sh", ["-c", "umount '\(mountPoint)' || umount -l '\(mountPoint)'; rm -f '\(image)'"])
    }
}
