import Foundation
import StoreCore
import StoreSQL

/// A running server's look, each second, at whether the store under it is still the one it
/// opened. Another store in its place (a reset and a new server, another store's backup) or the
/// same store with its transaction numbering gone back (its own backup restored under it) would
/// have the server hand out ids apps already hold and serve from memory that is no longer true;
/// such a store is retired for the process instead, and every use says why and what to do.
extension SimulatedStore {
    /// Reads the store's identity and next transaction number; retires the store when either
    /// went where a store running under one server never goes.
    public func checkUnderfoot() async throws {
        let (identity, next) = try await database.read { db in
            (
                try StoreDatabase.setting(db, "store_id"),
                try StoreDatabase.setting(db, StoreDatabase.nextTransactionNumber).flatMap(Int64.init)
            )
        }
        if identity != self.identity {
            database.health.retire(
                "the store under this server is no longer the one it opened (store id \(self.identity), now \(identity ?? "none")): it was reset or replaced under the server. Restart the server to serve the store there now."
            )
            return
        }
        guard let next else { return }
        if next < highestNumberSeen {
            database.health.retire(
                "the store under this server numbers its next transaction \(next), below \(highestNumberSeen) seen before: it was restored from a backup under this server, which would issue ids apps already hold. Restart the server: it numbers from the clock at start, above every id issued before."
            )
            return
        }
        highestNumberSeen = next
    }
}
