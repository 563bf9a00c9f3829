import Foundation
import StoreCore
import StoreKitModel

/// The HTTP API's version prefix and header names, shared by the server and the client.
public enum API {
    public static let prefix = "/v1"
    public static let idempotencyKeyHeader = "Idempotency-Key"
    /// Set on a response that is the stored answer to an earlier request with the same key.
    public static let replayedHeader = "Idempotent-Replayed"
    /// Longest accepted `Idempotency-Key`.
    public static let maxIdempotencyKeyLength = 255
    /// The longest long poll the server honours (`wait`, seconds).
    public static let maxWaitSeconds = 60
}

/// `{"error": {...}}`: every refusal the API answers, with the HTTP status repeated in the body.
public struct ErrorBody: Codable, Sendable, Hashable {
    public struct Detail: Codable, Sendable, Hashable {
        public let message: String
        /// A stable word for scripts: `bad_request`, `unauthorized`, `not_found`, `conflict`,
        /// `idempotency_conflict`, `payload_too_large`, `unsupported_media_type`, `invalid`, `internal`, `unavailable`.
        public let code: String
        public let status: Int
        /// The request field or parameter at fault, when there is one.
        public let field: String?

        public init(message: String, code: String, status: Int, field: String? = nil) {
            self.message = message
            self.code = code
            self.status = status
            self.field = field
        }
    }

    public let error: Detail

    public init(_ error: Detail) {
        self.error = error
    }
}

/// A transaction's error on the wire: the domain and code StoreKit would report.
public struct WireStoreError: Codable, Sendable, Hashable {
    public let domain: String
    public let code: Int
    public let name: String

    public init(_ error: StoreError) {
        domain = error.domain
        code = error.code
        name = error.name
    }

    /// The error it names, or nil for a domain/code pair this build does not know.
    public var storeError: StoreError? {
        switch domain {
        case "SKErrorDomain": SKErrorCode(rawValue: code).map(StoreError.storeKit)
        case "NSURLErrorDomain": URLErrorCode(rawValue: code).map(StoreError.network)
        default: nil
        }
    }
}

/// A transaction on the wire. Dates are epoch milliseconds. `jwsRepresentation` (purchased and
/// restored only) is the ES256-signed StoreKit 2 form; the price fields come from the store.
public struct WireTransaction: Codable, Sendable, Hashable {
    public let transactionId: String
    public let originalTransactionId: String
    public let productId: String
    public let quantity: Int
    public let account: String
    public let applicationUsername: String?
    /// `purchasing`, `purchased`, `failed`, `restored` or `deferred`.
    public let state: String
    public let error: WireStoreError?
    public let purchaseDate: Int64
    public let finished: Bool
    /// `app` or `server` (Finish Transaction), with `finished`; absent from older servers.
    public let finishedBy: String?
    public let storefront: String?
    /// The exact decimal price charged (quantity included), in `currency`.
    public let price: String?
    public let currency: String?
    public let expiresDate: Int64?
    public let revocationDate: Int64?
    /// `other` or `developerIssue`, with `revocationDate`.
    public let revocationReason: String?
    /// A prorated refund's share, in thousandths of a percent (25500 for 25.5 %), with
    /// `revocationDate`; absent for a full refund.
    public let revocationPercentage: Int?
    /// When the App Store reversed a refund of it (epoch ms), so the app gives back what the
    /// refund took; absent when no refund was reversed.
    public let refundReversalDate: Int64?
    /// `introductory`, `promotional`, `code` or `winBack`, when an offer applied.
    public let offerType: String?
    public let offerId: String?
    /// `freeTrial`, `payAsYouGo` or `payUpFront`, with `offerType`.
    public let offerPaymentMode: String?
    /// One period of the offer (ISO 8601), with `offerType`.
    public let offerPeriod: String?
    /// When a higher level replaced this subscription (epoch ms); StoreKit 2's `isUpgraded`.
    public let upgradeDate: Int64?
    /// The unused part of the period the App Store refunded at the upgrade, with `upgradeDate`.
    public let upgradeRefund: String?
    /// `interrupted` (waiting for the user's action outside the app), with a failed `state`; or
    /// `declined` or `askToBuyExpired`, the store's side of a `deferred` Ask to Buy request (the
    /// app is sent nothing for either, so an update never carries them).
    public let failureContext: String?
    /// `PURCHASE` or `RENEWAL`, as the App Store names why a transaction exists; with the terms.
    public let transactionReason: String?
    /// `upFront` or `monthly`: how an auto-renewable period was paid, with the terms; absent for
    /// other products (and from older servers, whose periods were all paid up front).
    public let billingPlan: String?
    /// A monthly payment's place in its 12-month commitment, with `billingPlan` `monthly`.
    public let commitment: WireCommitment?
    /// A refund the customer asked for that the App Store has not decided: why, spelled as
    /// `manage request-refund --reason` spells it, and when (epoch ms). Only on a transaction
    /// listed, never on an update.
    public let refundRequestReason: String?
    public let refundRequestDate: Int64?
    public let jwsRepresentation: String?

