import StillroomCore

extension SQLiteStore {
    /// Keeps `save` in one transaction — one commit, so one fsync of the -wal: its checkpoint writes in
    /// order, then its practice runs (inserted when their id is nil, updated otherwise). All or nothing:
    /// after an error none of it is kept, and the position and the practice figure never disagree.
    ///
    /// `clockTrusted` and `now` date the saved checkpoints (see `saveCheckpoint`). Returns the runs as
    /// stored, in order: inserted ones carry the id the store assigned. Writes nothing for an empty save.
    @discardableResult
    public func saveProgress(_ save: ProgressSave, clockTrusted: Bool, now: UnixMilliseconds) throws(StoreError) -> [PracticeRunRecord] {
        guard !save.isEmpty else { return [] }
        return try storeTransaction(operation: "progress.save") { () throws(StoreError) -> [PracticeRunRecord] in
            for checkpoint in save.checkpoints {
                switch checkpoint {
                case .save(let position):
                    try saveCheckpoint(sessionID: position.sessionID, positionFrames: position.frame,
                                       sampleRate: position.sampleRate, clockTrusted: clockTrusted, now: now)
                case .clear(let id):
                    try clearCheckpoint(sessionID: id)
                }
            }
            var stored: [PracticeRunRecord] = []
            for run in save.runs {
                if run.id == nil {
                    stored.append(try insertPracticeRun(run))
                } else {
                    try updatePracticeRun(run) // false when the run was deleted meanwhile: nothing to keep then
                    stored.append(run)
                }
            }
            return stored
        }
    }
}
