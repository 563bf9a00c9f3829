import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// Test controls live in the `settings` table, one key each, so they survive restarts and a
/// second process sees what the first one set.
extension TestControls {
    /// Where every control's key in `settings` starts.
    static let storagePrefix = "controls."
    /// The saved controls as the transaction read them (`TransactionMemo`).
    static let memoKey = "controls"

    static func load(_ db: any SQLDatabase, defaults: TestControls) throws -> TestControls {
        // One query for all of them, once a transaction: this runs in every payment's write.
        let saved: [String: String]
        if let known = db.memo.value(memoKey, as: [String: String].self) {
            saved = known
        } else {
            saved = try Dictionary(
                SQLRow.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT key, value FROM settings WHERE key >= 'controls.' AND key < 'controls/'")
                )
                .map { (row: SQLRow) -> (String, String) in (try row["key"], try row["value"]) },
                uniquingKeysWith: { first, _ in first })
            db.memo.keep(saved, as: memoKey)
        }
        guard saved["controls.saved"] != nil else { return defaults }
        var controls = TestControls()
        for control in TestControls.table {
            if let value = saved["controls.\(control.storageKey)"] { control.restore(value, into: &controls) }
        }
        return controls
    }

    func save(_ db: any SQLDatabase) throws {
        let set = { (key: String, value: String?) in try StoreDatabase.setSetting(db, "controls.\(key)", value) }
        try set("saved", "1")
        for control in TestControls.table { try set(control.storageKey, control.stored(in: self)) }
    }
}
