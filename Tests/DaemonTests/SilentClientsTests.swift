@testable import ControlSocket
import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// Connections that never ask anything: 40 of them made every stillroomctl "busy" for as long as they
/// stayed. Now a client that asks nothing for 30 s is closed. The daemon in this process on virtual time,
/// its real socket, the real CLI.
@Suite struct SilentClientsTests {
    func connect(to path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let made = withUnixSocketAddress(path) { Glibc.connect(fd, $0, $1) }
        return made == 0 ? fd : -1
    }

    @Test func fortySilentConnectionsAreClosedAfterTheIdleLimitAndTheCLIGetsIn() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        // In tens, the daemon accepting between them (its listen queue holds 16; this thread is its loop).
        var silent: [Int32] = []
        for _ in 0..<4 {
            silent += (0..<10).map { _ in connect(to: harness.socketPath) }
            try harness.advance(by: .milliseconds(1))
        }
        defer { for fd in silent where fd >= 0 { close(fd) } }
        #expect(silent.allSatisfy { $0 >= 0 })
        let crowded = harness.ctl("status")
        #expect(crowded.status != 0 && crowded.stderr.contains("busy"), "\(crowded)")
        // Bounded both ways: still full just before the limit, room just after.
        try harness.advance(by: ControlServer.idleLimit - .seconds(2))
        #expect(harness.ctl("status").stderr.contains("busy"))
        try harness.advance(by: .seconds(3))
        let status = harness.ctl("status")
        #expect(status.status == 0, "\(status)")
        #expect(harness.log.contains("asked nothing for 30 s; disconnected"))
    }

    /// A client that keeps asking is not idle, however long it stays.
    @Test func aClientThatKeepsAskingStays() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        let fd = connect(to: harness.socketPath)
        defer { close(fd) }
        try harness.advance(by: .milliseconds(1))
        for round in 0..<4 {
            try harness.advance(by: ControlServer.idleLimit - .seconds(5))
            let line = Array("{\"v\":1,\"id\":\(round),\"command\":\"status\"}\n".utf8)
            #expect(line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == line.count, "closed in round \(round)")
            try harness.advance(by: .milliseconds(1))
            var answer = [UInt8](repeating: 0, count: 65_536)
            #expect(recv(fd, &answer, answer.count, Int32(MSG_DONTWAIT)) > 0, "no answer in round \(round)")
        }
    }

    @Test func theLastSlotIsRoots() {
        let root = PeerCredentials(pid: 1, uid: 0, gid: 0)
        let member = PeerCredentials(pid: 2, uid: 1000, gid: 1000)
        #expect(ControlServer.hasRoom(for: member, clientCount: 30))
        #expect(!ControlServer.hasRoom(for: member, clientCount: 31))
        #expect(ControlServer.hasRoom(for: root, clientCount: 31))
        #expect(!ControlServer.hasRoom(for: root, clientCount: 32))
    }
}
