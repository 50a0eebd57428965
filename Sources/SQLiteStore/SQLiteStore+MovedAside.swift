// Damaged databases that `open` set aside (docs/data.md) keep everything they held, practice history
// included. Deleting all history must not leave it readable there, so the copies can be listed and
// removed; the daemon does it as part of "delete all history", under the same confirmation.

import StillroomCore

extension SQLiteStore {
    /// The damaged databases set aside beside this one (each may have its -wal, -shm or -journal beside
    /// it), as paths of their main files, sorted.
    public func movedAsideCopies() -> [String] {
        FileSystem.movedAsideFiles(of: path).filter { file in
            !FileSystem.companionSuffixes.contains { file.hasSuffix($0) }
        }
    }

    /// Removes every set-aside copy and its companions, then fsyncs the directory so the removal survives a
    /// power cut. Returns the main files removed.
    ///
    /// - Throws: `fileRemovalFailed` (errno in `code`); files already removed stay removed.
    @discardableResult
    public func removeMovedAsideCopies() throws(StoreError) -> [String] {
        let copies = movedAsideCopies()
        let files = FileSystem.movedAsideFiles(of: path)
        guard !files.isEmpty else { return [] }
        for file in files { try FileSystem.remove(file, operation: "remove set-aside copies") }
        try FileSystem.syncDirectory(FileSystem.directory(of: path), operation: "remove set-aside copies")
        return copies
    }
}