    public init(_ transaction: Transaction, details: TransactionDetails? = nil, jws: String? = nil) {
        transactionId = transaction.id
        originalTransactionId = transaction.originalId
        productId = transaction.productId
        quantity = transaction.quantity
        account = transaction.payment.account
        applicationUsername = transaction.payment.applicationUsername
        state = transaction.state.name
        error = transaction.error.map(WireStoreError.init)
        purchaseDate = transaction.purchaseDate.epochMilliseconds
        finished = transaction.finished
        finishedBy = transaction.finishedBy?.rawValue
        storefront = details?.storefront
        price = details?.price.exactString
        currency = details?.currency
        expiresDate = details?.expiresDate?.epochMilliseconds
        revocationDate = details?.revocationDate?.epochMilliseconds
        revocationReason = details?.revocationReason?.name
        revocationPercentage = details?.terms.revocation?.percentage?.milliunits
        refundReversalDate = transaction.terms?.refundReversalDate?.epochMilliseconds
        let offer = details?.offer
        offerType = offer?.type.rawValue
        offerId = offer?.id
        offerPaymentMode = offer?.paymentMode.rawValue
        offerPeriod = offer?.period?.iso8601
        upgradeDate = details?.upgrade?.date.epochMilliseconds
        upgradeRefund = details?.upgrade?.refund.exactString
        failureContext = transaction.failureContext?.rawValue
        transactionReason = transaction.terms.map { $0.isRenewal ? "RENEWAL" : "PURCHASE" }
        billingPlan = details?.terms.billingPlan?.rawValue
        commitment = details?.terms.commitment.map(WireCommitment.init)
        refundRequestReason = transaction.refundRequest?.reason.rawValue
        refundRequestDate = transaction.refundRequest?.requestedAt.epochMilliseconds
        jwsRepresentation = jws
    }

    /// What the store told of the terms, once the transaction is purchased or restored.
    func terms() throws -> TransactionTerms? {
        guard TransactionState(name: state)?.hasReceipt == true, let price = price.flatMap({ Decimal(string: $0) }),
            let currency
        else { return nil }
        let revocation = Revocation(
            date: revocationDate.map(Date.init(epochMilliseconds:)),
            reason: revocationReason.flatMap(RevocationReason.init(name:)), percentage: revocationPercentage)
        let upgrade = Upgrade(date: upgradeDate.map(Date.init(epochMilliseconds:)), refund: upgradeRefund)
        return TransactionTerms(
            price: price, currency: currency, expirationDate: expiresDate.map(Date.init(epochMilliseconds:)),
            offer: TransactionOffer(type: offerType, id: offerId, mode: offerPaymentMode, period: offerPeriod),
            revocation: revocation, upgrade: upgrade, isRenewal: transactionReason == "RENEWAL",
            billingPlan: try BillingPlanType(wireName: billingPlan, of: "transaction \(transactionId)"),
            commitment: try commitment?.commitment(of: "transaction \(transactionId)"),
            refundReversalDate: refundReversalDate.map(Date.init(epochMilliseconds:)))
    }

    /// The engine's transaction; throws when the server sent a state or error this build cannot read.
    public func transaction() throws -> Transaction {
        guard let state = TransactionState(name: state) else {
            throw WireFormatError("transaction \(transactionId) has an unknown state \(self.state)")
        }
        var storeError: StoreError?
        if let error {
            guard let known = error.storeError else {
                throw WireFormatError("transaction \(transactionId) has an unknown error \(error.domain) \(error.code)")
            }
            storeError = known
        }
        var transaction = Transaction(
            id: transactionId, originalId: originalTransactionId,
            payment: Payment(
                productId: productId, quantity: quantity, applicationUsername: applicationUsername, account: account),
            state: state, error: storeError, purchaseDate: Date(epochMilliseconds: purchaseDate), finished: finished,
            terms: try terms(), failureContext: failureContext.flatMap(FailureContext.init(rawValue:)))
        transaction.finishedBy = finishedBy.flatMap(Finisher.init(rawValue:))
        transaction.refundRequest = try refundRequest()
        return transaction
    }

