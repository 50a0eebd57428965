import FoundationEssentials
import Glibc
import StillroomCore
import SystemCalls

/// lifesim: boxes living whole lives on virtual time (docs/reliability.md).
///
///     lifesim [--seed N] [--seeds N] [--days D | --years Y] [--replay] [--events FILE] [--shrink]
///
/// Each seed is one box's life: `--days` long (a year by default). `--seeds N` runs N seeds from `--seed`
/// on; `--years Y` runs seeds until Y box-years have been lived. A broken promise prints the seed, the
/// event it came after and the way to replay it, and with `--shrink` the shortest list of events that
/// still breaks it (written to a file `--events` replays). Exit status 1 when any life failed.
/// `LIFESIM_LOG_LINES=N` shows the box's last N log lines beside a failure (15 by default);
/// `LIFESIM_SAY=1` prints everything the boxes say as they say it ("said: …").
struct Arguments {
    var seed: UInt64 = 1
    var seeds = 1
    var days = 365
    var years: Double?
    var replay = false
    var eventsFile: String?
    var shrink = false

    init(_ words: [String]) throws(UsageError) {
        var rest = words[...]
        func value(_ name: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError("\(name) needs a value") }
            return next
        }
        while let word = rest.popFirst() {
            switch word {
            case "--seed": guard let n = UInt64(try value(word)) else { throw UsageError("--seed: a whole number") }; seed = n
            case "--seeds": guard let n = Int(try value(word)), n > 0 else { throw UsageError("--seeds: a count") }; seeds = n
            case "--days": guard let n = Int(try value(word)), n > 0, n <= 36_500 else { throw UsageError("--days: 1 to 36500") }; days = n
            case "--years": guard let n = Double(try value(word)), n > 0 else { throw UsageError("--years: a number above 0") }; years = n
            case "--replay": replay = true
            case "--events": eventsFile = try value(word)
            case "--shrink": shrink = true
            default: throw UsageError("unknown argument \(word)")
            }
        }
    }
}

struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

func realSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A line on stderr (one write: the standard error stream is the process's, not a shared buffer).
func complain(_ text: String) {
    let line = "lifesim: " + text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
}

/// A line on stdout, written at once (a long run is watched as it goes).
func say(_ text: String) {
    let line = text + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
}

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    complain(error.message)
    exit(2)
}

let repository = String(cString: getcwd(nil, 0))
guard access(repository + "/Tests/Fixtures/audio", R_OK) == 0 else {
    complain("run from the repository (its fixtures and sounds make the boxes' content)")
    exit(2)
}
guard geteuid() == 0 else {
    complain("needs root: each box's card is a small tmpfs it mounts, fills and turns read-only")
    exit(2)
}
DiskCache.install()
let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
let scratch: String
do { scratch = try Files.makeTemporaryFolder(prefix: base + "/stillroom-lifesim.") } catch {
    complain("no scratch folder: \(error)")
    exit(2)
}
defer { Shell.run("rm -rf '\(scratch)'") }
LifeContent.make(in: scratch + "/content", repository: repository)

var failed = false
var livedDays = 0
let started = realSeconds()
var seed = arguments.seed
var remaining = arguments.seeds
while true {
    if let years = arguments.years { if Double(livedDays) / 365 >= years { break } } else if remaining == 0 { break }
    remaining -= 1
    let schedule: Schedule
    if let file = arguments.eventsFile {
        guard let bytes = try? Files.readAll(file, limit: 1 << 26), let read = Schedule(text: String(decoding: bytes, as: UTF8.self)) else {
            complain("\(file) is not a list of events")
            exit(2)
        }
        schedule = read
    } else {
        schedule = LifeGenerator.life(seed: seed, days: arguments.days)
    }
    // Said before the life begins: a trap in the daemon ends this process, and the seed must be on record.
    say("seed \(seed): living \(arguments.days) days")
    let outcome = LifeRun.run(schedule, days: arguments.days, scratch: scratch, label: "seed \(seed)", verbose: arguments.replay)
    livedDays += outcome.days
    say(outcome.summary)
    if let failure = outcome.failure {
        failed = true
        say("lifesim: seed \(seed) FAILED on day \(failure.at / 86_400) (second \(failure.at), after event \(failure.eventsDone)): \(failure.violation)")
        say("lifesim: replay with: lifesim --seed \(seed) --days \(arguments.days) --replay")
        if arguments.shrink {
            let shortest = Shrinker.shrink(schedule, days: arguments.days, scratch: scratch, failing: failure.violation.invariant)
            let file = repository + "/.build/lifesim-seed-\(seed).events"
            try? Files.replaceAtomically(file, with: Array(shortest.text.utf8), temporary: file + ".part")
            say("lifesim: the shortest life that still fails (\(shortest.entries.count) events, in \(file)):")
            for entry in shortest.entries { say("  \(entry.at) \(entry.event)") }
            say("lifesim: replay it with: lifesim --events \(file) --days \(arguments.days) --replay")
        }
        if arguments.years == nil && arguments.seeds == 1 { break }
    }
    if arguments.eventsFile != nil { break }
    seed += 1
}
let real = realSeconds() - started
let years = Double(livedDays) / 365
say("lifesim: \(format3(years)) box-years in \(Int(real)) s: \(NumberText.oneDecimal(Double(livedDays) / max(real, 0.001))) days a second, \(Int(years / max(real, 0.001) * 3600)) box-years an hour\(failed ? "; FAILED" : "")")
exit(failed ? 1 : 0)
