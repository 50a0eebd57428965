import Glibc
import Testing

/// What a test needs from the machine (root, python3, a network namespace, shipped content), asked in
/// one place so that no test skips quietly.
///
/// `scripts/test` promises that everything in it ran. So when a need is not met:
/// - under CI (`CI=true`, as CI sets it) the test fails: a runner that cannot mount, or lacks python3,
///   must not go green;
/// - on a developer's machine the test is skipped loudly: a `SKIPPED: <test>: <why>` line on stderr, and
///   the same line appended to the file named by `STILLROOM_SKIP_LOG` (scripts/test sets it, empties it
///   first, and ends with the count).
///
/// Use it at the top of the test body, never as an `.enabled(if:)` trait (a trait skips before the body
/// runs, so nothing would be counted or failed):
///
///     guard Requirement.need(geteuid() == 0, "mounting a tmpfs needs root") else { return }
public enum Requirement {
    /// Whether this run is CI's: `CI=true` (or `CI=1`).
    public static var underCI: Bool {
        guard let value = getenv("CI").map({ String(cString: $0) }) else { return false }
        return value == "true" || value == "1"
    }

    /// Whether the test may go on. `false` only after the skip was recorded (locally) or the failure
    /// raised (under CI).
    public static func need(_ condition: Bool, _ why: @autoclosure () -> String,
                            fileID: String = #fileID, filePath: String = #filePath,
                            line: Int = #line, column: Int = #column) -> Bool {
        if condition { return true }
        return unmet(why(), underCI: underCI, skipLog: getenv("STILLROOM_SKIP_LOG").map { String(cString: $0) },
                     location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// An unmet need, with the environment given (so TestSupportTests can check both ways): a failure
    /// under CI, else a loud skip on stderr and in `skipLog`. Always `false`.
    public static func unmet(_ reason: String, underCI: Bool, skipLog: String?, location: SourceLocation,
                             sayOnStderr: Bool = true) -> Bool {
        if underCI {
            Issue.record(Comment(rawValue: "needed and missing under CI=true (a skip here would be a false pass): \(reason)"),
                         sourceLocation: location)
        } else {
            skipped(reason, skipLog: skipLog, location: location, sayOnStderr: sayOnStderr)
        }
        return false
    }

    /// The name the skip line gives: the suite and the test, as `swift test --filter` takes them.
    static var currentTestName: String {
        guard let test = Test.current else { return "(outside a test)" }
        let suite = test.id.nameComponents.dropLast().joined(separator: ".")
        let module = test.id.moduleName
        let name = test.name.hasSuffix("()") ? String(test.name.dropLast(2)) : test.name
        return [module, suite, name].filter { !$0.isEmpty }.joined(separator: ".")
    }

    /// Says "SKIPPED" on stderr, and appends it to `skipLog` (scripts/test's `STILLROOM_SKIP_LOG`) when set.
    static func skipped(_ reason: String, skipLog: String?, location: SourceLocation, sayOnStderr: Bool) {
        let line = "SKIPPED: \(currentTestName): \(reason) (\(location.fileID):\(location.line))\n"
        if sayOnStderr { writeAll(STDERR_FILENO, line) }
        if let path = skipLog, !path.isEmpty {
            // O_APPEND: each line lands whole even when tests in parallel processes skip at once.
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                writeAll(fd, line)
                close(fd)
            } else {
                writeAll(STDERR_FILENO, "SKIPPED (not logged: cannot open \(path): \(String(cString: strerror(errno))))\n")
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written > 0 { offset += written } else if errno != EINTR { return }
        }
    }
}
