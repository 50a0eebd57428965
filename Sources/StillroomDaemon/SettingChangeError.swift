import SQLiteStore
import StillroomCore

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
            let why = error.isDiskFull ? "the card is full, so the new value could not be saved" : "the new value could not be saved"
            return "\(key) stays \(kept): \(why) (\(error))"
        }
    }

    var description: String { message }
}
