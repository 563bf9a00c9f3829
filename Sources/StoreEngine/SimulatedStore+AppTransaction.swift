import Crypto
import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// When each account first got the app, for its AppTransaction: kept once, so every answer
/// after the first gives the same original purchase date.
extension SimulatedStore {
    /// The account's first purchase of the app: its first transaction's date, or now for an
    /// account with none, recorded at the first ask (a read after that: the app asks at launch).
    public func appFirstSeen(account: String) async throws -> Date {
        let key = "app.first_seen.\(account)"
        if let kept = try await database.read({ db in try StoreDatabase.setting(db, key) })
            .flatMap(Double.init)
        {
            return Date(timeIntervalSince1970: kept)
        }
        let now = clock.now()
        return try await database.write { db in
            if let kept = try StoreDatabase.setting(db, key).flatMap(Double.init) {
                return Date(timeIntervalSince1970: kept)
            }
            let first =
                try Double.fetchOne(
                    db, sql: "SELECT MIN(purchase_date) FROM transactions WHERE account = ?", arguments: [account])
                ?? now.timeIntervalSince1970
            try StoreDatabase.setSetting(db, key, String(first))
            return Date(timeIntervalSince1970: first)
        }
    }

    /// The catalog's `app` section decides the versions, and the dates when it gives them.
    public func appTransaction(account: String) async throws -> AppTransactionInfo {
        let app = catalog.settings.app
        let purchased: Date
        if let date = app.purchaseDate {
            purchased = date
        } else {
            purchased = try await appFirstSeen(account: account)
        }
        return AppTransactionInfo(
            appTransactionId: Self.appTransactionId(bundleId: catalog.bundleId, account: account),
            bundleId: catalog.bundleId, originalPurchaseDate: purchased,
            originalApplicationVersion: app.originalVersion,
            applicationVersion: app.version, preorderDate: app.preorderDate, environment: environment)
    }

    /// The account's app transaction id: one per app and account, the same in every JWS, digits
    /// as Apple's are (the first 8 bytes of SHA-256 of the bundle id and account).
    public nonisolated static func appTransactionId(bundleId: String, account: String) -> String {
        let digest = SHA256.hash(data: Data("\(bundleId)\u{0}\(account)".utf8))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x0FFF_FFFF_FFFF_FFFF
        return String(value)
    }
}
