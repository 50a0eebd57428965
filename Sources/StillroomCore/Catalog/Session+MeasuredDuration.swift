extension Session {
    /// How far the decoded audio may be from `durationSeconds`, in seconds. MP3 framing and encoder
    /// padding make a few hundred milliseconds of difference normal; more means the wrong file or a
    /// wrong declaration, which would skew progress, completion and practice minutes.
    public static let durationTolerance = 1.0

    /// Compares the declared duration with the length the decoder measured (mpg123, in the daemon).
    /// - Returns: `nil` when they agree within `tolerance` (inclusive, to the millisecond), else a problem
    ///   naming the session and both numbers.
    public func durationProblem(
        measuredSeconds: Double, fileName: String, tolerance: Double = Session.durationTolerance
    ) -> ContentProblem? {
        let problem = { (message: String) in
            ContentProblem(fileName: fileName, entry: .session(id), field: "durationSeconds", message: message)
        }
        guard measuredSeconds.isFinite && measuredSeconds > 0 else {
            return problem("the audio's length could not be measured (got \(formatNumberForMessage(measuredSeconds)) s)")
        }
        let differenceInMilliseconds = (abs(measuredSeconds - durationSeconds) * 1000).rounded()
        guard differenceInMilliseconds > (tolerance * 1000).rounded() else { return nil }
        return problem(
            "declares \(formatNumberForMessage(durationSeconds)) s, but the audio lasts \(formatNumberForMessage(measuredSeconds)) s "
                + "(\(formatNumberForMessage(differenceInMilliseconds / 1000)) s apart; at most \(formatNumberForMessage(tolerance)) s allowed)")
    }
}
