import EventLoop
import Glibc
import TestSupport
import Testing

extension EventLoopSuite {
    @Suite struct DirectoryWatcherTests {
        @Test func aReplacedSymlinkIsReportedByName() throws {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let loop = try EventLoop()
            var seen: [String] = []
            let watcher = try DirectoryWatcher(loop: loop, path: directory.path) { seen += $0 }
            // What timedatectl does: a new symlink renamed over the old one.
            symlink("/usr/share/zoneinfo/Europe/Berlin", directory.file("localtime.new"))
            rename(directory.file("localtime.new"), directory.file("localtime"))
            while !seen.contains("localtime") { try loop.runOnce() }
            #expect(seen.contains("localtime"))
            _ = watcher
        }
    }
}
