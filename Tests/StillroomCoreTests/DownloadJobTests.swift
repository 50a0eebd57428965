import StillroomCore
import Testing

@Suite struct DownloadJobTests {
    typealias F = DownloadFixtures

    @Test func aQueuedJobSavesItsRecordAndStartsWithTheSlot() throws {
        var (job, effects) = DownloadJob.queue(F.target, localPath: "downloads/steady-rain.mp3", policy: F.policy, at: F.at(0))
        #expect(job.phase == .queued)
        #expect(F.savedStates(effects) == [.queued])
        let started = job.handle(.start(F.plenty), at: F.at(1))
        #expect(job.phase == .downloading)
        #expect(started.first == .startTransfer(url: F.url, offset: 0))
        #expect(F.savedStates(started) == [.downloading])
    }

    @Test func theWholeHappyPath() {
        var job = F.downloadingJob()
        #expect(job.handle(.response(ResponseHead(status: 200, contentLength: 1000)), at: F.at(1)).isEmpty)
        #expect(job.isReceivingBody)
        #expect(job.handle(.progress(bytesDone: 400), at: F.at(2)).isEmpty)
        #expect(job.handle(.transferEnded(bytesDone: 1000), at: F.at(3)) == [.verify])
        #expect(job.phase == .verifying)
        #expect(job.handle(.verified(F.digest), at: F.at(3)) == [.install])
        let installed = job.handle(.installed, at: F.at(3))
        #expect(job.phase == .installed)
        guard case .saveRecord(let record) = installed.first else {
            Issue.record("no record saved")
            return
        }
        #expect(record.state == .complete)
        #expect(record.bytesDone == 1000)
        #expect(record.sha256 == F.digest.hex)
        #expect(record.localPath == "downloads/steady-rain.mp3")
    }

