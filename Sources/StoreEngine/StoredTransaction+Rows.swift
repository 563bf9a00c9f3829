import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

extension StoredTransaction {
    /// The columns a `StoredTransaction` is written to and read from, in the order of `Field`.
    /// Rows are read by position: GRDB finds a fetched row's column by name by lowercasing every
    /// name before it, on every read, so the cost grows with the columns; with nineteen it was
    /// already 8 % of a server payment's instructions.
    static let columns = """
        id, original_id, product_id, quantity, account, order_id, state, error_domain, error_code, purchase_date, \
        expires_date, revocation_date, auto_renew, finished, pending_outcome, storefront, price, currency, reason, \
        offer_type, offer_id, offer_mode, offer_period, revocation_reason, \
        renewal_product_id, billing_retry_until, grace_expires, price_increase, expiration_reason, \
        renewal_offer_type, renewal_offer_id, renewal_offer_mode, renewal_offer_period, upgrade_date, upgrade_refund, declined, \
        app_account_token, ownership, shared_from, renewal_price, \
        billing_plan, commitment_period, commitment_price, commitment_expires, commitment_auto_renew, renewal_plan, \
        intro_offer_allowed, refund_reversed_at, revocation_percentage
        """

    /// A column's position in `columns`.
    enum Field: Int, CaseIterable {
        case id, originalId, productId, quantity, account, orderId, state, errorDomain, errorCode, purchaseDate,
            expiresDate, revocationDate, autoRenew, finished, pendingOutcome, storefront, price, currency, reason,
            offerType, offerId, offerMode, offerPeriod, revocationReason,
            renewalProductId, billingRetryUntil, graceExpires, priceIncrease, expirationReason,
            renewalOfferType, renewalOfferId, renewalOfferMode, renewalOfferPeriod, upgradeDate, upgradeRefund,
            declined,
            appAccountToken, ownership, sharedFrom, renewalPrice,
            billingPlan, commitmentPeriod, commitmentPrice, commitmentExpires, commitmentAutoRenew, renewalPlan,
            introOfferAllowed, refundReversedAt, revocationPercentage
    }

    /// How many columns `columns` lists: where a query's own columns after them start.
    static let fieldCount = Field.allCases.count

