import SQLiteStore
import StillroomCore
import SystemCalls

/// Why a setting did not change: the value is not one the key takes, or the store could not save it
/// (a full card). Either way the setting keeps its value, in memory and on the card.
enum SettingChangeError: Error, CustomStringConvertible {
    case refused(SettingError)
    case notSaved(key: String, kept: String, StoreError)

    var message: String {
        switch self {
        case .refused(let error):
            return error.message
        case .notSaved(let key, let kept, let error):
            return "\(key) stays \(kept): the new value could not be saved (\(error.inWords))"
        }
    }

    var description: String { message }
}

/// A failure of the store, or of the file system under it, in words for people (`StoreError.inWords`, a
/// system error's reason); the journal keeps the codes.
func storageWords(_ error: any Error) -> String {
    switch error {
    case let error as StoreError: error.inWords
    case let error as SystemError: error.reason
    default: "\(error)"
    }
}
