/// When to try a transient failure again: exponential backoff with a cap and jitter.
///
/// The n-th retry in a row waits `initialDelay × 2^(n-1)`, capped at `maximumDelay`, then spread by
/// ±`jitterFraction` with a random value the caller passes in (so a box that lost its network does not
/// retry in lock-step with every other box on the same server, and tests stay deterministic).
/// A retry that made progress starts the count again; `maximumAttemptsWithoutProgress` failures in a
/// row with no new byte end the download as failed.
public struct RetryPolicy: Sendable, Hashable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// 0 ... 1: the delay is multiplied by a factor in `1 - jitterFraction ... 1 + jitterFraction`.
    public var jitterFraction: Double
    public var maximumAttemptsWithoutProgress: Int

    public init(initialDelay: Duration = .seconds(2), maximumDelay: Duration = .seconds(300),
                jitterFraction: Double = 0.2, maximumAttemptsWithoutProgress: Int = 8) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitterFraction = min(1, max(0, jitterFraction))
        self.maximumAttemptsWithoutProgress = max(1, maximumAttemptsWithoutProgress)
    }

    /// The wait before retry number `attempt` (1 for the first retry).
    /// - Parameter randomUnit: a value in 0 ..< 1 from the caller's random source (0.5 means no jitter).
    public func delay(forRetry attempt: Int, randomUnit: Double) -> Duration {
        let initial = Double(initialDelay.totalNanoseconds)
        let cap = Double(maximumDelay.totalNanoseconds)
        let exponent = Double(min(max(attempt, 1) - 1, 62))
        let base = min(cap, initial * pow2(exponent))
        let unit = min(1, max(0, randomUnit))
        let factor = 1 - jitterFraction + 2 * jitterFraction * unit
        let nanoseconds = min(cap, base * factor)
        return .nanoseconds(Int64(nanoseconds.rounded()))
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        var remaining = exponent
        while remaining >= 1 {
            result *= 2
            remaining -= 1
        }
        return result
    }
}

/// Everything the download state machine needs to decide, in one value.
public struct DownloadPolicy: Sendable, Hashable {
    public var retry: RetryPolicy
    /// Kept free on the card beyond the download itself, so the database and logs always have room.
    public var reserveBytes: Int64
    /// Redirects followed for one request; each hop is checked against `hosts`.
    public var maximumRedirects: Int
    /// How often a running download writes its progress to the database (it resumes from the `.part`
    /// file's real size anyway; the record is for the CLI when the daemon is down).
    public var progressSaveInterval: Duration
    public var hosts: DownloadHostAllowList

    public init(hosts: DownloadHostAllowList, retry: RetryPolicy = RetryPolicy(), reserveBytes: Int64 = 32_000_000,
                maximumRedirects: Int = 5, progressSaveInterval: Duration = .seconds(10)) {
        self.hosts = hosts
        self.retry = retry
        self.reserveBytes = max(0, reserveBytes)
        self.maximumRedirects = max(0, maximumRedirects)
        self.progressSaveInterval = progressSaveInterval
    }
}
