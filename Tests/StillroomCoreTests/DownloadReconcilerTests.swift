import StillroomCore
import Testing

@Suite struct DownloadReconcilerTests {
    typealias F = DownloadFixtures
    let wall: UnixMilliseconds = 1_700_000_000_000

    func record(_ state: AudioDownloadState, id: String = "steady-rain", bytesDone: Int64 = 0, error: String? = nil) -> AudioDownloadRecord {
        AudioDownloadRecord(sessionID: id, localPath: "downloads/\(id).mp3", state: state, bytesDone: bytesDone, bytesTotal: 1000,
                            sha256: F.digest.hex, error: error, updatedAt: 1)
    }

    func files(_ names: [String: Int64]) -> [DownloadFileEntry] {
        names.map { DownloadFileEntry(name: $0.key, size: $0.value) }
    }

    let sideFiles: [String: Int64] = ["steady-rain.transcript.vtt": 10, "steady-rain.provenance.json": 10]

    @Test func aCompleteDownloadWithItsFilesIsVerified() {
        let outcome = DownloadReconciler.reconcile(records: [record(.complete, bytesDone: 1000)],
                                                   files: files(sideFiles.merging(["steady-rain.mp3": 1000]) { a, _ in a }), wall: wall)
        #expect(outcome.actions == [.verifyInstalled(F.id, adopt: false)])
    }

    @Test func aMissingFileIsNoLongerOnThisBox() {
        let outcome = DownloadReconciler.reconcile(records: [record(.complete, bytesDone: 1000)], files: files(sideFiles), wall: wall)
        #expect(outcome.actions.contains(.deleteRecord(sessionID: "steady-rain")))
        #expect(outcome.actions.contains(.deleteFile("steady-rain.transcript.vtt")))
        #expect(!outcome.actions.contains { if case .verifyInstalled = $0 { true } else { false } })
        #expect(outcome.notes.first?.contains("no longer on this box") == true)
    }

    @Test func aMissingTranscriptDropsTheCopyToo() {
        let outcome = DownloadReconciler.reconcile(records: [record(.complete, bytesDone: 1000)],
                                                   files: files(["steady-rain.mp3": 1000, "steady-rain.provenance.json": 3]), wall: wall)
        #expect(outcome.actions.contains(.deleteRecord(sessionID: "steady-rain")))
        #expect(outcome.actions.contains(.deleteFile("steady-rain.mp3")))
    }

    @Test func aWrongSizeIsAFailedStateAndTheFileGoes() {
        let outcome = DownloadReconciler.reconcile(records: [record(.complete, bytesDone: 1000)],
                                                   files: files(sideFiles.merging(["steady-rain.mp3": 10]) { a, _ in a }), wall: wall)
        #expect(outcome.actions.contains(.deleteFile("steady-rain.mp3")))
        let saved = outcome.actions.compactMap { if case .saveRecord(let r) = $0 { r } else { nil } }
        #expect(saved.map(\.state) == [.failed])
        #expect(saved.first?.error?.contains("damaged") == true)
    }

    @Test func aStrayPartBesideAFinishedCopyIsRemoved() {
        let outcome = DownloadReconciler.reconcile(
            records: [record(.complete, bytesDone: 1000)],
            files: files(sideFiles.merging(["steady-rain.mp3": 1000, "steady-rain.mp3.part": 300]) { a, _ in a }), wall: wall)
        #expect(outcome.actions == [.deleteFile("steady-rain.mp3.part"), .verifyInstalled(F.id, adopt: false)])
    }

    @Test func anInterruptedDownloadResumesFromItsPartFile() {
        let outcome = DownloadReconciler.reconcile(records: [record(.downloading, bytesDone: 100)],
                                                   files: files(["steady-rain.mp3.part": 640]), wall: wall)
        #expect(outcome.actions.last == .resume(F.id, partBytes: 640))
        let saved = outcome.actions.compactMap { if case .saveRecord(let r) = $0 { r } else { nil } }
        #expect(saved.map(\.bytesDone) == [640])
    }

    @Test func aQueuedDownloadWithNoPartStartsFromZero() {
        let outcome = DownloadReconciler.reconcile(records: [record(.queued)], files: [], wall: wall)
        #expect(outcome.actions.last == .resume(F.id, partBytes: 0))
    }

