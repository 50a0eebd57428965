import SQLiteStore

/// Wiping deleted history from the files. A deletion is committed with a marker; the wipe (a rewrite of
/// the database) follows at once when the card has room, and otherwise at the next moment that may have
/// freed some: after a session, after a download is removed, at the next start.
extension Daemon {
    /// Finishes a pending purge if there is one and room for it; returns true when nothing is left to wipe.
    /// Never throws: a purge that cannot happen now stays pending in the store.
    @discardableResult
    func finishPendingPurge(after moment: String) -> Bool {
        guard storage.purgePending else { return true }
        do {
            switch try store.finishPendingPurge() {
            case .nothingPending:
                storage.purgePending = false
            case .purged:
                storage.purgePending = false
                logger.notice("practice history: deleted runs wiped from the database files (after \(moment))")
            case .waitingForRoom(let needed, let available):
                logger.warning("practice history: deleted runs are not yet wiped from the database files: the rewrite needs "
                    + "about \(needed / 1024) KiB free, \(available / 1024) KiB are; tried again after a session or a download removal, and at start")
            }
        } catch {
            logger.warning("practice history: wiping deleted runs failed (after \(moment)), tried again later: \(error)")
        }
        return !storage.purgePending
    }
}
