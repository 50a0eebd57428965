/// Whether the data folder outlives a power-off, from the type of file system it is on. On the box the root
/// is an overlay in RAM, and the data partition's fstab line says `nofail` so that a box whose partition
/// does not mount still boots and plays: the daemon then writes its database into the overlay and loses it
/// at power-off. `stillroomctl doctor`'s "data storage" line; the caller asks statfs(2) for the type.
public struct DataStorageVerdict: Equatable, Sendable {
    public let ok: Bool
    public let detail: String
    public let fix: String

    /// File systems whose contents are in RAM (statfs's f_type, linux/magic.h). An overlay could have a disk
    /// below it elsewhere; on the box it is the root's, over a tmpfs.
    static let inRAM: [UInt32: String] = [0x0102_1994: "tmpfs", 0x8584_58F6: "ramfs", 0x794C_7630: "overlayfs"]
    /// Names for the file systems a data folder is likely to be on. The kernel mounts ext2 and ext3 with its
    /// ext4 driver, and the magic number is the same for all three.
    static let named: [UInt32: String] = [
        0xEF53: "ext4", 0x4D44: "FAT", 0x9123_683E: "btrfs", 0x5846_5342: "xfs", 0xF2F5_2010: "f2fs",
        0x6969: "nfs", 0x6573_5546: "fuse", 0x2FC1_2FC1: "zfs",
    ]

    /// The verdict for the data folder `path` on a file system whose statfs type is `magic`.
    public init(fileSystemMagic magic: UInt32, path: String) {
        if let name = Self.inRAM[magic] {
            ok = false
            detail = "\(path) is in RAM (\(name)): practice history and settings will be lost at power-off"
            fix = "the data partition did not mount: see `journalctl -b | grep stillroom-data`; the card may need "
                + "checking (e2fsck) or replacing. Sessions still play meanwhile"
        } else {
            ok = true
            detail = "\(path) is on \(Self.named[magic] ?? "a file system of type 0x" + String(magic, radix: 16)), kept across power-offs"
            fix = ""
        }
    }

    /// When statfs(2) itself failed (`reason`, its error).
    public init(path: String, unknownBecause reason: String) {
        ok = false
        detail = "cannot tell what \(path) is on (\(reason))"
        fix = "see the storage check"
    }
}
