import Foundation
import GRDB
import StoreKitModel

extension StoredTransaction {
    init(row: Row) {
        let domain: String? = row["error_domain"]
        let code: Int? = row["error_code"]
        var error: StoreError?
        if let code {
            if domain == "NSURLErrorDomain", let network = URLErrorCode(rawValue: code) {
                error = .network(network)
            } else {
                error = .storeKit(SKErrorCode(rawValue: code) ?? .unknown)
            }
        }
        let payment = Payment(productId: row["product_id"], quantity: row["quantity"],
                              applicationUsername: row["order_id"], account: row["account"])
        transaction = Transaction(id: row["id"], originalId: row["original_id"], payment: payment,
                                  state: TransactionState(rawValue: row["state"]) ?? .failed, error: error,
                                  purchaseDate: Date(timeIntervalSince1970: row["purchase_date"]),
                                  finished: row["finished"])
        storefront = row["storefront"]
        // Written by `exactString` with '.': read back with no locale, so ICU is not asked.
        price = Decimal(string: row["price"] as String) ?? 0
        currency = row["currency"]
        expiresDate = (row["expires_date"] as Double?).map(Date.init(timeIntervalSince1970:))
        revocationDate = (row["revocation_date"] as Double?).map(Date.init(timeIntervalSince1970:))
        autoRenew = row["auto_renew"]
        pendingOutcome = (row["pending_outcome"] as String?).flatMap(PaymentOutcome.init(token:))
        reason = TransactionReason(rawValue: row["reason"]) ?? .purchase
    }

    func insert(_ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO transactions (id, original_id, product_id, quantity, account, order_id, state, error_domain,
                error_code, purchase_date, expires_date, revocation_date, auto_renew, finished, pending_outcome,
                storefront, price, currency, reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id, transaction.originalId, transaction.productId, transaction.quantity, transaction.payment.account,
                transaction.payment.applicationUsername, transaction.state.rawValue, transaction.error?.domain,
                transaction.error?.code, transaction.purchaseDate.timeIntervalSince1970,
                expiresDate?.timeIntervalSince1970, revocationDate?.timeIntervalSince1970, autoRenew,
                transaction.finished, pendingOutcome?.token, storefront, price.exactString, currency, reason.rawValue,
            ])
    }

    func update(_ db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE transactions SET state = ?, error_domain = ?, error_code = ?, expires_date = ?, revocation_date = ?,
                auto_renew = ?, finished = ?, pending_outcome = ?, price = ? WHERE id = ?
            """).execute(arguments: [
                transaction.state.rawValue, transaction.error?.domain, transaction.error?.code,
                expiresDate?.timeIntervalSince1970, revocationDate?.timeIntervalSince1970, autoRenew,
                transaction.finished, pendingOutcome?.token, price.exactString, id,
            ])
    }

    static func fetch(_ db: Database, id: String) throws -> StoredTransaction? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM transactions WHERE id = ?"), arguments: [id]).map(StoredTransaction.init(row:))
    }

    static func fetchAll(_ db: Database, where condition: String = "1", _ arguments: StatementArguments = []) throws -> [StoredTransaction] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM transactions WHERE \(condition) ORDER BY seq"), arguments: arguments)
            .map(StoredTransaction.init(row:))
    }
}

extension StoreDatabase {
    static func setting(_ db: Database, _ key: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM settings WHERE key = ?"), arguments: [key])
    }

    static func setSetting(_ db: Database, _ key: String, _ value: String?) throws {
        if let value {
            try db.cachedStatement(sql: "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
                .execute(arguments: [key, value])
        } else {
            try db.cachedStatement(sql: "DELETE FROM settings WHERE key = ?").execute(arguments: [key])
        }
    }

    /// The next 16-digit transaction id, allocated inside the caller's write so ids never repeat.
    static func nextTransactionId(_ db: Database) throws -> String {
        let next = (try setting(db, "next_transaction_number")).flatMap(Int.init) ?? 1
        try setSetting(db, "next_transaction_number", String(next + 1))
        return String(2_000_000_000_000_000 + next)
    }
}
