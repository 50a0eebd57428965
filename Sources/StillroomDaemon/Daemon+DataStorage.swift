import Glibc
import StillroomCore
import SystemCalls

extension DataStorageVerdict {
    /// The verdict for the folder `path` as it is mounted now.
    static func of(_ path: String) -> DataStorageVerdict {
        do throws(SystemError) {
            return DataStorageVerdict(fileSystemMagic: try Files.fileSystemType(path), path: path)
        } catch {
            return DataStorageVerdict(path: path, unknownBecause: error.reason)
        }
    }
}
