import Glibc
import SystemCalls
import Testing

/// The one builder of Unix socket addresses: its three length rules (unix(7)), and an abstract name that
/// really reaches a socket bound at it (systemd may give $NOTIFY_SOCKET as "@name").
@Suite struct UnixSocketAddressTests {
    static let family = MemoryLayout<sa_family_t>.size

    @Test func aPathCountsItsNulAnAbstractNameDoesNotAndAutobindIsTheFamilyAlone() throws {
        #expect(try UnixSocketAddress("/run/x.sock").length == socklen_t(Self.family + 12))
        let abstract = try UnixSocketAddress("@stillroom")
        #expect(abstract.length == socklen_t(Self.family + 10))
        #expect(abstract.bytes[Self.family] == 0 && abstract.bytes.last == UInt8(ascii: "m"))
        #expect(UnixSocketAddress.autobind.length == socklen_t(Self.family))
    }

    @Test func aPathTooLongIsRefusedInWords() throws {
        #expect(try UnixSocketAddress("/" + String(repeating: "x", count: UnixSocketAddress.maximumPathBytes - 1)).length > 0)
        #expect(throws: SystemError.self) { try UnixSocketAddress("/" + String(repeating: "x", count: UnixSocketAddress.maximumPathBytes)) }
    }

    @Test func anAbstractNameReachesTheSocketBoundAtIt() throws {
        let name = "@stillroom-test-\(getpid())"
        let address = try UnixSocketAddress(name)
        let server = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(server) }
        #expect(address.withSockaddr { bind(server, $0, $1) } == 0)
        let client = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(client) }
        let sent = address.withSockaddr { target, length in
            Array("READY=1".utf8).withUnsafeBytes { sendto(client, $0.baseAddress, $0.count, 0, target, length) }
        }
        #expect(sent == 7)
        var buffer = [UInt8](repeating: 0, count: 16)
        let got = buffer.withUnsafeMutableBytes { recv(server, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        #expect(got == 7 && Array(buffer.prefix(7)) == Array("READY=1".utf8))
    }
}
