// Every migration, tested from every older schema version.
//
// How to add a migration N+1 (see docs/data.md):
// 1. Append it to `Schema.migrations` (never edit a released one).
// 2. Add a `MigrationFixture(version: N, ...)` below: SQL that fills a database *at version N* with sample
//    rows, written against the version-N schema and frozen from then on, plus checks of what those rows
//    must look like after migrating to the latest version.
// 3. Update the checks of older fixtures if the new migration changes how their rows read back.
// `everyOlderVersionHasAFixture` fails until step 2 is done.

@testable import SQLiteStore
import StillroomCore
import Testing

/// A database at an older schema version, and what must hold after it is migrated to the latest.
struct MigrationFixture: Sendable {
    let version: Int
    /// Raw SQL run on a database built to `version` by the migrations themselves.
    let seed: [String]
    /// Checks run on the store after it migrated the seeded database.
    let verify: @Sendable (SQLiteStore) throws -> Void

    static let all: [MigrationFixture] = [
        // Version 0: no schema at all (a new file, or one from before the store existed). Nothing to keep;
        // the point is that migration 1 builds the schema on it and the store works.
        MigrationFixture(version: 0, seed: [], verify: { store in
            #expect(try store.allSettings().isEmpty)
            #expect(try store.notices().isEmpty)
            try store.setSetting("after-migration", to: "works", now: testNow)
            #expect(try store.setting("after-migration") == "works")
        }),
        // Version 1: a box that deleted a run. Schema 1 purged at once, but never again if that failed, so
        // migration 2 asks for one purge when any run was ever deleted; the rows themselves are untouched.
        MigrationFixture(version: 1, seed: [
            "INSERT INTO setting VALUES ('volume', '35', 1)",
            "INSERT INTO favorite VALUES ('rain', 2)",
            """
            INSERT INTO practice_run (session_id, started_at, actual_listening_seconds, covered_seconds, recording_seconds,
                                      clock_trusted, updated_at)
            VALUES ('kept', 3, 60, 60, 300, 1, 3), ('deleted', 4, 60, 60, 300, 1, 4)
            """,
            "DELETE FROM practice_run WHERE session_id = 'deleted'",
        ], verify: { (store) throws in
            #expect(try store.setting("volume") == "35")
            #expect(try store.favorites().map(\.sessionID) == ["rain"])
            #expect(try store.recentPracticeRuns(limit: 10).map(\.sessionID) == ["kept"])
            #expect(try store.hasPendingPurge())
            #expect(try store.finishPendingPurge(availableBytes: nil) == .purged)
            #expect(try store.recentPracticeRuns(limit: 10).map(\.sessionID) == ["kept"])
        }),
        // Version 2: runs without titles. Migration 3 adds the column; old runs keep NULL, new ones a title.
        MigrationFixture(version: 2, seed: [
            """
            INSERT INTO practice_run (session_id, started_at, actual_listening_seconds, covered_seconds, recording_seconds,
                                      clock_trusted, updated_at)
            VALUES ('far-sweep', 3, 60, 60, 300, 1, 3)
            """,
        ], verify: { (store) throws in
            let old = try #require(try store.recentPracticeRuns(limit: 10).first)
            #expect(old.sessionID == "far-sweep" && old.title == nil)
            let new = try store.insertPracticeRun(PracticeRunRecord(sessionID: "far-sweep", startedAt: 5, recordingSeconds: 20,
                                                                   clockTrusted: true, updatedAt: 5, title: "Far sweep"))
            #expect(try store.practiceRun(id: try #require(new.id))?.title == "Far sweep")
        }),
        // Version 3: no word on which builds may open the file. Migration 4 says: this one and newer.
        MigrationFixture(version: 3, seed: [
            """
            INSERT INTO practice_run (session_id, started_at, actual_listening_seconds, covered_seconds, recording_seconds,
                                      clock_trusted, updated_at, title)
            VALUES ('far-sweep', 3, 60, 60, 300, 1, 3, 'Far sweep')
            """,
        ], verify: { (store) throws in
            #expect(try store.recentPracticeRuns(limit: 10).first?.title == "Far sweep")
            #expect(try store.connection.executeReturningText("SELECT oldest_reader FROM schema_compatibility",
                                                              operation: "test") == ["4"])
        }),
    ]
}

@Suite struct MigrationTests {
    @Test func migrationsAreNumberedOneByOne() {
        for (index, migration) in Schema.migrations.enumerated() {
            #expect(migration.version == index + 1)
            #expect(!migration.statements.isEmpty)
        }
        #expect(SQLiteStore.schemaVersion == Schema.migrations.count)
    }

    @Test func everyOlderVersionHasAFixture() {
        #expect(MigrationFixture.all.map(\.version) == Array(0..<SQLiteStore.schemaVersion))
    }

    @Test(arguments: MigrationFixture.all.map(\.version))
    func migratesFromOlderVersion(_ version: Int) throws {
        let fixture = try #require(MigrationFixture.all.first { $0.version == version })
        try withSandbox { (sandbox) throws in
            // The database as older firmware would have left it: built by the migrations up to `version`.
            do {
                let connection = try Connection.open(path: sandbox.path, mode: .readWriteCreate, operation: "fixture")
                defer { connection.close() }
                try Schema.migrate(connection, from: 0, to: version)
                #expect(try Schema.userVersion(connection, operation: "fixture") == version)
                for statement in fixture.seed { try RawDatabase.exec(connection.handle, statement) }
            }

            let opened = try sandbox.open()
            defer { opened.store.close() }
            #expect(opened.outcome == (version == 0 ? .created : .migrated(from: version, to: SQLiteStore.schemaVersion)))
            #expect(try opened.store.configuration().userVersion == SQLiteStore.schemaVersion)
            #expect(try opened.store.quickCheck() == ["ok"])
            try fixture.verify(opened.store)

            // The migrated schema is exactly the schema of a fresh database.
            let fresh = StoreSandbox()
            defer { fresh.remove() }
            let freshStore = try fresh.open().store
            defer { freshStore.close() }
            #expect(try opened.store.schemaDump() == freshStore.schemaDump())
        }
    }

    @Test func eachMigrationStepSetsItsOwnVersion() throws {
        try withSandbox { (sandbox) throws in
            let connection = try Connection.open(path: sandbox.path, mode: .readWriteCreate, operation: "test")
            defer { connection.close() }
            for migration in Schema.migrations {
                try Schema.migrate(connection, from: migration.version - 1, to: migration.version)
                #expect(try Schema.userVersion(connection, operation: "test") == migration.version)
            }
        }
    }

    @Test func aFailedMigrationLeavesThePreviousVersionIntact() throws {
        try withSandbox { (sandbox) throws in
            // A version-0 file where migration 1 cannot run (a table of that name is already there):
            // the migration's transaction must roll back completely, user_version included.
            do {
                let raw = try RawDatabase(path: sandbox.path)
                try raw.exec("CREATE TABLE notice (unrelated TEXT)")
            }
            let error = expectStoreError(.other) { _ = try sandbox.open() }
            #expect(error?.operation.hasPrefix("migrate to 1") == true)
            let raw = try RawDatabase(path: sandbox.path, readOnly: true)
            #expect(try raw.column("PRAGMA user_version") == ["0"])
            #expect(try raw.column("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == ["notice"])
        }
    }
}
