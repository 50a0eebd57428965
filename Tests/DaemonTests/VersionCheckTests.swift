import Glibc
import Testing
import TestSupport

/// Versions only go forward (board/rauc/stillroom-version-check, RAUC's pre-install handler, run by /bin/sh
/// as RAUC runs it: the mounted bundle's manifest, a version file standing for the running image's). The twin refuses
/// an older bundle through RAUC itself (image/qemu/update_scenarios.py, the refusals scenario).
@Suite struct VersionCheckTests {
    final class Box {
        let directory = TemporaryDirectory("stillroom-version-check")
        var folder: String { directory.file("update") }
        var bundle: String { directory.file("bundle") }
        var allowance: String { folder + "/allow-downgrade" }

        init(running: String) {
            mkdir(folder, 0o755)
            mkdir(bundle, 0o755)
            Files.write(running + "\n", to: directory.file("version"))
        }

        deinit { directory.remove() }

        func check(_ version: String) -> (status: Int32, stdout: String, stderr: String) {
            Files.write("[update]\ncompatible=stillroom-qemu-amd64\nversion=\(version)\n\n[bundle]\nformat=verity\n", to: bundle + "/manifest.raucm")
            return Subprocess.run("/bin/sh", [RepositoryPaths.root + "/board/rauc/stillroom-version-check"], environment: [
                "PATH": "/usr/bin:/bin", "RAUC_BUNDLE_MOUNT_POINT": bundle, "STILLROOM_UPDATE_DIR": folder,
                "STILLROOM_VERSION_FILE": directory.file("version"),
            ])
        }

        var refusal: String { Files.exists(folder + "/refusal") ? String(decoding: Files.read(folder + "/refusal"), as: UTF8.self) : "" }
    }

    /// Bounded both ways: the next build goes in, the same build and every older one are refused, with the
    /// reason for the agent's report. Seen failing with the comparison left out (every build went in).
    @Test func onlyANewerBuildIsInstalled() {
        let box = Box(running: "412-2026.12.05-1a2b3c4d5e")
        #expect(box.check("413-2026.12.06-5e4d3c2b1a").status == 0)
        #expect(box.check("10000-2027.06.01-0000000000").status == 0)
        for older in ["412-2026.12.05-1a2b3c4d5e", "412-2026.12.07-ffffffffff", "411-2026.12.09-abc", "9-2026.01.01-abc"] {
            let refused = box.check(older)
            #expect(refused.status != 0, "\(older) was let in")
            #expect(refused.stdout.hasPrefix("<< error build "), "\(refused.stdout)")
            #expect(box.refusal.contains("is not newer than the running build 412") && box.refusal.contains("--allow-downgrade"), "\(box.refusal)")
        }
    }

    /// Without the running image's version nothing is installed (a root with no version file is not a
    /// Stillroom image): refused with the file named.
    @Test func anUnreadableRunningVersionRefusesTheInstall() {
        let box = Box(running: "412-2026.12.05-1a2b3c4d5e")
        unlink(box.directory.file("version"))
        let refused = box.check("413-2026.12.06-5e4d3c2b1a")
        #expect(refused.status != 0)
        #expect(box.refusal.hasPrefix("the running version cannot be read (") && box.refusal.contains("/version)"), "\(box.refusal)")
    }

    @Test func aVersionWithoutABuildNumberIsRefusedAndAnImageFromBeforeBuildNumbersTakesAny() {
        let box = Box(running: "2026.12.01-0123456789")
        #expect(box.check("1-2026.12.05-1a2b3c4d5e").status == 0, "the first numbered build after an unnumbered one")
        for version in ["2026.12.09-abcdef", "", "x-1", "1234567890-2026.12.05-abc"] {
            #expect(box.check(version).status != 0, "\(version) was let in")
        }
        #expect(box.refusal.contains("has no build number"), "\(box.refusal)")
    }

    /// Root's allowance lets one install that is not newer through, once; a link, another owner's file or an
    /// allowance older than an hour lets nothing through.
    @Test func rootsAllowanceIsUsedOnceAndOnlyWhenItIsRootsAndFresh() {
        let box = Box(running: "412-2026.12.05-1a2b3c4d5e")
        Files.write("allowed by root\n", to: box.allowance)
        #expect(box.check("400-2026.11.01-abc").status == 0, "root's allowance was not taken")
        #expect(!Files.exists(box.allowance), "the allowance was not used up")
        #expect(box.check("400-2026.11.01-abc").status != 0, "a used allowance let a second one in")
        Files.write("allowed by root\n", to: box.directory.file("elsewhere"))
        symlink(box.directory.file("elsewhere"), box.allowance)
        #expect(box.check("400-2026.11.01-abc").status != 0, "a link was taken for an allowance")
        unlink(box.allowance)
        Files.write("allowed\n", to: box.allowance)
        chown(box.allowance, 65534, 65534)
        #expect(box.check("400-2026.11.01-abc").status != 0, "another user's file was taken for an allowance")
        unlink(box.allowance)
        Files.write("allowed\n", to: box.allowance)
        var old = [timespec(tv_sec: time(nil) - 3700, tv_nsec: 0), timespec(tv_sec: time(nil) - 3700, tv_nsec: 0)]
        utimensat(AT_FDCWD, box.allowance, &old, 0)
        #expect(box.check("400-2026.11.01-abc").status != 0, "an allowance of more than an hour ago was taken")
        // Written "in the future": the clock was set back since, and its age says nothing.
        var ahead = [timespec(tv_sec: time(nil) + 600, tv_nsec: 0), timespec(tv_sec: time(nil) + 600, tv_nsec: 0)]
        utimensat(AT_FDCWD, box.allowance, &ahead, 0)
        #expect(box.check("400-2026.11.01-abc").status != 0, "an allowance dated after now was taken")
    }

    /// `--allow-downgrade` is root's alone: the CLI of another user refuses it before asking anything.
    @Test func onlyRootsCLIMayAllowADowngrade() {
        guard Requirement.need(geteuid() == 0, "running the CLI as another user needs root") else { return }
        let box = Box(running: "412-2026.12.05-1a2b3c4d5e")
        Files.write("x", to: box.directory.file("old.raucb"))
        chmod(box.directory.path, 0o755)
        let asked = Subprocess.run("/usr/bin/setpriv", ["--reuid", "65534", "--regid", "65534", "--clear-groups",
            BuiltProducts.path("stillroomctl"), "--socket", box.directory.file("none.sock"), "update", "install",
            box.directory.file("old.raucb"), "--allow-downgrade", "--update-dir", box.folder])
        #expect(asked.status == 5 && asked.stderr.contains("only root may allow a downgrade"), "\(asked)")
        #expect(!Files.exists(box.allowance))
    }
}
