import DrivenDaemonSupport
import StillroomCore
import TestSupport
import Testing

/// `stillroomctl doctor` says when the data folder is in RAM: on the box that is a data partition that did
/// not mount, and the daemon writing into the root's RAM overlay. The daemon (in this process, on virtual
/// time) and the real CLI, the data folder on a real tmpfs, then on a real loop-mounted ext4 as on the box.
@Suite(.serialized) struct DataStorageDoctorTests {
    func dataStorage(_ harness: DaemonUnderTest) -> (check: JSONValue?, doctor: String) {
        let doctor = harness.ctl("doctor", "--json")
        let parsed = (try? JSONValue.parse(Array(doctor.stdout.utf8))) ?? .null
        return (parsed["checks"]?.arrayValue?.first { $0["check"]?.stringValue == "data storage" }, doctor.stdout)
    }

    @Test func aDataFolderOnATmpfsFailsTheCheck() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let harness = DrivenDaemon()
        let disk = try SmallDisk(at: harness.dataDirectory, kibibytes: 16 * 1024)
        defer {
            harness.stop()
            disk.unmount()
        }
        try harness.start()
        let (check, doctor) = dataStorage(harness)
        #expect(check?["ok"]?.boolValue == false, "\(doctor)")
        #expect(check?["detail"]?.stringValue == "\(harness.dataDirectory) is in RAM (tmpfs): practice history and settings will be lost at power-off", "\(doctor)")
        #expect(check?["fix"]?.stringValue?.contains("the data partition did not mount") == true, "\(doctor)")
        // Not one of the checks an update's trial boot is judged by (docs/updates.md says why).
        let essential = harness.ctl("doctor", "--essential")
        #expect(essential.status == 0 && !essential.stdout.contains("data storage"), "\(essential)")
        // With the daemon down, stillroomctl answers from the files and says the same.
        harness.stop()
        let offline = harness.ctl("doctor")
        #expect(offline.stdout.contains("FAIL data storage  \(harness.dataDirectory) is in RAM (tmpfs)"), "\(offline)")
    }

    @Test func aDataFolderOnExt4PassesAndNamesIt() throws {
        guard Requirement.need(Ext4Card.mayMount, Ext4Card.whyNot) else { return }
        let harness = DrivenDaemon()
        var why = ""
        let card = try #require(Ext4Card(mountPoint: harness.dataDirectory, why: &why), "\(why)")
        defer {
            harness.stop()
            withExtendedLifetime(card) {}
        }
        try harness.start()
        let (check, doctor) = dataStorage(harness)
        #expect(check?["ok"]?.boolValue == true, "\(doctor)")
        #expect(check?["detail"]?.stringValue == "\(harness.dataDirectory) is on ext4, kept across power-offs", "\(doctor)")
        let text = harness.ctl("doctor").stdout
        #expect(text.contains("ok   data storage  \(harness.dataDirectory) is on ext4"), "\(text)")
    }
}
