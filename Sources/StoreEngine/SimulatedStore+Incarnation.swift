import Foundation
import StoreSQL

/// A store's database may be restored from a backup or copied to start a second server: its
/// identity comes along, and its transaction numbers would start again where the copy was taken,
/// issuing ids that the first run already gave to other purchases and that apps have delivered.
/// So each server run numbers its transactions from the time it started: a restored or copied
/// store starts above every number issued before, as long as the store issued fewer than
/// `numbersPerMillisecond` a millisecond on average since its previous start.
extension SimulatedStore {
    /// Numbers a millisecond: far above any store's rate, and within an order id's 45 bits for a century.
    static let numbersPerMillisecond: Int64 = 10
    /// The start of the numbering clock: 2026-01-01T00:00:00Z.
    static let numberingEpoch = Date(timeIntervalSince1970: 1_767_225_600)

    /// Raises the next transaction number to the one the clock gives `now` (never lowers it).
    public func numberTransactionsFrom(_ now: Date) async throws {
        let floor = max(1, Int64(now.timeIntervalSince(Self.numberingEpoch) * 1000) * Self.numbersPerMillisecond)
        try await database.write { db in
            let next = (try StoreDatabase.setting(db, StoreDatabase.nextTransactionNumber)).flatMap(Int64.init) ?? 1
            if floor > next { try StoreDatabase.setSetting(db, StoreDatabase.nextTransactionNumber, String(floor)) }
        }
    }
}
