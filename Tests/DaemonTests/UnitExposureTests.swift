import Glibc
import Testing
import TestSupport

/// Every unit in board/systemd confined to what it touches, scored as `systemd-analyze security --offline`
/// scores it (docs/security.md, "Units"): the daemon at 1.5 or less; the update agent, the slot check and
/// the data partition's growth, which must mount, load modules or write block devices, at 6.5 or less;
/// every other at 4.0 or less. A unit added without a target fails here until it gets one. Seen failing
/// with the helpers as they were (9.6 UNSAFE each) and the daemon's unit before ProtectProc=,
/// ProcSubset=, PrivateIPC=, NoExecPaths= and ProtectClock= (2.4).
@Suite struct UnitExposureTests {
    static let targets: [String: Double] = [
        "stillroom.service": 1.5,
        "stillroom-update.service": 6.5,
        "stillroom-slot-check.service": 6.5,
        "stillroom-grow-data.service": 6.5,
        "stillroom-data-owner.service": 4.0,
        "stillroom-ssh-keys.service": 4.0,
        "stillroom-wifi-config.service": 4.0,
        "stillroom-wifi@.service": 4.0,
        "stillroom-wifi-relay.service": 4.0,
    ]

    static var units: [String] {
        var names: [String] = []
        guard let folder = opendir(RepositoryPaths.root + "/board/systemd") else { return [] }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasSuffix(".service") { names.append(name) }
        }
        closedir(folder)
        return names.sorted()
    }

    /// The overall figure from the last line: "→ Overall exposure level for x.service: 1.5 OK :-)".
    static func exposure(of unit: String) -> (Double?, String) {
        let result = Subprocess.run("/usr/bin/systemd-analyze", ["security", "--offline=yes", "--no-pager",
                                                                 RepositoryPaths.root + "/board/systemd/" + unit])
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let parts = last.split(separator: ".service: ")
        guard parts.count == 2 else { return (nil, result.stdout + result.stderr) }
        let figure = parts[1].split(separator: " ").first.map(String.init) ?? ""
        return (Double(figure), last)
    }

    @Test func everyUnitHasATarget() {
        #expect(!Self.units.isEmpty)
        for unit in Self.units { #expect(Self.targets[unit] != nil, "\(unit) has no exposure target") }
    }

    @Test(arguments: targets.keys.sorted())
    func confinedToItsTarget(_ unit: String) {
        guard Requirement.need(access("/usr/bin/systemd-analyze", X_OK) == 0, "systemd-analyze (package systemd) is not installed") else { return }
        let (figure, said) = Self.exposure(of: unit)
        let target = Self.targets[unit]!
        #expect(figure != nil, "\(unit): systemd-analyze said \(said)")
        if let figure { #expect(figure <= target, "\(unit): exposure \(figure), above its target \(target): \(said)") }
    }
}
