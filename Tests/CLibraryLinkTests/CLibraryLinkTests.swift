// The C libraries this package declares link and answer: a guard against a broken pkg-config set-up.
// Every check here can fail: each call returns a value the library alone decides.
import CALSA
import CDRM
import CGPIOD
import Glibc
import Testing

@Test func debianLibrariesLinkAndReportVersions() {
    #expect(String(cString: snd_asoundlib_version()).hasPrefix("1."))
    #expect(String(cString: gpiod_version_string()).hasPrefix("1."))
    // libdrm's own name table (no device needed): DRM_MODE_CONNECTOR_HDMIA is "HDMI-A", DSI is "DSI".
    #expect(drmModeGetConnectorTypeName(UInt32(DRM_MODE_CONNECTOR_HDMIA)).map { String(cString: $0) } == "HDMI-A")
    #expect(drmModeGetConnectorTypeName(UInt32(DRM_MODE_CONNECTOR_DSI)).map { String(cString: $0) } == "DSI")
}

/// drmAvailable() answers whether /dev/dri/card0 opens and speaks DRM: it must agree with opening the
/// node ourselves and asking its version (1 on a Pi or the QEMU twin, 0 in this container).
@Test func drmAvailableAgreesWithTheDeviceNode() {
    let fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC)
    var expected: Int32 = 0
    if fd >= 0 {
        if let version = drmGetVersion(fd) {
            expected = 1
            drmFreeVersion(version)
        }
        close(fd)
    }
    #expect(drmAvailable() == expected)
}
