import StillroomCore

/// Shared values for the download core tests.
enum DownloadFixtures {
    static let digest = try! SHA256Digest(validating: String(repeating: "ab", count: 32))
    static let otherDigest = try! SHA256Digest(validating: String(repeating: "cd", count: 32))
    static let id = try! ContentID(validating: "steady-rain")
    static let url = try! RemoteURL(parsing: "https://content.example/remote/steady-rain.mp3")
    static let target = DownloadTarget(sessionID: id, url: url, byteCount: 1000, sha256: digest)
    static let hosts = DownloadHostAllowList(["content.example", "mirror.example"])
    static let policy = DownloadPolicy(
        hosts: hosts,
        retry: RetryPolicy(initialDelay: .seconds(2), maximumDelay: .seconds(60), jitterFraction: 0.2, maximumAttemptsWithoutProgress: 3),
        reserveBytes: 500, maximumRedirects: 2, progressSaveInterval: .seconds(10))

    static func at(_ seconds: Int, random: Double = 0.5) -> DownloadMoment {
        DownloadMoment(now: MonotonicInstant(nanoseconds: UInt64(seconds) * 1_000_000_000), wall: 1_700_000_000_000 + Int64(seconds) * 1000,
                       randomUnit: random)
    }

    static let plenty = SpaceReport(availableBytes: 1_000_000)

    /// A job that has started its first transfer.
    static func downloadingJob(keepsPreviousCopy: Bool = false) -> DownloadJob {
        var (job, _) = DownloadJob.queue(target, localPath: DownloadLayout.localPath(for: id), keepsPreviousCopy: keepsPreviousCopy,
                                         policy: policy, at: at(0))
        _ = job.handle(.start(plenty), at: at(0))
        return job
    }

    static func savedStates(_ effects: [DownloadEffect]) -> [AudioDownloadState] {
        effects.compactMap { if case .saveRecord(let record) = $0 { record.state } else { nil } }
    }
}
