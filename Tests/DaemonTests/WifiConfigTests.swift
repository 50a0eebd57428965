import Glibc
import Testing
import TestSupport

/// The Wi-Fi settings script (board/wifi/stillroom-wifi-config), run by /bin/sh as its unit runs it, on a
/// directory standing for the mounted boot partition and another for its state on the data partition,
/// with a fake `iw` that records its arguments and a stand-in `wpa_passphrase` (PBKDF2-HMAC-SHA1, 4096
/// rounds, as WPA2 derives its key; the real tool runs in the twin, image/qemu/wifi_scenario.py).
@Suite struct WifiConfigTests {
    final class Box {
        let directory = TemporaryDirectory("stillroom-wifi")
        var boot: String { directory.file("boot") }
        var state: String { directory.file("state") }
        var config: String { state + "/wpa_supplicant.conf" }

        init() {
            mkdir(boot, 0o755)
            mkdir(directory.file("bin"), 0o755)
            Files.write("#!/bin/sh\necho \"$*\" >> '\(directory.file("iw-calls"))'\n", to: directory.file("bin/iw"))
            Files.write("""
                #!/usr/bin/python3
                import hashlib, sys
                passphrase = sys.stdin.buffer.readline().rstrip(b"\\n")
                ssid = sys.argv[1].encode("utf-8", "surrogateescape")
                if not 8 <= len(passphrase) <= 63:
                    print("Passphrase must be 8..63 characters"); sys.exit(1)
                key = hashlib.pbkdf2_hmac("sha1", passphrase, ssid, 4096, 32).hex()
                print('network={\\n\\tssid="%s"\\n\\t#psk="%s"\\n\\tpsk=%s\\n}' % (sys.argv[1], passphrase.decode(), key))
                """, to: directory.file("bin/wpa_passphrase"))
            chmod(directory.file("bin/iw"), 0o755)
            chmod(directory.file("bin/wpa_passphrase"), 0o755)
        }

        deinit { directory.remove() }

        @discardableResult
        func boot(with file: [UInt8]? = nil, named name: String = "wifi.txt") -> (status: Int32, stdout: String, stderr: String) {
            if let file { Files.write(file, to: boot + "/" + name) }
            return Subprocess.run("/bin/sh", [RepositoryPaths.root + "/board/wifi/stillroom-wifi-config"], environment: [
                "PATH": directory.file("bin") + ":/usr/bin:/bin", "STILLROOM_WIFI_STATE": state, "STILLROOM_WIFI_BOOT": boot,
            ])
        }

        func text(_ path: String) -> String { String(decoding: Files.read(path), as: UTF8.self) }
        var configText: String { text(config) }
        var iwCalls: String { text(directory.file("iw-calls")) }
        var onBoot: [String] {
            var names: [String] = []
            if let dir = opendir(boot) {
                while let entry = readdir(dir) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(dir)
            }
            return names.sorted()
        }
        func mode(_ path: String) -> (mode: UInt32, uid: UInt32) {
            var info = stat()
            guard stat(path, &info) == 0 else { return (0, UInt32.max) }
            return (UInt32(info.st_mode) & 0o7777, info.st_uid)
        }
    }

    /// IEEE 802.11i-2004, annex H.4: the key for passphrase "password" on the network "IEEE".
    static let ieeeKey = "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e"
    static let good = Array("ssid = IEEE\npassphrase = password\ncountry = gb\n".utf8)

