import Glibc
import SystemCalls
import TestSupport
import Testing

/// Whether `fd` is an open descriptor of this process.
func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

@Suite struct FileDescriptorTests {
    @Test func anExplicitCloseClosesOnceAndTheEndDoesNotCloseAgain() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var file: FileDescriptor? = try FileDescriptor.open(directory.path, O_RDONLY | O_DIRECTORY)
        let number = file!.rawValue
        file!.close()
        #expect(!isOpen(number) && errno == EBADF)
        // The kernel hands out the lowest free number: the next open very likely reuses it. Closing the
        // first owner again, or letting it go, must not close the newcomer.
        let newcomer = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(newcomer) }
        file!.close()
        file = nil
        #expect(isOpen(newcomer))
    }

    @Test func theLastReferenceClosesIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var number: Int32 = -1
        do {
            let file = try FileDescriptor.open(directory.path, O_RDONLY | O_DIRECTORY)
            number = file.rawValue
            #expect(isOpen(number))
        }
        #expect(!isOpen(number))
    }

    @Test func anOpenThatFailsNamesThePathAndTheErrno() {
        #expect(throws: SystemError("open", path: "/nowhere/at/all", errno: ENOENT)) {
            try FileDescriptor.open("/nowhere/at/all", O_RDONLY)
        }
        #expect(SystemError("open", path: "/nowhere", errno: ENOENT).description == "open /nowhere: No such file or directory")
        #expect(SystemError("epoll_wait", errno: EBADF).description == "epoll_wait: Bad file descriptor")
    }

    @Test func writeAllThenReadAllRoundTrips() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Files.replaceAtomically(directory.file("data"), with: bytes, temporary: directory.file("data.tmp"))
        #expect(try Files.readAll(directory.file("data"), limit: bytes.count) == bytes)
        #expect(!Files.isRegularFile(directory.file("data.tmp")))
    }
}