    /// The refund request waiting on the transaction, when the server listed one.
    func refundRequest() throws -> WaitingRefund? {
        guard let refundRequestDate else { return nil }
        let word = refundRequestReason ?? RefundRequestReason.other.rawValue
        guard let reason = RefundRequestReason(rawValue: word) else {
            throw WireFormatError(
                "transaction \(transactionId) has an unknown refund request reason \(word.prefix(40)) (expected \(RefundRequestReason.inWords))"
            )
        }
        return WaitingRefund(reason: reason, requestedAt: Date(epochMilliseconds: refundRequestDate))
    }
}

/// `TransactionCommitment` on the wire: the commitment's total as an exact decimal in the
/// transaction's currency, its end in epoch milliseconds.
public struct WireCommitment: Codable, Sendable, Hashable {
    public let billingPeriodNumber: Int
    public let totalBillingPeriods: Int
    public let price: String
    public let expiresDate: Int64

    public init(_ commitment: TransactionCommitment) {
        billingPeriodNumber = commitment.billingPeriodNumber
        totalBillingPeriods = commitment.totalBillingPeriods
        price = commitment.price.exactString
        expiresDate = commitment.expirationDate.epochMilliseconds
    }

    /// The commitment; throws when the server sent a price that is not a decimal.
    func commitment(of owner: String) throws -> TransactionCommitment {
        guard let total = Decimal(string: price) else {
            throw WireFormatError("\(owner) has a commitment price \(price) that is not a decimal")
        }
        return TransactionCommitment(
            billingPeriodNumber: billingPeriodNumber, totalBillingPeriods: totalBillingPeriods, price: total,
            expirationDate: Date(epochMilliseconds: expiresDate))
    }
}

extension BillingPlanType {
    /// The plan a wire message names (`upFront`, `monthly`); nil when it names none, and an error
    /// for a plan this build does not know.
    init?(wireName: String?, of owner: String) throws {
        guard let wireName else { return nil }
        guard let plan = BillingPlanType(rawValue: wireName) else {
            throw WireFormatError("\(owner) has an unknown billing plan \(wireName)")
        }
        self = plan
    }
}

/// A transaction update as the queue delivers it; `cursor` is its place in the update journal.
public struct WireUpdate: Codable, Sendable, Hashable {
    public let cursor: Int64?
    public let transaction: WireTransaction
    public let receipt: String?

    public init(cursor: Int64?, transaction: WireTransaction, receipt: String?) {
        self.cursor = cursor
        self.transaction = transaction
        self.receipt = receipt
    }

    /// The update, with its receipt from `receipts` (by account) when it carries none of its own;
    /// an answer from before `receipts` carried each one inline, and still decodes.
    public func update(receipts: [String: String]) throws -> TransactionUpdate {
        let transaction = try transaction.transaction()
        let shared = transaction.state.hasReceipt ? receipts[transaction.payment.account] : nil
        return TransactionUpdate(transaction: transaction, receipt: receipt ?? shared)
    }
}

/// Updates as an answer carries them: each account's receipt once, in `receipts`, rather than a
/// copy in every purchased or restored update. A receipt lists every purchase of its account, so
/// the copies made a page of an account's updates grow with the square of its purchases (500
/// purchases: 81 MB for one page of 1,000).
///
/// Every purchased or restored update of an account in one answer comes with that account's
/// receipt (the store reads one per account for the answer), which is what lets decoding give it back.
public struct WireUpdates: Sendable, Hashable {
    public let updates: [WireUpdate]
    /// Account → receipt; empty when no update has one.
    public let receipts: [String: String]

    /// Takes each account's first receipt, on a purchased or restored update, into `receipts`; an
    /// update whose receipt differs from its account's keeps it inline, and so does any other.
    public init(_ updates: [(cursor: Int64?, transaction: WireTransaction, receipt: String?)]) {
        var receipts: [String: String] = [:]
        self.updates = updates.map { update in
            let account = update.transaction.account
            var inline = update.receipt
            if let receipt = update.receipt, TransactionState(name: update.transaction.state)?.hasReceipt == true {
                if receipts[account] == nil { receipts[account] = receipt }
                if receipts[account] == receipt { inline = nil }
            }
            return WireUpdate(cursor: update.cursor, transaction: update.transaction, receipt: inline)
        }
        self.receipts = receipts
    }

    public init(updates: [WireUpdate], receipts: [String: String]?) {
        self.updates = updates
        self.receipts = receipts ?? [:]
    }

    public static let none = WireUpdates(updates: [], receipts: nil)

    /// The updates with their receipts back in place.
    public func transactionUpdates() throws -> [TransactionUpdate] {
        try updates.map { try $0.update(receipts: receipts) }
    }

    /// `receipts` as an answer encodes it: left out when empty.
    var encodedReceipts: [String: String]? { receipts.isEmpty ? nil : receipts }
}

/// A response the client could not read (a newer server, or not this server at all).
public struct WireFormatError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