    static func hex(_ text: String) -> String {
        text.utf8.map { byte -> String in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
    /// The lines between `network={` and `}`.
    static func network(_ config: String) -> [String] {
        let lines = config.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "network={"), let end = lines.lastIndex(of: "}") else { return [] }
        return lines[(start + 1)..<end].map { String($0.drop { $0 == "\t" || $0 == " " }) }
    }

    @Test func aGoodFileBecomesARootOnly0600ConfigurationWithItsCountryAndLeavesTheCard() {
        let box = Box()
        let run = box.boot(with: Self.good)
        #expect(run.status == 0, "\(run)")
        #expect(box.mode(box.config) == (0o600, getuid()), "the configuration's mode and owner")
        #expect(box.mode(box.state).mode == 0o700)
        let config = box.configText
        #expect(config.contains("\nctrl_interface=DIR=/run/wpa_supplicant GROUP=stillroom-wifi\n"), "the Wi-Fi relay's control socket")
        #expect(config.contains("\ncountry=GB\n"))
        // scan_ssid=0: a network that shows its name is not probed for by name wherever the box goes.
        #expect(Self.network(config) == ["ssid=\(Self.hex("IEEE"))", "scan_ssid=0", "key_mgmt=WPA-PSK", "psk=\(Self.ieeeKey)"])
        #expect(!config.contains("password"), "the passphrase itself is stored")
        #expect(box.onBoot == [], "the secret is still on the FAT partition: \(box.onBoot)")
        #expect(box.iwCalls == "reg set GB\n")
        #expect(!Files.exists(box.config + ".new"))
        #expect(run.stdout.contains("took the Wi-Fi network 'IEEE' (country GB)"), "\(run.stdout)")
    }

    /// Notepad's UTF-8 (a byte-order mark), Windows line ends, quotes around values, comments, blanks around
    /// the `=`, and the name Windows gives a file when extensions are hidden.
    @Test func windowsLineEndsAByteOrderMarkQuotesAndWifiTxtTxtAreUnderstood() {
        let box = Box()
        let file = [0xEF, 0xBB, 0xBF] + Array("# my network\r\n\r\n  SSID=\"My Home\"\r\npassphrase = 'password'  \r\nCountry = \"de\"".utf8)
        let run = box.boot(with: file, named: "wifi.txt.txt")
        #expect(run.status == 0, "\(run)")
        let config = box.configText
        #expect(config.contains("\ncountry=DE\n"), "\(config)")
        #expect(Self.network(config).first == "ssid=\(Self.hex("My Home"))", "\(config)")
        #expect(!config.contains("\r"))
        #expect(box.onBoot == [])
        #expect(box.iwCalls == "reg set DE\n")
    }

    @Test func aPassphraseOfTheWrongLengthIsRefusedTheFileKeptAndTheReasonWrittenBesideIt() {
        let box = Box()
        box.boot(with: Self.good)
        let before = box.configText
        for (passphrase, length) in [("short12", 7), (String(repeating: "x", count: 64), 64)] {
            let file = Array("ssid = Other\npassphrase = \(passphrase)\ncountry = FR\n".utf8)
            let run = box.boot(with: file)
            #expect(run.status == 0, "a refused file must not fail the unit: \(run)")
            #expect(box.configText == before, "the stored configuration changed")
            #expect(box.onBoot == ["wifi-error.txt", "wifi.txt.rejected"])
            #expect(box.text(box.boot + "/wifi.txt.rejected") == "ssid = Other\npassphrase = (removed by the box: write it again)\ncountry = FR\n",
                    "the owner's file was not kept, without its passphrase: \(box.text(box.boot + "/wifi.txt.rejected"))")
            let reason = box.text(box.boot + "/wifi-error.txt")
            #expect(reason.contains("is \(length) characters long; WPA2 needs 8 to 63 (or 64 hexadecimal digits)"), "\(reason)")
            #expect(!reason.contains(passphrase), "the reason repeats the passphrase")
            #expect(run.stdout.contains("refused wifi.txt: the passphrase is \(length) characters long"), "\(run.stdout)")
        }
        #expect(box.iwCalls == "reg set GB\nreg set GB\nreg set GB\n", "the stored domain is set at each boot")
    }

