// History benchmark: the practice screen's queries over 100 000 runs.
//
//   swift build -c release --product history-bench && .build/release/history-bench [RUNS] [ROUNDS]
//
// Times what the history screen asks for at once — this month's calendar page, the 20 most recent
// runs and the totals — over RUNS runs (default 100 000) spread over ten years in Europe/Berlin,
// with some undated (untrusted clock) and some future-dated runs among them. Prints min / median / max
// over ROUNDS rounds (default 50). Figures go to docs/performance.md ("History"); not a test.
import Glibc
import StillroomCore

let arguments = CommandLine.arguments
let runCount = arguments.count > 1 ? Int(arguments[1]) ?? 100_000 : 100_000
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 50 : 50

func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[..<count]
    }
    return bytes
}

func summary(_ samples: [Duration]) -> String {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    func text(_ value: Duration) -> String {
        let microseconds = Int(Double(value.totalNanoseconds) / 1e3)
        if microseconds < 100 { return "\(microseconds) µs" }
        let hundredths = microseconds / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
    return "min \(text(sorted[0]))  median \(text(median))  max \(text(sorted[sorted.count - 1]))"
}

let clock = ContinuousClock()

// The zone: the real file when tzdata is installed, else the same rules from its POSIX string.
let zoneBytes = readFile("/usr/share/zoneinfo/Europe/Berlin")
var parseSamples: [Duration] = []
var zone = TimeZoneRules(posix: try! POSIXTimeZone(parsing: "CET-1CEST,M3.5.0,M10.5.0/3"))
if !zoneBytes.isEmpty {
    for _ in 0..<rounds {
        let start = clock.now
        zone = try! TimeZoneRules(tzif: zoneBytes)
        parseSamples.append(clock.now - start)
    }
}
let calendar = PracticeCalendar(timeZone: zone)

// Runs: ids ascending with time (as the store hands them out), ten years up to `now`.
let now: UnixMilliseconds = 1_779_271_200_000 // 2026-05-20 10:00:00Z
let span: Int64 = 10 * 365 * 86_400_000
var generator = SystemRandomNumberGenerator()
var runs: [PracticeRunRecord] = []
runs.reserveCapacity(runCount)
for index in 0..<runCount {
    let startedAt = now - span + span * Int64(index) / Int64(runCount) + Int64.random(in: 0..<600_000, using: &generator)
    let untrusted = index % 97 == 0
    let future = index % 1009 == 0
    let listening = Double.random(in: 10...1800, using: &generator)
    runs.append(PracticeRunRecord(
        id: Int64(index + 1), sessionID: "session-\(index % 40)",
        startedAt: untrusted ? Int64(index) * 1000 : future ? now + 86_400_000 : startedAt,
        actualListeningSeconds: listening, coveredSeconds: min(listening, 600), recordingSeconds: 600,
        completedAt: listening >= 540 ? startedAt + Int64(listening * 1000) : nil,
        clockTrusted: !untrusted, updatedAt: startedAt + Int64(listening * 1000)))
}

// The screen: month page + recent 20 + totals, from one history value.
var screenSamples: [Duration] = []
var checksum = 0.0
for _ in 0..<rounds {
    let start = clock.now
    let history = PracticeHistory(runs: runs, calendar: calendar, now: now)
    let page = history.month(history.today!.civilMonth)
    let recent = history.recentSessions(limit: 20)
    let totals = history.totals()
    screenSamples.append(clock.now - start)
    checksum += page.amount.listeningSeconds + Double(recent.count) + totals.allTime.listeningSeconds
}

// For reference: the parts, the streak and the exports.
@MainActor func time(_ body: (PracticeHistory) -> Double) -> [Duration] {
    let history = PracticeHistory(runs: runs, calendar: calendar, now: now)
    return (0..<max(3, rounds / 5)).map { _ in
        let start = clock.now
        checksum += body(history)
        return clock.now - start
    }
}
let monthSamples = time { $0.month($0.today!.civilMonth).amount.listeningSeconds }
let recentSamples = time { Double($0.recentSessions(limit: 20).count) }
let totalsSamples = time { $0.totals().allTime.listeningSeconds }
let streakSamples = time { Double($0.streak()!.days) }
let csvSamples = time { Double($0.exportCSV().utf8.count) }
let jsonSamples = time { Double($0.exportJSONText().utf8.count) }
let jsonValueSamples = time { $0.exportJSON() == .null ? 0 : 1 }

let sample = PracticeHistory(runs: runs, calendar: calendar, now: now)
print("history bench: \(runCount) runs over 10 years, Europe/Berlin (\(zoneBytes.isEmpty ? "POSIX rule" : "tzdata file")), \(rounds) rounds")
print("  month + recent 20 + totals:  \(summary(screenSamples))   (target <= 5 ms)")
print("    month page only:           \(summary(monthSamples))")
print("    recent 20 only:            \(summary(recentSamples))")
print("    totals only:               \(summary(totalsSamples))")
print("  streak (\(sample.streak()!.days) days):          \(summary(streakSamples))")
print("  export CSV:                  \(summary(csvSamples))")
print("  export JSON (text):          \(summary(jsonSamples))")
print("  export JSON (JSONValue):     \(summary(jsonValueSamples))")
if !parseSamples.isEmpty { print("  parse Europe/Berlin TZif:    \(summary(parseSamples))") }
print("  (checksum \(Int(checksum) % 1000))")
