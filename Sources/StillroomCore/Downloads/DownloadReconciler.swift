// Start-up: the database says what should be on the box, the downloads folder says what is. After a
// power cut, a full card or a crash the two can disagree; `DownloadReconciler` decides, from both lists,
// which records to correct and which files to delete. It never keeps a reference to a file that is not
// there, and never deletes a copy the database vouches for unless that copy is shown to be damaged.

/// A regular file in the downloads folder.
public struct DownloadFileEntry: Sendable, Hashable {
    public var name: String
    public var size: Int64

    public init(name: String, size: Int64) {
        self.name = name
        self.size = size
    }
}

/// One thing to do to make the records and the folder agree.
public enum ReconcileAction: Sendable, Hashable {
    /// Delete this file from the downloads folder.
    case deleteFile(String)
    case saveRecord(AudioDownloadRecord)
    case deleteRecord(sessionID: String)
    /// Hash the recording; then call `DownloadReconciler.afterVerification`. `adopt`: the record is not
    /// `complete` but a whole file is there (a restart between the rename and the database write).
    case verifyInstalled(ContentID, adopt: Bool)
    /// Continue this download from its `.part` file's `partBytes` once the manifest names the session
    /// again (the record does not keep the URL). 0 means from the start.
    case resume(ContentID, partBytes: Int64)
}

/// What reconciling decided: the actions, in order, and one sentence per correction for the log.
public struct ReconcileOutcome: Sendable, Hashable {
    public var actions: [ReconcileAction]
    public var notes: [String]

    public init(actions: [ReconcileAction] = [], notes: [String] = []) {
        self.actions = actions
        self.notes = notes
    }
}

public enum DownloadReconciler {
    /// Compares the records with the files in the downloads folder.
    ///
    /// Rules (docs/downloads.md has the table):
    /// - temporary side files are always deleted; files of sessions with no record are deleted;
    /// - `complete`: a missing recording or a missing transcript/provenance drops the record (the
    ///   session is no longer on this box); a wrong size marks it failed and deletes its files;
    ///   otherwise a stray `.part` is deleted and the recording is verified;
    /// - `queued`/`downloading`: a whole recording with its side files and no `.part` is verified and
    ///   adopted; otherwise the download resumes from its `.part` (from zero if the `.part` is larger
    ///   than the file can be);
    /// - `failed`/`cancelled`: the `.part` is deleted; a whole recording is verified and adopted.
    public static func reconcile(records: [AudioDownloadRecord], files: [DownloadFileEntry], wall: UnixMilliseconds) -> ReconcileOutcome {
        var outcome = ReconcileOutcome()
        var filesByID: [ContentID: [DownloadLayout.FileRole: DownloadFileEntry]] = [:]
        for file in files.sorted(by: { $0.name < $1.name }) {
            guard let (id, role) = DownloadLayout.classify(file.name) else { continue }
            if role == .temporary {
                outcome.actions.append(.deleteFile(file.name))
                outcome.notes.append("downloads: removed the unfinished file \(file.name)")
                continue
            }
            filesByID[id, default: [:]][role] = file
        }
        var recordedIDs: Set<ContentID> = []
        for record in records.sorted(by: { $0.sessionID < $1.sessionID }) {
            guard let id = try? ContentID(validating: record.sessionID) else {
                outcome.actions.append(.deleteRecord(sessionID: record.sessionID))
                outcome.notes.append("downloads: dropped a record with an invalid session id \(quotedForMessage(record.sessionID))")
                continue
            }
            recordedIDs.insert(id)
            reconcile(record, id: id, files: filesByID[id] ?? [:], wall: wall, into: &outcome)
        }
        for (id, roles) in filesByID.sorted(by: { $0.key < $1.key }) where !recordedIDs.contains(id) {
            for file in roles.values.sorted(by: { $0.name < $1.name }) { outcome.actions.append(.deleteFile(file.name)) }
            outcome.notes.append("downloads: removed files of \(id) that no record refers to")
        }
        return outcome
    }

