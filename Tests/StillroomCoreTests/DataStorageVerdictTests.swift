import StillroomCore
import Testing

/// `doctor`'s "data storage" line from statfs's file-system type: RAM is a failure that names the loss.
@Suite struct DataStorageVerdictTests {
    @Test(arguments: [(UInt32(0x0102_1994), "tmpfs"), (0x8584_58F6, "ramfs"), (0x794C_7630, "overlayfs")])
    func aFileSystemInRAMFailsAndSaysWhatIsLost(magic: UInt32, name: String) {
        let verdict = DataStorageVerdict(fileSystemMagic: magic, path: "/var/lib/stillroom")
        #expect(!verdict.ok)
        #expect(verdict.detail == "/var/lib/stillroom is in RAM (\(name)): practice history and settings will be lost at power-off")
        #expect(verdict.fix.contains("the data partition did not mount") && verdict.fix.contains("journalctl -b | grep stillroom-data"))
    }

    @Test func ext4IsKeptAndNamed() {
        let verdict = DataStorageVerdict(fileSystemMagic: 0xEF53, path: "/var/lib/stillroom")
        #expect(verdict == DataStorageVerdict(fileSystemMagic: 0xEF53, path: "/var/lib/stillroom"))
        #expect(verdict.ok)
        #expect(verdict.detail == "/var/lib/stillroom is on ext4, kept across power-offs")
        #expect(verdict.fix.isEmpty)
    }

    @Test func anUnknownDiskFileSystemIsKeptAndNamedByItsNumber() {
        let verdict = DataStorageVerdict(fileSystemMagic: 0x1234_ABCD, path: "/d")
        #expect(verdict.ok)
        #expect(verdict.detail == "/d is on a file system of type 0x1234abcd, kept across power-offs")
    }

    @Test func aFolderStatfsCannotReadIsNotOk() {
        let verdict = DataStorageVerdict(path: "/d", unknownBecause: "No such file or directory")
        #expect(!verdict.ok)
        #expect(verdict.detail == "cannot tell what /d is on (No such file or directory)")
    }
}
