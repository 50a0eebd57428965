// The maintenance CLI's read-only store: works while the daemon holds the database, and refuses writes.

@testable import SQLiteStore
import StillroomCore
import Testing

@Suite struct ReadOnlyTests {
    @Test func theWriterHoldsTheDatabaseAloneAndReadersComeAfter() throws {
        try withSandbox { (sandbox) throws in
            let writer = try sandbox.open().store
            let sample = try SampleData.write(into: writer)
            // While the writer (the daemon) runs it holds the database alone (EXCLUSIVE: no -shm on the card);
            // a reader is refused with a clear error instead of waiting, and nothing is changed by trying.
            let refused = expectStoreError(.busy) { _ = try SQLiteStore.openReadOnly(path: sandbox.path, busyTimeoutMilliseconds: 50) }
            #expect(refused?.description.contains("locked") == true, "\(refused?.description ?? "-")")
            #expect(!fileExists(sandbox.path + "-shm"))
            try writer.setSetting("written-later", to: "yes", now: testNow)
            writer.close()

            let reader = try SQLiteStore.openReadOnly(path: sandbox.path)
            defer { reader.close() }
            #expect(reader.isReadOnly)
            try sample.verify(in: reader)
            #expect(try reader.setting("written-later") == "yes")
        }
    }

    @Test func refusesEveryKindOfWriteWithAClearError() throws {
        try withSandbox { (sandbox) throws in
            let writer = try sandbox.open().store
            try writer.setSetting("volume", to: "0.4", now: testNow)
            writer.close() // the writer holds the database alone while it is open
            let reader = try SQLiteStore.openReadOnly(path: sandbox.path)
            defer { reader.close() }

            let error = expectStoreError(.readOnly) { try reader.setSetting("volume", to: "1.0", now: testNow) }
            #expect(error?.operation == "settings.set")
            #expect(error?.description.hasPrefix("read-only") == true)
            expectStoreError(.readOnly) { try reader.addFavorite(sessionID: "x", now: testNow) }
            expectStoreError(.readOnly) {
                try reader.saveCheckpoint(sessionID: "x", positionFrames: 1, sampleRate: 44100, clockTrusted: true, now: testNow)
            }
            expectStoreError(.readOnly) { try reader.deleteAllPracticeRuns() }
            expectStoreError(.readOnly) {
                _ = try reader.transaction { try reader.addNotice(kind: .databaseMovedAside, message: "x", now: testNow) }
            }
            #expect(try reader.setting("volume") == "0.4")
        }
    }

    /// The daemon's store, opened read-only at a start on a full card, becomes the writer in place once the
    /// card has room (every part of the daemon holds it); a failed attempt leaves it reading as before.
    @Test func aReaderBecomesTheWriterInPlaceAndStaysAReaderWhenItCannot() throws {
        try withSandbox { (sandbox) throws in
            let writer = try sandbox.open().store
            let sample = try SampleData.write(into: writer)
            writer.close()
            let store = try SQLiteStore.openReadOnly(path: sandbox.path)
            defer { store.close() }

            expectStoreError(.cannotOpen) { _ = try store.becomeWriter(path: sandbox.path + ".missing/stillroom.db", now: testNow) }
            #expect(store.isReadOnly)
            try sample.verify(in: store)
            expectStoreError(.readOnly) { try store.setSetting("written-later", to: "yes", now: testNow) }

            #expect(try store.becomeWriter(path: sandbox.path, now: testNow) == .opened)
            #expect(!store.isReadOnly)
            try sample.verify(in: store)
            try store.setSetting("written-later", to: "yes", now: testNow)
            store.close()
            let reopened = try sandbox.open().store
            defer { reopened.close() }
            #expect(try reopened.setting("written-later") == "yes")
        }
    }

    @Test func readsWhenTheDaemonIsDown() throws {
        try withSandbox { (sandbox) throws in
            let writer = try sandbox.open().store
            let sample = try SampleData.write(into: writer)
            writer.close()

            let reader = try SQLiteStore.openReadOnly(path: sandbox.path)
            defer { reader.close() }
            try sample.verify(in: reader)
            #expect(try reader.quickCheck() == ["ok"])
            #expect(try reader.configuration().userVersion == SQLiteStore.schemaVersion)
        }
    }

    @Test func theDaemonOpensNormallyAfterTheCLIReadWhileItWasDown() throws {
        // A read-only connection leaves an empty -wal and a -shm behind; the next writer must not mind.
        try withSandbox { (sandbox) throws in
            let writer = try sandbox.open().store
            let sample = try SampleData.write(into: writer)
            writer.close()
            let reader = try SQLiteStore.openReadOnly(path: sandbox.path)
            try sample.verify(in: reader)
            reader.close()

            let reopened = try sandbox.open()
            defer { reopened.store.close() }
            #expect(reopened.outcome == .opened)
            try sample.verify(in: reopened.store)
        }
    }

    @Test func readsACrashImageWithoutChangingTheDatabaseOrWal() throws {
        try withSandbox { (sandbox) throws in
            let writer = try sandbox.open().store
            defer { writer.close() }
            let sample = try SampleData.write(into: writer)
            let crashed = sandbox.directory.file("crashed.db")
            snapshotAsIfPowerCut(from: sandbox.path, to: crashed)
            let database = readBytes(crashed)
            let wal = readBytes(crashed + "-wal")

            let reader = try SQLiteStore.openReadOnly(path: crashed)
            try sample.verify(in: reader)
            reader.close()
            #expect(fileHolds(crashed, database))
            #expect(fileHolds(crashed + "-wal", wal))
        }
    }

    @Test func aMissingDatabaseIsCannotOpenAndIsNotCreated() {
        withSandbox { sandbox in
            let error = expectStoreError(.cannotOpen) { _ = try SQLiteStore.openReadOnly(path: sandbox.path) }
            #expect(error?.message.contains(sandbox.path) == true)
            #expect(sandbox.listing().isEmpty)
        }
    }

    @Test func anUnmigratedDatabaseIsASchemaMismatch() throws {
        try withSandbox { (sandbox) throws in
            try RawDatabase(path: sandbox.path).exec("CREATE TABLE t (x)") // user_version 0
            let error = expectStoreError(.schemaMismatch) { _ = try SQLiteStore.openReadOnly(path: sandbox.path) }
            #expect(error?.message.contains("start the daemon") == true)
        }
    }

    @Test func aNewerDatabaseIsSchemaTooNew() throws {
        try withSandbox { (sandbox) throws in
            try sandbox.open().store.close()
            try RawDatabase(path: sandbox.path).exec("PRAGMA user_version = \(SQLiteStore.schemaVersion + 1)")
            try RawDatabase(path: sandbox.path).exec("UPDATE schema_compatibility SET oldest_reader = \(SQLiteStore.schemaVersion + 1)")
            expectStoreError(.schemaTooNew) { _ = try SQLiteStore.openReadOnly(path: sandbox.path) }
        }
    }

    @Test func aGarbageFileIsNotADatabaseAndIsLeftAlone() {
        withSandbox { sandbox in
            let garbage = noiseBytes(count: 4096)
            writeBytes(sandbox.path, garbage)
            expectStoreError(.notADatabase) { _ = try SQLiteStore.openReadOnly(path: sandbox.path) }
            #expect(fileHolds(sandbox.path, garbage))
        }
    }
}
