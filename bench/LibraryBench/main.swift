// Library benchmark: what the box asks of libraries it could also do itself.
//
//   swift build -c release --product library-bench && .build/release/library-bench [CATALOG] [ROUNDS]
//
// - SHA-256 through libcrypto (`CryptoHash`): 50 MiB in 16 KiB chunks (libcurl's largest write callback),
//   the download path's running hash. Process CPU time, best of five, so other processes on a shared
//   machine do not count.
// - The catalog (default Content/catalog.json): `JSONValue.parse` (the syntax locator's pass, then
//   JSONDecoder) against JSONDecoder alone, min / median / max over ROUNDS rounds (default 200), so the
//   cost of knowing where a syntax error is can be read off. Then JSONDecoder alone on arrays nested 64 to
//   512 deep (the locator refuses more than 64 before the decoder runs), once each.
// Figures go to docs/architecture.md ("What is hand-written, and why"); not a test.
import CryptoHash
import FoundationEssentials
import Glibc
import StillroomCore

let arguments = CommandLine.arguments
let catalogPath = arguments.count > 1 ? arguments[1] : "Content/catalog.json"
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200

/// This process's CPU time (clock(3)).
func cpuSeconds() -> Double { Double(Glibc.clock()) / Double(CLOCKS_PER_SEC) }

func microseconds(_ value: Duration) -> String {
    "\(Int((Double(value.components.attoseconds) / 1e12 + Double(value.components.seconds) * 1e6).rounded())) µs"
}

func summary(_ samples: [Duration]) -> String {
    let sorted = samples.sorted()
    return "min \(microseconds(sorted[0]))  median \(microseconds(sorted[sorted.count / 2]))  max \(microseconds(sorted[sorted.count - 1]))"
}

// SHA-256.
let total = 50 << 20
let chunk = (0..<16_384).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
var best = Double.infinity
var hex = ""
for _ in 0..<5 {
    let start = cpuSeconds()
    let hasher = SHA256Hasher()
    var done = 0
    while done < total {
        chunk.withUnsafeBytes { hasher.update($0) }
        done += chunk.count
    }
    hex = hasher.finalize().hex
    best = min(best, cpuSeconds() - start)
}
print("sha-256 (libcrypto), 50 MiB: \(Int(best * 1000)) ms CPU, \(Int(Double(total) / best / 1_048_576)) MiB/s  (\(hex.prefix(16))…)")

// The catalog.
guard let data = try? Data(contentsOf: URL(filePath: catalogPath)), !data.isEmpty else {
    print("library-bench: cannot read \(catalogPath)")
    exit(1)
}
let clock = ContinuousClock()
var located: [Duration] = []
var decoded: [Duration] = []
for _ in 0..<rounds {
    var start = clock.now
    _ = try! JSONValue.parse(data)
    located.append(clock.now - start)
    start = clock.now
    _ = try! JSONDecoder().decode(JSONValue.self, from: data)
    decoded.append(clock.now - start)
}
print("\(catalogPath) (\(data.count) bytes), \(rounds) rounds:")
print("  JSONValue.parse (locator + JSONDecoder)  \(summary(located))")
print("  JSONDecoder alone                        \(summary(decoded))")

for depth in [64, 128, 256, 512] {
    let nested = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
    let start = clock.now
    _ = try? JSONDecoder().decode(JSONValue.self, from: nested)
    print("  JSONDecoder alone, arrays nested \(depth) deep  \(microseconds(clock.now - start))")
}
