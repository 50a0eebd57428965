import Glibc
import TestSupport
import Testing

/// With the screen dark the box should wake only for the watchdog (bench/idle measures it). The minute
/// refresh of the on-screen clock was a second wake-up a minute; it now stops in the dark. Seen from
/// outside through the kernel: the loop's wall-clock timerfd (the minute timer's) is armed for the next
/// minute while the screen is lit, and only at the loop's far "never" deadline once it is dark.
@Suite struct DarkScreenWakeUpTests {
    @Test func theMinuteRefreshSleepsWhileTheScreenIsDark() throws {
        let harness = DaemonHarness()
        harness.extraArguments = ["--display", "png@320x240:\(harness.directory.file("screen.png"))", "--preview", "off"]
        harness.start()
        harness.ctl("settings", "set", "dim-after", "5")
        harness.ctl("settings", "set", "dark-after", "10")
        harness.stop()
        harness.start() // the dim and dark timers start with the stored settings
        let pid = try #require(harness.daemon?.pid)

        #expect(harness.ctl("status", "--json").stdout.contains(#""screen":"on""#))
        let lit = try #require(Self.wallTimerSecondsLeft(pid: pid))
        #expect(lit <= 60)

        // The dark timer fires 10 s after the start; the poll gives up after a minute (a guard, not a timing).
        let status = harness.waitForStatus(attempts: 600) { $0.contains(#""screen":"off""#) }
        #expect(status.contains(#""screen":"off""#))
        let dark = try #require(Self.wallTimerSecondsLeft(pid: pid))
        #expect(dark > 365 * 86_400) // the loop's "no wall timer" deadline, decades away
        harness.stop()
    }

    /// Seconds until the daemon's CLOCK_REALTIME timerfd expires, from /proc/PID/fdinfo.
    static func wallTimerSecondsLeft(pid: pid_t) -> Int? {
        for fd in 0..<64 {
            guard let info = try? String(contentsOfProcFile: "/proc/\(pid)/fdinfo/\(fd)"),
                  info.contains("clockid: 0"), let line = info.split(separator: "\n").first(where: { $0.hasPrefix("it_value:") }),
                  let open = line.firstIndex(of: "("), let comma = line.firstIndex(of: ",") else { continue }
            return Int(String(line[line.index(after: open)..<comma].filter { $0 != " " }))
        }
        return nil
    }
}

extension String {
    /// /proc files report a size of 0, so read until the end rather than by size.
    init(contentsOfProcFile path: String) throws {
        guard let file = fopen(path, "r") else { throw ProcReadError() }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

struct ProcReadError: Error {}
