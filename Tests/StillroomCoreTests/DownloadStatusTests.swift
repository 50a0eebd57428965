import StillroomCore
import Testing

@Suite struct DownloadStatusTests {
    typealias F = DownloadFixtures

    @Test func downloadingShowsBytesAndPercent() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(0))
        _ = job.handle(.progress(bytesDone: 250), at: F.at(0))
        let status = DownloadStatus(job: job)
        #expect(status.state == .downloading)
        #expect(status.percent == 25)
        #expect(status.summary() == "Downloading 250 bytes of 1.0 kB (25%)")
        #expect(status.canCancel && !status.canDownload)
    }

    @Test func waitingToRetryStaysDownloadingAndSaysWhy() {
        var job = F.downloadingJob()
        _ = job.handle(.transferFailed(.httpStatus(503)), at: F.at(10))
        let status = DownloadStatus(job: job)
        #expect(status.state == .downloading)
        #expect(status.failure == .httpStatus(503))
        #expect(status.summary(now: F.at(11).now).hasSuffix("Service Unavailable. Trying again in 1 s."))
    }

    @Test func failedShowsReasonAndOffersRetryAndRemove() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 404)), at: F.at(0))
        let status = DownloadStatus(job: job)
        #expect(status.state == .failed)
        #expect(status.canDownload && status.canRemove)
        #expect(status.summary() == "Download failed: The server answered HTTP 404 Not Found.")
        #expect(status.failure?.code == "http_404") // on the wire: ControlProtocolTests.ResultEncodingTests
    }

    @Test func aFailedUpdateStillPlaysTheEarlierCopy() {
        var job = F.downloadingJob(keepsPreviousCopy: true)
        _ = job.handle(.response(ResponseHead(status: 404)), at: F.at(0))
        let status = DownloadStatus(job: job)
        #expect(status.isPlayableOffline)
        #expect(status.summary().hasSuffix("The earlier copy is still on this box."))
    }

    @Test func recordsReadBackAsStatuses() {
        let complete = AudioDownloadRecord(sessionID: "a", localPath: "downloads/a.mp3", state: .complete, bytesDone: 1000, bytesTotal: 1000,
                                           sha256: F.digest.hex, updatedAt: 1)
        #expect(DownloadStatus(record: complete).state == .onThisBox)
        #expect(DownloadStatus(record: complete).summary() == "On this box (1.0 kB)")
        var failed = complete
        failed.state = .failed
        failed.error = DownloadFailure.stalled.recordText
        let status = DownloadStatus(record: failed)
        #expect(status.failure?.reason == DownloadFailure.stalled.reason)
        #expect(status.failure?.advice == DownloadFailure.stalled.advice)
        #expect(DownloadStatus.State.allCases.map(\.rawValue) == [
            "available", "queued", "downloading", "cancelled", "verifying", "on_this_box", "failed",
        ])
    }
}

/// The full card's sentence reads as English at zero too ("0 bytes is free" it said).
@Suite struct SpaceShortageWordsTests {
    @Test func aCardWithNoRoomLeftSaysSo() {
        let none = DownloadFailure.diskFull(SpaceShortage(neededBytes: 210_000, availableBytes: 0, reserveBytes: 10_000)).reason
        #expect(none.hasSuffix("kept free; the card has no room left)."), "\(none)")
        #expect(!none.contains("0 bytes"))
        let some = DownloadFailure.diskFull(SpaceShortage(neededBytes: 210_000, availableBytes: 1, reserveBytes: 10_000)).reason
        #expect(some.hasSuffix("1 byte free now)."), "\(some)")
    }
}
