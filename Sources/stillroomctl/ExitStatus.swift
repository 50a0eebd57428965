/// stillroomctl's exit statuses, documented in its help.
enum ExitStatus: Int32 {
    case ok = 0
    /// The command reached the daemon (or the database) and failed.
    case failed = 1
    /// The command line was wrong.
    case usage = 2
    /// The daemon is not running (or not reachable) and the command needs it.
    case unreachable = 3
    /// The session, run or notice named does not exist.
    case notFound = 4
    /// The daemon refused this user.
    case refused = 5
}