    @Test func progressIsSavedAtMostOncePerInterval() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(0))
        #expect(job.handle(.progress(bytesDone: 100), at: F.at(5)).isEmpty)
        #expect(F.savedStates(job.handle(.progress(bytesDone: 200), at: F.at(10))) == [.downloading])
        #expect(job.handle(.progress(bytesDone: 300), at: F.at(15)).isEmpty)
    }

    @Test func notEnoughSpaceAtTheStartFailsWithTheShortfallAndWhatToRemove() throws {
        var (job, _) = DownloadJob.queue(F.target, localPath: "p", policy: F.policy, at: F.at(0))
        let removable = [RemovableDownload(sessionID: try ContentID(validating: "old"), title: "Old rain", bytes: 3_000_000)]
        let effects = job.handle(.start(SpaceReport(availableBytes: 1200, removable: removable)), at: F.at(0))
        guard case .failed(.diskFull(let shortage)) = job.phase else {
            Issue.record("expected disk full, got \(job.phase)")
            return
        }
        #expect(shortage.neededBytes == 1500) // 1000 + 500 reserve
        #expect(shortage.missingBytes == 300)
        #expect(!effects.contains { if case .startTransfer = $0 { true } else { false } })
        #expect(effects.contains(.removePartial))
        #expect(F.savedStates(effects) == [.failed])
        let failure = DownloadFailure.diskFull(shortage)
        #expect(failure.reason.contains("300 bytes more is needed"))
        #expect(failure.advice.contains("\"Old rain\" (3.0 MB)"))
        #expect(!failure.isTransient)
    }

    @Test func aResumedJobAsksForTheRestAndNeedsSpaceOnlyForIt() {
        var job = DownloadJob.resume(F.target, localPath: "p", partBytes: 800, policy: F.policy)
        // 200 bytes left + 500 reserve = 700 needed.
        let effects = job.handle(.start(SpaceReport(availableBytes: 700)), at: F.at(0))
        #expect(effects.first == .startTransfer(url: F.url, offset: 800))
        let range = ContentRange(first: 800, last: 999, completeLength: 1000)
        #expect(job.handle(.response(ResponseHead(status: 206, contentLength: 200, contentRange: range)), at: F.at(0)).isEmpty)
        #expect(job.isReceivingBody)
    }

    @Test func aServerThatIgnoresRangeRestartsTheFileFromZero() {
        var job = DownloadJob.resume(F.target, localPath: "p", partBytes: 800, policy: F.policy)
        _ = job.handle(.start(F.plenty), at: F.at(0))
        #expect(job.handle(.response(ResponseHead(status: 200, contentLength: 1000)), at: F.at(0)) == [.discardPartialBytes])
        #expect(job.bytesDone == 0)
        #expect(job.isReceivingBody)
    }

    @Test func aPartialAnswerFromTheWrongOffsetIsRefused() {
        var job = DownloadJob.resume(F.target, localPath: "p", partBytes: 800, policy: F.policy)
        _ = job.handle(.start(F.plenty), at: F.at(0))
        let range = ContentRange(first: 0, last: 999, completeLength: 1000)
        _ = job.handle(.response(ResponseHead(status: 206, contentRange: range)), at: F.at(0))
        guard case .failed(.badResponse) = job.phase else {
            Issue.record("expected a bad response, got \(job.phase)")
            return
        }
    }

    @Test func anAnnouncedSizeAboveTheManifestIsOversizeAndPermanent() {
        var job = F.downloadingJob()
        let effects = job.handle(.response(ResponseHead(status: 200, contentLength: 5000)), at: F.at(0))
        #expect(job.phase == .failed(.oversize(bytes: 5000, limit: 1000)))
        #expect(effects.contains(.stopTransfer) && effects.contains(.removePartial))
    }

    @Test func anAnnouncedSizeBelowTheManifestIsASizeMismatch() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 200, contentLength: 999)), at: F.at(0))
        #expect(job.phase == .failed(.sizeMismatch(server: 999, manifest: 1000)))
    }

    @Test func moreBytesThanTheManifestSaysFailsAsOversize() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(0))
        _ = job.handle(.progress(bytesDone: 1001), at: F.at(0))
        #expect(job.phase == .failed(.oversize(bytes: 1001, limit: 1000)))
    }

    @Test(arguments: [500, 502, 503, 429, 408])
    func transientStatusesRetryWithBackoff(status: Int) {
        var job = F.downloadingJob()
        let effects = job.handle(.response(ResponseHead(status: status)), at: F.at(10))
        let due = MonotonicInstant(nanoseconds: 12_000_000_000) // 2 s initial delay, no jitter at 0.5
        #expect(job.phase == .waitingToRetry(at: due, after: .httpStatus(status)))
        #expect(effects.contains(.scheduleRetry(at: due)))
        #expect(effects.contains(.stopTransfer))
        #expect(!effects.contains(.removePartial))
        let retried = job.handle(.retryDue(F.plenty), at: F.at(12))
        #expect(retried.first == .startTransfer(url: F.url, offset: 0))
        #expect(job.phase == .downloading)
    }

    @Test(arguments: [400, 401, 403, 404, 410, 416])
    func clientErrorsFailAtOnce(status: Int) {
        var job = F.downloadingJob()
        let effects = job.handle(.response(ResponseHead(status: status)), at: F.at(0))
        #expect(job.phase == .failed(.httpStatus(status)))
        #expect(!effects.contains { if case .scheduleRetry = $0 { true } else { false } })
        #expect(F.savedStates(effects) == [.failed])
    }

    @Test func aDroppedConnectionResumesFromWhereItStopped() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 200, contentLength: 1000)), at: F.at(0))
        _ = job.handle(.progress(bytesDone: 300), at: F.at(1))
        _ = job.handle(.transferFailed(.connectionLost("reset")), at: F.at(1))
        #expect(job.bytesDone == 300)
        let effects = job.handle(.retryDue(F.plenty), at: F.at(3))
        #expect(effects.first == .startTransfer(url: F.url, offset: 300))
    }

    @Test func aCleanEndBeforeTheLastByteIsRetried() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(0))
        _ = job.handle(.transferEnded(bytesDone: 600), at: F.at(1))
        guard case .waitingToRetry(_, .endedEarly(600, 1000)) = job.phase else {
            Issue.record("expected a retry, got \(job.phase)")
            return
        }
    }

    @Test func repeatedFailuresWithoutProgressGiveUp() {
        var job = F.downloadingJob()
        for second in [0, 10, 20] {
            if second > 0 { _ = job.handle(.retryDue(F.plenty), at: F.at(second)) }
            _ = job.handle(.transferFailed(.cannotConnect("refused")), at: F.at(second))
        }
        #expect(job.phase == .failed(.gaveUp(attempts: 3, last: .cannotConnect("refused"))))
    }

    @Test func progressBetweenFailuresStartsTheCountAgain() {
        var job = F.downloadingJob()
        var bytes: Int64 = 0
        for second in stride(from: 0, to: 100, by: 10) {
            if second > 0 { _ = job.handle(.retryDue(F.plenty), at: F.at(second)) }
            let range = ContentRange(first: bytes, last: 999, completeLength: 1000)
            _ = job.handle(.response(ResponseHead(status: bytes == 0 ? 200 : 206, contentRange: range)), at: F.at(second))
            bytes += 50
            _ = job.handle(.progress(bytesDone: bytes), at: F.at(second))
            _ = job.handle(.transferFailed(.connectionLost("reset")), at: F.at(second))
            #expect(job.failuresWithoutProgress == 1)
        }
        guard case .waitingToRetry = job.phase else {
            Issue.record("expected still retrying, got \(job.phase)")
            return
        }
    }

    @Test func aChecksumMismatchFailsAndRemovesThePartialFile() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(0))
        _ = job.handle(.transferEnded(bytesDone: 1000), at: F.at(0))
        let effects = job.handle(.verified(F.otherDigest), at: F.at(0))
        #expect(job.phase == .failed(.checksumMismatch(expected: F.digest, actual: F.otherDigest)))
        #expect(effects.contains(.removePartial))
        #expect(!effects.contains(.install))
        #expect(!DownloadFailure.checksumMismatch(expected: F.digest, actual: F.otherDigest).isTransient)
    }

    @Test func redirectsWithinTheAllowListAreFollowedWithTheSameOffset() throws {
        var job = DownloadJob.resume(F.target, localPath: "p", partBytes: 100, policy: F.policy)
        _ = job.handle(.start(F.plenty), at: F.at(0))
        let effects = job.handle(.response(ResponseHead(status: 302, location: "https://mirror.example/x.mp3")), at: F.at(0))
        let mirror = try RemoteURL(parsing: "https://mirror.example/x.mp3")
        #expect(effects == [.stopTransfer, .startTransfer(url: mirror, offset: 100)])
        #expect(job.currentURL == mirror)
        // Relative locations resolve against the current URL.
        let relative = job.handle(.response(ResponseHead(status: 301, location: "/y.mp3")), at: F.at(0))
        #expect(relative.last == .startTransfer(url: try RemoteURL(parsing: "https://mirror.example/y.mp3"), offset: 100))
        // The third hop is beyond maximumRedirects (2).
        _ = job.handle(.response(ResponseHead(status: 307, location: "/z.mp3")), at: F.at(0))
        #expect(job.phase == .failed(.tooManyRedirects(2)))
    }

    @Test(arguments: [
        "https://evil.example/x.mp3",
        "http://content.example/x.mp3",
        "https://content.example.evil.example/x.mp3",
        "https://user@content.example/x.mp3",
    ])
    func redirectsOffTheAllowListFailPermanently(location: String) {
        var job = F.downloadingJob()
        let effects = job.handle(.response(ResponseHead(status: 302, location: location)), at: F.at(0))
        guard case .failed(.redirectRefused) = job.phase else {
            Issue.record("expected a refused redirect, got \(job.phase)")
            return
        }
        #expect(effects.contains(.stopTransfer))
        #expect(!effects.contains { if case .startTransfer = $0 { true } else { false } })
    }

    @Test func aRedirectWithoutLocationIsABadResponse() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 302)), at: F.at(0))
        guard case .failed(.badResponse) = job.phase else {
            Issue.record("expected a bad response, got \(job.phase)")
            return
        }
    }

    @Test func aTargetOffTheAllowListNeverStarts() throws {
        let target = DownloadTarget(sessionID: F.id, url: try RemoteURL(parsing: "https://other.example/a.mp3"), byteCount: 10, sha256: F.digest)
        var (job, _) = DownloadJob.queue(target, localPath: "p", policy: F.policy, at: F.at(0))
        let effects = job.handle(.start(F.plenty), at: F.at(0))
        guard case .failed(.refusedURL) = job.phase else {
            Issue.record("expected a refused URL, got \(job.phase)")
            return
        }
        #expect(!effects.contains { if case .startTransfer = $0 { true } else { false } })
    }

    @Test func cancellingStopsEverythingAndRemovesThePartialFile() {
        var job = F.downloadingJob()
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(0))
        _ = job.handle(.progress(bytesDone: 500), at: F.at(0))
        let effects = job.handle(.cancel, at: F.at(1))
        #expect(job.phase == .cancelled)
        #expect(effects.prefix(3) == [.stopTransfer, .cancelRetry, .removePartial])
        #expect(F.savedStates(effects) == [.cancelled])
        // Late reports from the stopped transfer change nothing.
        #expect(job.handle(.progress(bytesDone: 600), at: F.at(1)).isEmpty)
        #expect(job.handle(.transferEnded(bytesDone: 1000), at: F.at(1)).isEmpty)
        #expect(job.phase == .cancelled)
        // Asking again queues it from zero.
        #expect(F.savedStates(job.handle(.request, at: F.at(2))) == [.queued])
        #expect(job.phase == .queued && job.bytesDone == 0)
    }

    @Test func anUpdateNeverTouchesTheRecordOfTheCopyOnTheBoxUntilItIsInstalled() {
        var job = F.downloadingJob(keepsPreviousCopy: true)
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(0))
        let failed = job.handle(.transferFailed(.httpStatus(404)), at: F.at(1))
        #expect(F.savedStates(failed).isEmpty)
        #expect(failed.contains(.removePartial))
        #expect(F.savedStates(job.handle(.request, at: F.at(2))).isEmpty)
        _ = job.handle(.start(F.plenty), at: F.at(2))
        #expect(F.savedStates(job.handle(.cancel, at: F.at(3))).isEmpty)
        _ = job.handle(.request, at: F.at(4))
        _ = job.handle(.start(F.plenty), at: F.at(4))
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(4))
        _ = job.handle(.transferEnded(bytesDone: 1000), at: F.at(5))
        _ = job.handle(.verified(F.digest), at: F.at(5))
        #expect(F.savedStates(job.handle(.installed, at: F.at(5))) == [.complete])
    }

    @Test func aFailedInstallIsAFailedStateWithoutTouchingThePreviousCopy() {
        var job = F.downloadingJob(keepsPreviousCopy: true)
        _ = job.handle(.response(ResponseHead(status: 200)), at: F.at(0))
        _ = job.handle(.transferEnded(bytesDone: 1000), at: F.at(0))
        _ = job.handle(.verified(F.digest), at: F.at(0))
        let effects = job.handle(.installFailed(.cannotWrite("rename: EIO")), at: F.at(0))
        #expect(job.phase == .failed(.cannotWrite("rename: EIO")))
        #expect(effects.contains(.removePartial))
        #expect(F.savedStates(effects).isEmpty)
        #expect(DownloadStatus(job: job).isPlayableOffline)
    }
}
