import FuzzReplay
import Glibc
import StillroomCore

/// One input: libFuzzer's callback in fuzz builds, and each corpus file when replaying.
let fuzzOne: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, count in
    CommandFuzzer.shared.check(data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
    return 0
}

/// `fuzz-commands [libFuzzer options] CORPUS...` in fuzz builds; `fuzz-commands FILE|FOLDER...` replays.
/// Built normally it also takes `--generate COUNT SEED`: that many programs of requests made from a
/// seeded generator, so scripts/test exercises the command layer broadly without a sanitizer build.
@main struct Entry {
    static func main() {
        let arguments = CommandLine.arguments
        #if !FUZZING
        if arguments.count == 4, arguments[1] == "--generate", let count = Int(arguments[2]), let seed = UInt64(arguments[3]) {
            var generator = SplitMix64(seed: seed)
            for _ in 0..<max(0, count) {
                let length = Int(generator.next() % 96) + 1
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                bytes.withUnsafeBufferPointer { _ = fuzzOne($0.baseAddress, $0.count) }
            }
            print("generated \(count) programs of requests (seed \(seed)), no failure")
            exit(0)
        }
        #endif
        exit(FuzzReplay.main(fuzzOne))
    }
}