    /// The secret leaves the card's blocks, not only its directory: the file's bytes are overwritten where
    /// they are before it is unlinked, taken or refused. A second name for the same inode shows what the
    /// card's clusters still hold. Seen failing with a plain rm (the passphrase still in the inode).
    @Test func thePassphraseIsOverwrittenWhereItLayWhetherTakenOrRefused() {
        for (text, taken) in [("ssid = IEEE\npassphrase = hunter2hunter2\ncountry = GB\n", true),
                              ("ssid = IEEE\nPassword= hunter2hunter2\ncountry = G\n", false)] {
            let box = Box()
            Files.write(text, to: box.boot + "/wifi.txt")
            link(box.boot + "/wifi.txt", box.directory.file("same-clusters"))
            let run = box.boot()
            #expect(run.status == 0, "\(run)")
            #expect(Files.exists(box.config) == taken)
            let left = Files.read(box.directory.file("same-clusters"))
            #expect(left.count == text.utf8.count && left.allSatisfy { $0 == 0 }, "what the card still holds: \(box.text(box.directory.file("same-clusters")))")
            #expect(!box.onBoot.contains("wifi.txt"))
            for name in box.onBoot { #expect(!box.text(box.boot + "/" + name).contains("hunter2"), "\(name) keeps the passphrase") }
        }
    }

    /// A hidden network is probed for by name (it cannot be found otherwise); `hidden` is yes or no.
    @Test func aHiddenNetworkIsProbedForByNameAndOnlyThen() {
        let box = Box()
        box.boot(with: Array("ssid = Attic\npassphrase = password\ncountry = GB\nhidden = yes\n".utf8))
        #expect(Self.network(box.configText).dropFirst().first == "scan_ssid=1", "\(box.configText)")
        box.boot(with: Array("ssid = Attic\npassphrase = password\ncountry = GB\nhidden = perhaps\n".utf8))
        #expect(box.text(box.boot + "/wifi-error.txt").contains("hidden is 'perhaps'; it is yes or no"))
        box.boot(with: Array("ssid = Attic\npassphrase = password\ncountry = GB\nHidden = no\n".utf8))
        #expect(Self.network(box.configText).dropFirst().first == "scan_ssid=0", "\(box.configText)")
    }

    @Test func aFileWithoutAnSSIDOrWithABadCountryIsRefused() {
        let cases: [(String, String)] = [
            ("passphrase = password\ncountry = GB\n", "no ssid"),
            ("ssid = \"\"\npassphrase = password\ncountry = GB\n", "no ssid"),
            ("ssid = IEEE\npassphrase = password\ncountry = GBR\n", "the country 'GBR' is not a two-letter code"),
            ("ssid = IEEE\npassphrase = password\ncountry = 4X\n", "the country '4X' is not a two-letter code"),
            ("ssid = IEEE\npassphrase = password\n", "no country"),
            ("ssid = IEEE\ncountry = GB\n", "no passphrase"),
            ("IEEE\npassword\n", "line 1 is not 'key = value'"),
        ]
        for (text, reason) in cases {
            let box = Box()
            let run = box.boot(with: Array(text.utf8))
            #expect(run.status == 0, "\(run)")
            #expect(!Files.exists(box.config), "a configuration was written from \(text)")
            #expect(box.onBoot == ["wifi-error.txt", "wifi.txt.rejected"], "\(text)")
            #expect(box.text(box.boot + "/wifi-error.txt").contains(reason), "\(text): \(box.text(box.boot + "/wifi-error.txt"))")
            #expect(box.iwCalls == "", "a regulatory domain was set with no configuration")
        }
    }

    /// A configuration an older image stored gave wpa_supplicant's sockets to the daemon's group: the next
    /// boot gives them to the relay's, changing nothing else (0600 kept). Seen failing without the
    /// migration (GROUP=stillroom kept).
    @Test func anOlderConfigurationsControlSocketGoesToTheRelaysGroup() {
        let box = Box()
        box.boot(with: Self.good)
        let current = box.configText
        let older = current.replacing("GROUP=stillroom-wifi\n", with: "GROUP=stillroom\n")
        #expect(older != current)
        Files.write(older, to: box.config)
        chmod(box.config, 0o600)
        let run = box.boot()
        #expect(run.status == 0)
        #expect(box.configText == current)
        #expect(box.mode(box.config).mode == 0o600)
        #expect(run.stdout.contains("wpa_supplicant's control sockets are now the Wi-Fi relay's (group stillroom-wifi)"), "\(run.stdout)")
        // Once only: the next boot finds nothing to change.
        #expect(!box.boot().stdout.contains("now the Wi-Fi relay's"))
    }

    @Test func aLaterBootWithNoFileKeepsTheStoredConfiguration() {
        let box = Box()
        box.boot(with: Self.good)
        let before = box.configText
        let run = box.boot()
        #expect(run.status == 0)
        #expect(box.configText == before)
        #expect(box.mode(box.config).mode == 0o600)
        #expect(box.iwCalls == "reg set GB\nreg set GB\n")
        // A corrected file replaces it, and the earlier refusal leaves the card with it.
        box.boot(with: Array("ssid = x\npassphrase = 1234\ncountry = GB\n".utf8))
        #expect(box.onBoot == ["wifi-error.txt", "wifi.txt.rejected"])
        box.boot(with: Array("ssid = Second\npassphrase = password2\ncountry = NL\n".utf8))
        #expect(box.onBoot == [])
        #expect(box.configText.contains("\ncountry=NL\n") && Self.network(box.configText).first == "ssid=\(Self.hex("Second"))")
    }

    /// The data partition full (a real tmpfs filled to the last byte) or read-only (remounted so): the good
    /// file is not refused — it stays on the card as wifi.txt, to be taken at a later start — the network
    /// stored before stays in force, whole, and the journal and wifi-error.txt say it was the box's storage.
    @Test(arguments: ["full", "read-only"])
    func aCardThatCannotTakeTheConfigurationKeepsTheFileForTheNextStart(_ trouble: String) throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let box = Box()
        let disk = try SmallDisk(at: box.state, kibibytes: 256)
        defer { disk.unmount() }
        box.boot(with: Self.good)
        let before = box.configText
        #expect(before.contains("\ncountry=GB\n"))
        if trouble == "full" {
            disk.fill()
        } else {
            #expect(runShell("mount -o remount,ro '\(box.state)'") == 0)
        }
        let run = box.boot(with: Array("ssid = Second\npassphrase = password2\ncountry = NL\n".utf8))
        #expect(run.status == 0, "\(run)")
        #expect(box.configText == before, "the stored network changed or was cut short")
        #expect(box.onBoot == ["wifi-error.txt", "wifi.txt"], "\(trouble): \(box.onBoot)")
        #expect(box.text(box.boot + "/wifi-error.txt").contains("could not save"), "\(box.text(box.boot + "/wifi-error.txt"))")
        #expect(run.stdout.contains("could not store the Wi-Fi network 'Second'"), "\(run.stdout)")
        #expect(box.iwCalls.hasSuffix("reg set GB\n"), "the stored network's country")
        // Room again (or the card writable): the next start takes the file, and the note goes with it.
        if trouble == "full" { disk.makeRoom() } else { #expect(runShell("mount -o remount,rw '\(box.state)'") == 0) }
        let again = box.boot()
        #expect(again.status == 0, "\(again)")
        #expect(box.configText.contains("\ncountry=NL\n"))
        #expect(box.onBoot == [])
    }

    @Test func aKeyOf64HexadecimalDigitsIsUsedAsTheKey() {
        let box = Box()
        let key = Self.ieeeKey.uppercased()
        let run = box.boot(with: Array("ssid = IEEE\npassphrase = \(key)\ncountry = GB\n".utf8))
        #expect(run.status == 0, "\(run)")
        #expect(Self.network(box.configText).last == "psk=\(Self.ieeeKey)", "\(box.configText)")
        #expect(box.onBoot == [])
    }

    /// Spaces, quotes, a `#`, a backslash and a non-ASCII letter in the network's name: written in hexadecimal,
    /// nothing to quote or escape; the key is derived from the name exactly as written.
    @Test func anSSIDWithSpacesAndQuotesIsWrittenInHexadecimal() {
        let box = Box()
        let ssid = "Café \"Bob's\" # net \\ 2"
        let run = box.boot(with: Array("ssid = \(ssid)\npassphrase = pass \"#\" word\ncountry = GB\n".utf8))
        #expect(run.status == 0, "\(run)")
        let network = Self.network(box.configText)
        #expect(network.first == "ssid=\(Self.hex(ssid))", "\(box.configText)")
        #expect(network.count == 4 && network.allSatisfy { !$0.contains("\"") }, "\(network)")
        #expect(network.last?.count == "psk=".count + 64, "\(network)")
        #expect(box.onBoot == [])
    }
}
