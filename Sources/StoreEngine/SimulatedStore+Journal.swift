import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// One delivered update with its place in the journal: a client that asks for what came after
/// `cursor` gets every later update once, in commit order.
public struct JournalEntry: Sendable, Hashable {
    public let cursor: Int64
    public let update: TransactionUpdate

    public init(cursor: Int64, update: TransactionUpdate) {
        self.cursor = cursor
        self.update = update
    }
}

extension TransactionDetails {
    init(_ stored: StoredTransaction, originalPurchaseDate: Date) {
        self.init(
            transactionId: stored.id, storefront: stored.storefront, originalPurchaseDate: originalPurchaseDate,
            willAutoRenew: stored.autoRenew && stored.expiresDate != nil,
            reason: stored.reason == .renewal ? .renewal : stored.reason == .restore ? .restore : .purchase,
            terms: stored.terms,
            appAccountToken: stored.appAccountToken)
    }
}

/// What opening a receipt found: its payload, or the verifyReceipt status that refuses it.
public enum ReceiptCheck: Sendable, Hashable {
    case valid(ReceiptPayload)
    case invalid(VerifyStatus)
}

extension SimulatedStore {
    /// The update for a state change, journaled in the caller's write so the journal never misses
    /// or invents one, whatever crashes after the commit.
    /// `controls`: the test controls as the caller's write has them. The update has no receipt:
    /// a receipt lists every purchase of the account, so the caller adds it after the commit
    /// (`withReceipts`), once per account, instead of holding every other writer while it is built;
    /// the journal never keeps one.
    nonisolated func journaledUpdate(_ stored: StoredTransaction, controls: TestControls, _ db: any SQLDatabase) throws
        -> TransactionUpdate
    {
        let update = update(for: stored, controls: controls)
        let now = clock.now()
        try Self.journal(update, at: now, db)
        try notifyOf(stored, at: now, db)
        // The family's copies are journaled with it (a member's app sees them at its next read).
        try syncFamily(stored, controls: controls, at: now, db)
        return update
    }

