/// Where playback stands and the practice runs it carries, to be kept together: one transaction, so one
/// fsync on the card and records that agree after any power cut (a cut can no longer keep a new position
/// with the practice figure of ten seconds before).
///
/// The player (`PlayerEffect.saveCheckpoint`, `.clearCheckpoint`) and the ledger (`PracticeLedger.Effect`)
/// each say what they want kept; `ProgressSave.plan(_:)` gathers the player's writes of one event into one
/// save and says where it goes among the other effects, and the ledger's saves for that event join it.
public struct ProgressSave: Equatable, Sendable {
    /// What happens to a session's saved place.
    public enum Checkpoint: Equatable, Sendable {
        case save(PlaybackPosition)
        case clear(sessionID: String)
    }

    /// In the order the player asked for them (a session left, then another's place, keeps that order).
    public var checkpoints: [Checkpoint]
    /// Runs to insert (id nil) or update, in the ledger's order.
    public var runs: [PracticeRunRecord]

    public init(checkpoints: [Checkpoint] = [], runs: [PracticeRunRecord] = []) {
        self.checkpoints = checkpoints
        self.runs = runs
    }

    public var isEmpty: Bool { checkpoints.isEmpty && runs.isEmpty }

    /// Adds the ledger's saves for the same event: kept in the same transaction as the place.
    public mutating func add(_ practice: [PracticeLedger.Effect]) {
        for case .save(let record) in practice { runs.append(record) }
    }

    /// An event's player effects, split around the one save.
    public struct Plan: Equatable, Sendable {
        /// Performed first, in order: the output's effects, which report what it played up to then, so the
        /// ledger has heard everything before it decides what to keep.
        public var before: [PlayerEffect]
        /// The player's checkpoint writes, in order; the ledger's saves join them (`runs`).
        public var save: ProgressSave
        /// Performed after the save: a `.load` and what follows it. Its answer (`.loaded`, `.loadFailed`) is
        /// another event with writes of its own, which must come after this one's, so places keep their order.
        public var after: [PlayerEffect]

        /// Whether a place is saved (the ledger then writes what changed since its last save).
        public var savesCheckpoint: Bool {
            save.checkpoints.contains { if case .save = $0 { return true } else { return false } }
        }
    }

    /// Splits `effects` around one save holding every checkpoint write among them: before the first
    /// `.load`, or at the end when there is none. (The player asks for a load last, after saving the place
    /// of the session it leaves.)
    public static func plan(_ effects: [PlayerEffect]) -> Plan {
        var plan = Plan(before: [], save: ProgressSave(), after: [])
        for effect in effects {
            switch effect {
            case .saveCheckpoint(let position):
                plan.save.checkpoints.append(.save(position))
            case .clearCheckpoint(let id):
                plan.save.checkpoints.append(.clear(sessionID: id))
            case .load:
                plan.after.append(effect)
            default:
                if plan.after.isEmpty { plan.before.append(effect) } else { plan.after.append(effect) }
            }
        }
        return plan
    }
}
