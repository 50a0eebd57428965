// The C libraries this package declares link and answer: a guard against a broken pkg-config set-up.
import CALSA
import CDRM
import CGPIOD
import Testing

@Test func debianLibrariesLinkAndReportVersions() {
    #expect(String(cString: snd_asoundlib_version()).hasPrefix("1."))
    #expect(String(cString: gpiod_version_string()).hasPrefix("1."))
    // drmAvailable() probes for a DRM device; on a machine without one it answers 0, which is fine.
    let available = drmAvailable()
    #expect(available == 0 || available == 1)
}