    private static func reconcile(_ record: AudioDownloadRecord, id: ContentID, files: [DownloadLayout.FileRole: DownloadFileEntry],
                                  wall: UnixMilliseconds, into outcome: inout ReconcileOutcome) {
        var corrected = record
        corrected.localPath = DownloadLayout.localPath(for: id)
        let audio = files[.audio]
        let part = files[.partial]
        let hasSideFiles = files[.transcript] != nil && files[.provenance] != nil
        let sizeMatches = audio != nil && (record.bytesTotal == nil || audio?.size == record.bytesTotal)
        func deleteAll(except kept: Set<DownloadLayout.FileRole> = []) {
            for role in DownloadLayout.sessionFileRoles where !kept.contains(role) {
                if let file = files[role] { outcome.actions.append(.deleteFile(file.name)) }
            }
        }

        switch record.state {
        case .complete:
            guard audio != nil, hasSideFiles else {
                deleteAll()
                outcome.actions.append(.deleteRecord(sessionID: record.sessionID))
                let missing = audio == nil ? "its recording" : "its transcript or provenance file"
                outcome.notes.append("downloads: \(id) is no longer on this box (\(missing) is missing)")
                return
            }
            guard sizeMatches else {
                deleteAll()
                let failure = DownloadFailure.damagedOnBox("its size is \(audio!.size) bytes, not \(record.bytesTotal ?? 0)")
                corrected.state = .failed
                corrected.bytesDone = 0
                corrected.error = failure.recordText
                corrected.updatedAt = wall
                outcome.actions.append(.saveRecord(corrected))
                outcome.notes.append("downloads: \(id) is damaged: \(failure.reason)")
                return
            }
            if let part {
                outcome.actions.append(.deleteFile(part.name))
                outcome.notes.append("downloads: removed a leftover \(part.name) beside the finished \(id)")
            }
            if corrected.localPath != record.localPath { outcome.actions.append(.saveRecord(corrected)) }
            outcome.actions.append(.verifyInstalled(id, adopt: false))

        case .queued, .downloading:
            if sizeMatches, hasSideFiles, part == nil, record.bytesTotal != nil {
                outcome.actions.append(.verifyInstalled(id, adopt: true))
                outcome.notes.append("downloads: \(id) was finished before a restart; checking it")
                return
            }
            deleteAll(except: [.partial])
            var partBytes: Int64 = 0
            if let part {
                if let total = record.bytesTotal, part.size > total {
                    outcome.actions.append(.deleteFile(part.name))
                    outcome.notes.append("downloads: \(part.name) is larger than the file can be; starting \(id) again")
                } else {
                    partBytes = part.size
                }
            }
            if corrected.bytesDone != partBytes || corrected.localPath != record.localPath || corrected.state != .downloading {
                corrected.bytesDone = partBytes
                corrected.state = .downloading
                corrected.updatedAt = wall
                outcome.actions.append(.saveRecord(corrected))
            }
            outcome.actions.append(.resume(id, partBytes: partBytes))
            outcome.notes.append("downloads: \(id) will resume from byte \(partBytes) once the list of sessions is loaded")

        case .failed, .cancelled:
            if let part {
                outcome.actions.append(.deleteFile(part.name))
                outcome.notes.append("downloads: removed the partial file of the \(record.state.rawValue) download \(id)")
            }
            if sizeMatches, hasSideFiles, record.bytesTotal != nil {
                outcome.actions.append(.verifyInstalled(id, adopt: true))
            } else {
                deleteAll(except: [.partial])
            }
        }
    }

    /// The second half of `verifyInstalled`: `actual` is the digest of the recording on disk.
    ///
    /// A match keeps (or adopts) the copy. A mismatch deletes it: a damaged `complete` copy becomes a
    /// failed download saying so; a damaged adopted file is just deleted, and an interrupted download
    /// starts again from zero.
    public static func afterVerification(_ record: AudioDownloadRecord, actual: SHA256Digest, wall: UnixMilliseconds) -> ReconcileOutcome {
        guard let id = try? ContentID(validating: record.sessionID) else { return ReconcileOutcome() }
        var outcome = ReconcileOutcome()
        var corrected = record
        corrected.localPath = DownloadLayout.localPath(for: id)
        corrected.updatedAt = wall
        if record.sha256 == actual.hex {
            if record.state != .complete {
                corrected.state = .complete
                corrected.bytesDone = record.bytesTotal ?? record.bytesDone
                corrected.error = nil
                outcome.actions.append(.saveRecord(corrected))
                outcome.notes.append("downloads: \(id) is on this box (verified after a restart)")
            }
            return outcome
        }
        for role in DownloadLayout.sessionFileRoles where role != .partial {
            outcome.actions.append(.deleteFile(DownloadLayout.fileName(role, for: id)))
        }
        switch record.state {
        case .complete:
            let failure = DownloadFailure.damagedOnBox("its checksum does not match")
            corrected.state = .failed
            corrected.bytesDone = 0
            corrected.error = failure.recordText
            outcome.actions.append(.saveRecord(corrected))
            outcome.notes.append("downloads: \(id) is damaged (checksum mismatch); removed it")
        case .queued, .downloading:
            corrected.state = .downloading
            corrected.bytesDone = 0
            outcome.actions.append(.saveRecord(corrected))
            outcome.actions.append(.resume(id, partBytes: 0))
            outcome.notes.append("downloads: \(id) did not verify; starting it again")
        case .failed, .cancelled:
            outcome.notes.append("downloads: removed an unverified file of \(id)")
        }
        return outcome
    }
}