    @Test func aPartLargerThanTheFileCanBeIsRemoved() {
        let outcome = DownloadReconciler.reconcile(records: [record(.downloading)], files: files(["steady-rain.mp3.part": 5000]), wall: wall)
        #expect(outcome.actions.contains(.deleteFile("steady-rain.mp3.part")))
        #expect(outcome.actions.last == .resume(F.id, partBytes: 0))
    }

    @Test func aDownloadFinishedJustBeforeAPowerCutIsVerifiedAndAdopted() {
        let outcome = DownloadReconciler.reconcile(records: [record(.downloading, bytesDone: 900)],
                                                   files: files(sideFiles.merging(["steady-rain.mp3": 1000]) { a, _ in a }), wall: wall)
        #expect(outcome.actions == [.verifyInstalled(F.id, adopt: true)])
        let adopted = DownloadReconciler.afterVerification(record(.downloading, bytesDone: 900), actual: F.digest, wall: wall)
        let saved = adopted.actions.compactMap { if case .saveRecord(let r) = $0 { r } else { nil } }
        #expect(saved.map(\.state) == [.complete])
        #expect(saved.first?.bytesDone == 1000)
    }

    @Test func aDamagedCopyFoundAtStartIsAFailedStateAndIsRemoved() {
        let outcome = DownloadReconciler.afterVerification(record(.complete, bytesDone: 1000), actual: F.otherDigest, wall: wall)
        #expect(outcome.actions.contains(.deleteFile("steady-rain.mp3")))
        #expect(outcome.actions.contains(.deleteFile("steady-rain.transcript.vtt")))
        let saved = outcome.actions.compactMap { if case .saveRecord(let r) = $0 { r } else { nil } }
        #expect(saved.map(\.state) == [.failed])
        #expect(DownloadStatus(record: saved[0]).failure?.reason.contains("checksum") == true)
    }

    @Test func aGoodCompleteCopyNeedsNoChange() {
        #expect(DownloadReconciler.afterVerification(record(.complete, bytesDone: 1000), actual: F.digest, wall: wall).actions.isEmpty)
    }

    @Test func anUnverifiedAdoptedFileRestartsTheDownload() {
        let outcome = DownloadReconciler.afterVerification(record(.downloading), actual: F.otherDigest, wall: wall)
        #expect(outcome.actions.contains(.deleteFile("steady-rain.mp3")))
        #expect(outcome.actions.last == .resume(F.id, partBytes: 0))
    }

    @Test func failedAndCancelledDownloadsLoseTheirPartFiles() {
        let outcome = DownloadReconciler.reconcile(
            records: [record(.failed, error: "x"), record(.cancelled, id: "other")],
            files: files(["steady-rain.mp3.part": 10, "other.mp3.part": 20]), wall: wall)
        #expect(Set(outcome.actions) == [.deleteFile("steady-rain.mp3.part"), .deleteFile("other.mp3.part")])
    }

    @Test func filesWithoutARecordAndTemporaryFilesAreRemovedOthersAreLeftAlone() {
        let outcome = DownloadReconciler.reconcile(
            records: [],
            files: files(["lost.mp3": 10, "lost.mp3.part": 5, "lost.transcript.vtt.tmp": 1, "README.txt": 4, ".hidden": 1]), wall: wall)
        #expect(Set(outcome.actions) == [.deleteFile("lost.mp3"), .deleteFile("lost.mp3.part"), .deleteFile("lost.transcript.vtt.tmp")])
    }

    @Test func aRecordWithAnInvalidIDIsDropped() {
        let outcome = DownloadReconciler.reconcile(records: [record(.complete, id: "../etc")], files: [], wall: wall)
        #expect(outcome.actions == [.deleteRecord(sessionID: "../etc")])
    }

    @Test func layoutNamesAndClassification() throws {
        #expect(DownloadLayout.localPath(for: F.id) == "downloads/steady-rain.mp3")
        #expect(DownloadLayout.classify("steady-rain.mp3.part")?.role == .partial)
        #expect(DownloadLayout.classify("steady-rain.breath.json")?.role == .breathCues)
        #expect(DownloadLayout.classify("steady-rain.provenance.json.tmp")?.role == .temporary)
        #expect(DownloadLayout.classify("steady-rain.wav") == nil)
        #expect(DownloadLayout.classify("Steady.mp3") == nil)
    }
}
