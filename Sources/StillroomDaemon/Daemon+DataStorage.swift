import CLinuxShims
import Glibc
import StillroomCore

extension DataStorageVerdict {
    /// The verdict for the folder `path` as it is mounted now.
    static func of(_ path: String) -> DataStorageVerdict {
        let magic = stillroom_file_system_type(path)
        guard magic != 0 else { return DataStorageVerdict(path: path, unknownBecause: String(cString: strerror(errno))) }
        return DataStorageVerdict(fileSystemMagic: UInt32(truncatingIfNeeded: magic), path: path)
    }
}
