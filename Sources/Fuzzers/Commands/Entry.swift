import FuzzReplay
import Glibc

/// One input: libFuzzer's callback in fuzz builds, and each corpus file when replaying.
let fuzzOne: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, count in
    CommandFuzzer.shared.check(data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
    return 0
}

/// `fuzz-commands [libFuzzer options] CORPUS...` in fuzz builds; `fuzz-commands FILE|FOLDER...` replays.
@main struct Entry {
    static func main() { exit(FuzzReplay.main(fuzzOne)) }
}