    /// Reads the row of a `SELECT` that starts with `columns`; a column that does not hold what
    /// the schema puts there throws `SQLRowError`.
    init(row: SQLRow) throws(SQLRowError) {
        func value<T: SQLValueConvertible>(_ field: Field) throws(SQLRowError) -> T { try row[field.rawValue] }
        func optional<T: SQLValueConvertible>(_ field: Field) throws(SQLRowError) -> T? { try row[field.rawValue] }
        func date(_ field: Field) throws(SQLRowError) -> Date? {
            try (optional(field) as Double?).map(Date.init(timeIntervalSince1970:))
        }
        func parsed<Raw: SQLValueConvertible, T>(_ field: Field, _ what: String, _ make: (Raw) -> T?)
            throws(SQLRowError) -> T
        { try row.parsed(field.rawValue, as: what, make) }
        func parsedIfPresent<Raw: SQLValueConvertible, T>(_ field: Field, _ what: String, _ make: (Raw) -> T?)
            throws(SQLRowError) -> T?
        { try row.parsedIfPresent(field.rawValue, as: what, make) }
        let decimal = { (text: String) in Decimal(string: text) }
        let error = StoreError.stored(domain: try optional(.errorDomain), code: try optional(.errorCode))
        let payment = Payment(
            productId: try value(.productId), quantity: try value(.quantity),
            applicationUsername: try optional(.orderId), account: try value(.account))
        transaction = Transaction(
            id: try value(.id), originalId: try value(.originalId), payment: payment,
            state: try parsed(.state, "a transaction state", TransactionState.init(rawValue:)), error: error,
            purchaseDate: Date(timeIntervalSince1970: try value(.purchaseDate)),
            finished: try value(.finished))
        storefront = try value(.storefront)
        // Written by `exactString` with '.': read back with no locale, so ICU is not asked.
        price = try parsed(.price, "a decimal price", decimal)
        currency = try value(.currency)
        expiresDate = try date(.expiresDate)
        revocationDate = try date(.revocationDate)
        autoRenew = try value(.autoRenew)
        pendingOutcome = try parsedIfPresent(.pendingOutcome, "a payment outcome", PaymentOutcome.init(token:))
        reason = try parsed(.reason, "a transaction reason", TransactionReason.init(rawValue:))
        offer = TransactionOffer(
            type: try optional(.offerType), id: try optional(.offerId), mode: try optional(.offerMode),
            period: try optional(.offerPeriod))
        revocationReason = try parsedIfPresent(
            .revocationReason, "a revocation reason", RevocationReason.init(rawValue:))
        renewalProductId = try optional(.renewalProductId)
        billingRetryUntil = try date(.billingRetryUntil)
        graceExpires = try date(.graceExpires)
        priceIncrease = try parsedIfPresent(
            .priceIncrease, "a price increase status", PriceIncreaseStatus.init(rawValue:))
        expirationReason = try parsedIfPresent(
            .expirationReason, "an expiration reason", ExpirationReason.init(rawValue:))
        renewalOffer = TransactionOffer(
            type: try optional(.renewalOfferType), id: try optional(.renewalOfferId),
            mode: try optional(.renewalOfferMode), period: try optional(.renewalOfferPeriod))
        upgrade = Upgrade(date: try date(.upgradeDate), refund: try optional(.upgradeRefund))
        declined = try value(.declined)
        appAccountToken = try parsedIfPresent(.appAccountToken, "a UUID", UUID.init(uuidString:))
        ownership = try parsed(.ownership, "an ownership type", OwnershipType.init(rawValue:))
        sharedFrom = try optional(.sharedFrom)
        renewalPrice = try parsedIfPresent(.renewalPrice, "a decimal price", decimal)
        billingPlan = try parsedIfPresent(.billingPlan, "a billing plan", BillingPlanType.init(rawValue:))
        commitment = TransactionCommitment(
            period: try optional(.commitmentPeriod), price: try optional(.commitmentPrice),
            expires: try optional(.commitmentExpires))
        commitmentAutoRenew = try optional(.commitmentAutoRenew)
        renewalPlan = try parsedIfPresent(.renewalPlan, "a billing plan", BillingPlanType.init(rawValue:))
        introOfferAllowed = try optional(.introOfferAllowed)
        refundReversalDate = try date(.refundReversedAt)
        revocationPercentage = try parsedIfPresent(
            .revocationPercentage, "a refund percentage in milliunits, 1 to 99999", RefundPercentage.init(milliunits:))
    }

    /// Inserts the transaction; `owner` and `requestKey` are the process that added it and the
    /// server request (idempotency key and generation) it answers, when there is one.
    func insert(owner: String? = nil, requestKey: String? = nil, _ db: any SQLDatabase) throws {
        try db.cachedStatement(sql: Self.insertSQL).execute(arguments: [
            id, transaction.originalId, transaction.productId, transaction.quantity, transaction.payment.account,
            transaction.payment.applicationUsername, transaction.state.rawValue, transaction.error?.domain,
            transaction.error?.code, transaction.purchaseDate.timeIntervalSince1970,
            expiresDate?.timeIntervalSince1970, revocationDate?.timeIntervalSince1970, autoRenew,
            transaction.finished, pendingOutcome?.token, storefront, price.exactString, currency, reason.rawValue,
            offer?.type.rawValue, offer?.id, offer?.paymentMode.rawValue, offer?.period?.iso8601,
            revocationReason?.rawValue,
            renewalProductId, billingRetryUntil?.timeIntervalSince1970, graceExpires?.timeIntervalSince1970,
            priceIncrease?.rawValue, expirationReason?.rawValue,
            renewalOffer?.type.rawValue, renewalOffer?.id, renewalOffer?.paymentMode.rawValue,
            renewalOffer?.period?.iso8601,
            upgrade?.date.timeIntervalSince1970, upgrade?.refund.exactString, declined,
            appAccountToken?.uuidString.lowercased(),
            ownership.rawValue, sharedFrom, renewalPrice?.exactString,
            billingPlan?.rawValue, commitment?.billingPeriodNumber, commitment?.price.exactString,
            commitment?.expirationDate.timeIntervalSince1970, commitmentAutoRenew, renewalPlan?.rawValue,
            introOfferAllowed, refundReversalDate?.timeIntervalSince1970, revocationPercentage?.milliunits, owner,
            requestKey,
        ])
    }