    static func journal(_ update: TransactionUpdate, at now: Date, _ db: any SQLDatabase) throws {
        let transaction = update.transaction
        let terms = transaction.terms
        try db.cachedStatement(
            sql: """
                INSERT INTO journal (account, transaction_id, original_id, product_id, quantity, order_id, state,
                    error_domain, error_code, purchase_date, recorded_at, price, currency, expires_date, offer_type, offer_id,
                    offer_mode, offer_period, revocation_date, revocation_reason, upgrade_date, upgrade_refund, failure_context, renewal, ownership,
                    billing_plan, commitment_period, commitment_price, commitment_expires, refund_reversed_at,
                    revocation_percentage)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            transaction.payment.account, transaction.id, transaction.originalId, transaction.productId,
            transaction.quantity,
            transaction.payment.applicationUsername, transaction.state.rawValue, transaction.error?.domain,
            transaction.error?.code,
            transaction.purchaseDate.timeIntervalSince1970, now.timeIntervalSince1970,
            terms?.price.exactString, terms?.currency, terms?.expirationDate?.timeIntervalSince1970,
            terms?.offer?.type.rawValue, terms?.offer?.id, terms?.offer?.paymentMode.rawValue,
            terms?.offer?.period?.iso8601,
            terms?.revocation?.date.timeIntervalSince1970, terms?.revocation?.reason.rawValue,
            terms?.upgrade?.date.timeIntervalSince1970, terms?.upgrade?.refund.exactString,
            transaction.failureContext?.rawValue,
            terms?.isRenewal ?? false, terms?.ownership.rawValue,
            terms?.billingPlan?.rawValue, terms?.commitment?.billingPeriodNumber,
            terms?.commitment?.price.exactString, terms?.commitment?.expirationDate.timeIntervalSince1970,
            terms?.refundReversalDate?.timeIntervalSince1970, terms?.revocation?.percentage?.milliunits,
        ])
    }

    /// Journaled updates after `cursor`, oldest first, of one account (or all when nil). A purchased
    /// or restored update carries the account's receipt as it is now.
    public func journal(account: String?, after cursor: Int64, limit: Int) async throws -> [JournalEntry] {
        let limit = max(1, min(limit, 1000))
        return try await database.read { db in
            let rows =
                if let account {
                    try SQLRow.fetchAll(
                        db.cachedStatement(
                            sql: "SELECT * FROM journal WHERE account = ? AND cursor > ? ORDER BY cursor LIMIT ?"),
                        arguments: [account, cursor, limit])
                } else {
                    try SQLRow.fetchAll(
                        db.cachedStatement(sql: "SELECT * FROM journal WHERE cursor > ? ORDER BY cursor LIMIT ?"),
                        arguments: [cursor, limit])
                }
            var receipts: [String: String] = [:]
            return try rows.map { row in
                let transaction = try Self.journaledTransaction(row)
                var receipt: String?
                if transaction.state.hasReceipt {
                    let account = transaction.payment.account
                    if receipts[account] == nil { receipts[account] = try self.receipt(account: account, db) }
                    receipt = receipts[account]
                }
                return JournalEntry(
                    cursor: try row["cursor"], update: TransactionUpdate(transaction: transaction, receipt: receipt))
            }
        }
    }

    /// The newest cursor ever handed out (0 before the first update): where "from now on" starts.
    public func journalCursor() async throws -> Int64 {
        try await database.read { db in
            try Int64.fetchOne(db, sql: db.dialect.journalHighWater) ?? 0
        }
    }

    private static func journaledTransaction(_ row: SQLRow) throws -> Transaction {
        let error = StoreError.stored(domain: try row["error_domain"], code: try row["error_code"])
        let payment = Payment(
            productId: try row["product_id"], quantity: try row["quantity"], applicationUsername: try row["order_id"],
            account: try row["account"])
        return Transaction(
            id: try row["transaction_id"], originalId: try row["original_id"], payment: payment,
            state: try row.parsed("state", as: "a transaction state", TransactionState.init(rawValue:)), error: error,
            purchaseDate: Date(timeIntervalSince1970: try row["purchase_date"]), terms: try journaledTerms(row),
            failureContext: (try row["failure_context"] as String?).flatMap(FailureContext.init(rawValue:)))
    }

    /// A snapshot's terms; nil for one journaled without them (before they were kept, or not purchased).
    private static func journaledTerms(_ row: SQLRow) throws -> TransactionTerms? {
        guard let price = (try row["price"] as String?).flatMap({ Decimal(string: $0) }),
            let currency = try row["currency"] as String?
        else { return nil }
        let date = { (column: String) throws in (try row[column] as Double?).map(Date.init(timeIntervalSince1970:)) }
        let revocation = Revocation(
            date: try date("revocation_date"),
            reason: (try row["revocation_reason"] as Int?).flatMap(RevocationReason.init(rawValue:)),
            percentage: try row["revocation_percentage"])
        let upgrade = Upgrade(date: try date("upgrade_date"), refund: try row["upgrade_refund"])
        return TransactionTerms(
            price: price, currency: currency, expirationDate: try date("expires_date"),
            offer: TransactionOffer(
                type: try row["offer_type"], id: try row["offer_id"], mode: try row["offer_mode"],
                period: try row["offer_period"]),
            revocation: revocation, upgrade: upgrade, isRenewal: try row["renewal"] as Bool? ?? false,
            ownership: (try row["ownership"] as String?).flatMap(OwnershipType.init(rawValue:)) ?? .purchased,
            billingPlan: (try row["billing_plan"] as String?).flatMap(BillingPlanType.init(rawValue:)),
            commitment: TransactionCommitment(
                period: try row["commitment_period"], price: try row["commitment_price"],
                expires: try row["commitment_expires"]),
            refundReversalDate: try date("refund_reversed_at"))
    }

    /// Price, storefront, expiry and the rest for each id the store still has (deleted ones are absent).
    public func details(transactionIds: [String]) async throws -> [String: TransactionDetails] {
        guard !transactionIds.isEmpty else { return [:] }
        return try await database.read { db in
            var result: [String: TransactionDetails] = [:]
            for id in Set(transactionIds) {
                result[id] = try self.details(of: id, db)
            }
            return result
        }
    }

    nonisolated func details(of id: String, _ db: any SQLDatabase) throws -> TransactionDetails? {
        guard let row = try SQLRow.fetchOne(db.cachedStatement(sql: Self.detailsQuery), arguments: [id]) else {
            return nil
        }
        let originalPurchaseDate = Date(timeIntervalSince1970: try row[StoredTransaction.fieldCount])
        return TransactionDetails(try StoredTransaction(row: row), originalPurchaseDate: originalPurchaseDate)
    }

    private static let detailsQuery = "\(StoredTransaction.withOriginalPurchaseDate) WHERE t.id = ?"

    /// The account's receipt as the store would issue it now (verifyReceipt's `latest_receipt`).
    public func currentReceipt(account: String) async throws -> String {
        try await database.read { db in try self.receipt(account: account, db) }
    }

    /// Checks a receipt's signature and shape, as verifyReceipt does before anything else.
    public nonisolated func openReceipt(_ receipt: String) -> ReceiptCheck {
        switch signer.open(receipt) {
        case .success(let payload):
            return .valid(payload)
        case .failure(let error):
            // Another server's receipt does not verify here, but it says where it is from, as
            // Apple's do: a sandbox receipt at a production server is 21007, the reverse 21008,
            // so a backend retries at the other environment instead of calling it forged.
            guard error.status == .notAuthenticated, let claimed = error.claimedEnvironment, claimed != environment
            else {
                return .invalid(error.status)
            }
            switch (claimed, environment) {
            case (.sandbox, .production): return .invalid(.sandboxReceiptSentToProduction)
            case (.production, .sandbox): return .invalid(.productionReceiptSentToSandbox)
            default: return .invalid(error.status)
            }
        }
    }
}
