// The one error type of the store. Every failure carries SQLite's own words (result code, extended
// code, sqlite3_errmsg) and the store operation that failed, so a log line is enough to diagnose it.

import SystemCalls

/// An error from the SQLite store.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in the store's terms; `diskFull` is singled out so callers can say so on screen.
    public enum Kind: String, Hashable, Sendable {
        /// SQLITE_FULL: no room left to write (the disk, or a page limit). Nothing already committed is lost;
        /// the failed statement or transaction is rolled back.
        case diskFull
        /// SQLITE_READONLY: a write on a read-only store (the maintenance CLI's), or an unwritable file.
        case readOnly
        /// SQLITE_BUSY / SQLITE_LOCKED: another connection held a lock past the busy timeout.
        case busy
        /// SQLITE_CORRUPT: the file is damaged.
        case corrupt
        /// SQLITE_NOTADB: the file is not an SQLite database.
        case notADatabase
        /// SQLITE_CONSTRAINT: a value broke a CHECK, NOT NULL or key constraint.
        case constraint
        /// SQLITE_CANTOPEN: the file or its directory cannot be opened or created.
        case cannotOpen
        /// SQLITE_IOERR: the operating system reported an I/O error.
        case ioError
        /// The database was written by newer firmware (its user_version is above ours); left untouched.
        case schemaTooNew
        /// A read-only open found a schema version other than ours (the daemon has not migrated it yet).
        case schemaMismatch
        /// A stored value could not be decoded (for example an unknown enum string or malformed ranges).
        case invalidData
        /// A value passed in cannot be stored (for example a run without an id, or a non-finite number).
        case invalidArgument
        /// Moving a damaged database aside failed at the file-system level (the code is an errno).
        case moveAsideFailed
        /// Removing a set-aside copy of a damaged database failed (the code is an errno).
        case fileRemovalFailed
        /// The store was used after `close()`.
        case closed
        /// Any other SQLite failure.
        case other
    }

    public let kind: Kind
    /// The primary SQLite result code (for example 13, SQLITE_FULL); for `moveAsideFailed` and
    /// `fileRemovalFailed`, the errno.
    public let code: Int32
    /// The extended SQLite result code (for example 778, SQLITE_IOERR_WRITE); equals `code` when there is none.
    public let extendedCode: Int32
    /// The store operation that failed, such as "open", "settings.set", "migrate to 1".
    public let operation: String
    /// SQLite's message (sqlite3_errmsg), or the store's own for failures that are not SQLite's.
    public let message: String

    public init(kind: Kind, code: Int32, extendedCode: Int32, operation: String, message: String) {
        self.kind = kind
        self.code = code
        self.extendedCode = extendedCode
        self.operation = operation
        self.message = message
    }

    /// A file-system step of the store failed (`moveAsideFailed`, `fileRemovalFailed`): the errno is the
    /// code, and the message is the system error's own text.
    public init(kind: Kind, operation: String, cause: SystemError) {
        self.init(kind: kind, code: cause.errno, extendedCode: cause.errno, operation: operation, message: cause.description)
        systemError = cause
    }

    /// The failed system call behind a file-system failure; nil for SQLite's own errors.
    public private(set) var systemError: SystemError?

    /// Whether this is the disk-full error (SQLITE_FULL).
    public var isDiskFull: Bool { kind == .diskFull }

    /// What went wrong in words for the person at the box or the CLI: no SQLite message, no codes (those
    /// are for the journal: `description`). docs/control.md, "Words, not values".
    public var inWords: String {
        switch kind {
        case .diskFull: "the memory card is full"
        case .readOnly: "the memory card cannot be written (it is read-only)"
        case .busy: "the saved data was busy; try again in a moment"
        case .corrupt: "the saved data is damaged (stillroomctl doctor says what to do)"
        case .notADatabase: "the saved data file is not one the box can read"
        case .constraint, .invalidArgument: "the value cannot be kept"
        case .cannotOpen: "the saved data cannot be opened"
        case .ioError: "the memory card failed to read or write"
        case .schemaTooNew: "the saved data is from a newer version of the box's software"
        case .schemaMismatch: "the saved data is from another version of the box's software"
        case .invalidData: "a saved value cannot be read"
        case .moveAsideFailed: "the damaged saved data could not be set aside"
        case .fileRemovalFailed: "a set-aside copy of damaged data could not be removed"
        case .closed, .other: "the saved data could not be written (the log says more: journalctl -u stillroom)"
        }
    }

    public var description: String {
        let lead: String
        switch kind {
        case .diskFull: lead = "disk full: the database could not grow, nothing new was saved"
        case .readOnly: lead = "read-only: the database cannot be written through this store"
        case .busy: lead = "database busy"
        case .corrupt: lead = "database damaged"
        case .notADatabase: lead = "not a database"
        case .constraint: lead = "value rejected"
        case .cannotOpen: lead = "cannot open database"
        case .ioError: lead = "I/O error"
        case .schemaTooNew: lead = "database is from newer firmware"
        case .schemaMismatch: lead = "database schema differs"
        case .invalidData: lead = "stored value is invalid"
        case .invalidArgument: lead = "invalid value"
        case .moveAsideFailed: lead = "could not move the damaged database aside"
        case .fileRemovalFailed: lead = "could not remove a set-aside copy of a damaged database"
        case .closed: lead = "store is closed"
        case .other: lead = "database error"
        }
        return "\(lead) (\(operation)): \(message) [code \(code), extended \(extendedCode)]"
    }
}