    /// Built once: a payment inserts a row, and the statement cache looks it up by its text.
    static let insertSQL = """
        INSERT INTO transactions (\(columns), owner, request_key)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    func update(_ db: any SQLDatabase) throws {
        try db.cachedStatement(
            sql: """
                UPDATE transactions SET state = ?, error_domain = ?, error_code = ?, expires_date = ?, revocation_date = ?,
                    auto_renew = ?, finished = ?, pending_outcome = ?, price = ?, original_id = ?, offer_type = ?, offer_id = ?,
                    offer_mode = ?, offer_period = ?, revocation_reason = ?, renewal_product_id = ?, billing_retry_until = ?,
                    grace_expires = ?, price_increase = ?, expiration_reason = ?, reason = ?, renewal_offer_type = ?, renewal_offer_id = ?,
                    renewal_offer_mode = ?, renewal_offer_period = ?, upgrade_date = ?, upgrade_refund = ?, declined = ?, app_account_token = ?,
                    renewal_price = ?, billing_plan = ?, commitment_period = ?, commitment_price = ?, commitment_expires = ?,
                    commitment_auto_renew = ?, renewal_plan = ?, refund_reversed_at = ?,
                    revocation_percentage = ? WHERE id = ?
                """
        ).execute(arguments: [
            transaction.state.rawValue, transaction.error?.domain, transaction.error?.code,
            expiresDate?.timeIntervalSince1970, revocationDate?.timeIntervalSince1970, autoRenew,
            transaction.finished, pendingOutcome?.token, price.exactString, transaction.originalId,
            offer?.type.rawValue, offer?.id, offer?.paymentMode.rawValue, offer?.period?.iso8601,
            revocationReason?.rawValue,
            renewalProductId, billingRetryUntil?.timeIntervalSince1970, graceExpires?.timeIntervalSince1970,
            priceIncrease?.rawValue, expirationReason?.rawValue, reason.rawValue,
            renewalOffer?.type.rawValue, renewalOffer?.id, renewalOffer?.paymentMode.rawValue,
            renewalOffer?.period?.iso8601,
            upgrade?.date.timeIntervalSince1970, upgrade?.refund.exactString, declined,
            appAccountToken?.uuidString.lowercased(), renewalPrice?.exactString,
            billingPlan?.rawValue, commitment?.billingPeriodNumber, commitment?.price.exactString,
            commitment?.expirationDate.timeIntervalSince1970, commitmentAutoRenew, renewalPlan?.rawValue,
            refundReversalDate?.timeIntervalSince1970, revocationPercentage?.milliunits, id,
        ])
        if ownership == .purchased, expiresDate != nil { try mirrorToFamily(db) }
    }

    /// `autoRenew` turned off, as `update` would write it, without rewriting the row's other
    /// columns: every renewal does this to the period it follows.
    func stopRenewing(_ db: any SQLDatabase) throws {
        var ended = self
        ended.autoRenew = false
        try db.cachedStatement(sql: "UPDATE transactions SET auto_renew = 0 WHERE id = ?").execute(arguments: [id])
        if ownership == .purchased, expiresDate != nil { try ended.mirrorToFamily(db) }
    }

    /// A subscription period's state, as the family's copies of it share it: when it ends, whether
    /// it renews, billing retry and grace, a price increase, why it expired, and an upgrade that
    /// replaced it (the copy ends with it; a member was refunded nothing). A refund revokes the
    /// copies instead: `SimulatedStore.syncFamily`.
    private func mirrorToFamily(_ db: any SQLDatabase) throws {
        try db.cachedStatement(
            sql: """
                UPDATE transactions SET expires_date = ?, auto_renew = ?, billing_retry_until = ?, grace_expires = ?, price_increase = ?,
                    expiration_reason = ?, upgrade_date = ?, upgrade_refund = ?
                WHERE shared_from = ? AND revocation_date IS NULL
                """
        ).execute(arguments: [
            expiresDate?.timeIntervalSince1970, autoRenew, billingRetryUntil?.timeIntervalSince1970,
            graceExpires?.timeIntervalSince1970,
            priceIncrease?.rawValue, expirationReason?.rawValue, upgrade?.date.timeIntervalSince1970,
            upgrade.map { _ in "0" }, id,
        ])
    }

    /// A `SELECT` of transactions `t` (`columns`), then the purchase date of each one's original,
    /// for a `WHERE` to follow.
    static let withOriginalPurchaseDate = """
        SELECT \(columns(of: "t")), COALESCE(o.purchase_date, t.purchase_date)
        FROM transactions t LEFT JOIN transactions o ON o.id = t.original_id
        """

    /// `columns` of the table called `alias` in a join.
    static func columns(of alias: String) -> String {
        columns.split(separator: ",").map { "\(alias).\($0.trimmingCharacters(in: .whitespaces))" }.joined(
            separator: ", ")
    }

    static func fetch(_ db: any SQLDatabase, id: String) throws -> StoredTransaction? {
        try SQLRow.fetchOne(
            db.cachedStatement(sql: "SELECT \(columns) FROM transactions WHERE id = ?"), arguments: [id]
        )
        .map(StoredTransaction.init(row:))
    }

    static func fetchAll(_ db: any SQLDatabase, where condition: String = "TRUE", _ arguments: SQLArguments = []) throws
        -> [StoredTransaction]
    {
        try SQLRow.fetchAll(
            db.cachedStatement(sql: "SELECT \(columns) FROM transactions WHERE \(condition) ORDER BY seq"),
            arguments: arguments
        )
        .map(StoredTransaction.init(row:))
    }
}

/// Transaction states as they appear in SQL, so a query names the state it means rather than its
/// raw value.
enum StateSQL {
    static let purchasing = String(TransactionState.purchasing.rawValue)
    static let purchased = String(TransactionState.purchased.rawValue)
    /// Purchased or restored: the transactions that give the account something.
    static let paid = "(\(TransactionState.purchased.rawValue), \(TransactionState.restored.rawValue))"
}

extension StoreError {
    /// An error as the store keeps it (an error's domain and code columns); nil without a code.
    /// A code this build does not know reads as `SKError.unknown`.
    static func stored(domain: String?, code: Int?) -> StoreError? {
        guard let code else { return nil }
        if domain == "NSURLErrorDomain", let network = URLErrorCode(rawValue: code) { return .network(network) }
        return .storeKit(SKErrorCode(rawValue: code) ?? .unknown)
    }
}

extension StoreDatabase {
    static func setting(_ db: any SQLDatabase, _ key: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM settings WHERE key = ?"), arguments: [key])
    }

    static func setSetting(_ db: any SQLDatabase, _ key: String, _ value: String?) throws {
        if key.hasPrefix(TestControls.storagePrefix) { db.memo.forget(TestControls.memoKey) }
        db.memo.forget(key)
        if let value {
            try db.cachedStatement(
                sql:
                    "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
            )
            .execute(arguments: [key, value])
        } else {
            try db.cachedStatement(sql: "DELETE FROM settings WHERE key = ?").execute(arguments: [key])
        }
    }

    /// The next 16-digit transaction id, allocated inside the caller's write so ids never repeat.
    static let nextTransactionNumber = "next_transaction_number"

    static func nextTransactionId(_ db: any SQLDatabase) throws -> String {
        // Writes are serialised, so a number this transaction read stays its own: the next ones
        // are counted here and stored without a read (on PostgreSQL, without waiting).
        let next: Int64
        if let known = db.memo.value(nextTransactionNumber, as: Int64.self) {
            next = known
            try db.cachedStatement(sql: "UPDATE settings SET value = ? WHERE key = ?").execute(arguments: [
                String(next + 1), nextTransactionNumber,
            ])
        } else if db.dialect == .postgres {
            // Read and advanced in one statement: one round trip. On SQLite the read and the
            // upsert cost fewer instructions than RETURNING.
            let advanced = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        INSERT INTO settings (key, value) VALUES (?, '2') ON CONFLICT(key)
                        DO UPDATE SET value = CAST(CAST(settings.value AS BIGINT) + 1 AS TEXT) RETURNING value
                        """),
                arguments: [nextTransactionNumber])
            guard let advanced = advanced.flatMap(Int64.init) else {
                throw StoreFailure("the store's next transaction number is not a number: \(advanced ?? "nothing")")
            }
            next = advanced - 1
        } else {
            next = (try setting(db, nextTransactionNumber)).flatMap(Int64.init) ?? 1
            try setSetting(db, nextTransactionNumber, String(next + 1))
        }
        db.memo.keep(next + 1, as: nextTransactionNumber)
        return String(2_000_000_000_000_000 + next)
    }
}
