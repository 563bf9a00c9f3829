import Crypto
import Foundation
import LocalState
import ServerRecords
import StoreAPI
import StoreCore
import StoreEngine
import StoreKitModel

/// The server's environment: which receipts it accepts and what `environment` it reports.
public enum ServerEnvironment: String, Sendable, CaseIterable {
    case sandbox
    case production
    /// Xcode's own StoreKit testing: Apple's verifiers skip signature checks for it.
    case xcode
    /// Apple's libraries' environment for unit tests: signature checks skipped too.
    case localTesting = "local-testing"

    /// Apple's `Environment` for it, as receipts, verifyReceipt and the signed payloads spell it.
    public var name: StoreEnvironment {
        switch self {
        case .sandbox: .sandbox
        case .production: .production
        case .xcode: .xcode
        case .localTesting: .localTesting
        }
    }
}

/// Apple's verifyReceipt: status codes and the response shape, with every date
/// in the three forms (`…_date` GMT, `…_date_ms`, `…_date_pst`) and every number as a string.
struct ReceiptVerifier: Sendable {
    let store: SimulatedStore
    let environment: ServerEnvironment
    let sharedSecret: String?

    /// Answers a verifyReceipt body (nil for a GET). Always HTTP 200, as Apple does; the status says the rest.
    func answer(method isPost: Bool, body: Data?, now: Date) async throws -> VerifyReceiptResponse {
        guard isPost, let body,
            let object = try? JSONSerialization.jsonObject(with: body, options: []) as? [String: Any]
        else {
            return .status(.notPostOrUnreadable, environment: environment)
        }
        guard let receiptData = object["receipt-data"] as? String, !receiptData.isEmpty else {
            return .status(.malformedReceiptData, environment: environment)
        }
        let password = object["password"] as? String
        let excludeOld = (object["exclude-old-transactions"] as? Bool) ?? false
        // A test control can force any status, as it does for the app-server check.
        switch try await store.controls().verificationFailure {
        case .status(let status): return .status(status, environment: environment)
        case .unreachable:
            throw APIError.unavailable("verifyReceipt is unreachable (test control `verification unreachable`)")
        case nil: break
        }
        let payload: ReceiptPayload
        switch store.openReceipt(receiptData) {
        case .valid(let opened): payload = opened
        case .invalid(let status): return .status(status, environment: environment)
        }
        if payload.environment == ServerEnvironment.sandbox.name && environment == .production {
            return .status(.sandboxReceiptSentToProduction, environment: environment)
        }
        if payload.environment == ServerEnvironment.production.name && environment == .sandbox {
            return .status(.productionReceiptSentToSandbox, environment: environment)
        }
        guard payload.bundleId == store.catalog.bundleId else {
            return .status(.notAuthenticated, environment: environment)
        }
        let catalog = store.catalog
        let hasSubscriptions = payload.inApp.contains { catalog.product(id: $0.productId)?.type == .autoRenewable }
        if let sharedSecret {
            if let password, !password.isEmpty {
                if !ConstantTime.equal(password, sharedSecret) {
                    return .status(.sharedSecretMismatch, environment: environment)
                }
            } else if hasSubscriptions {
                return .status(.sharedSecretMismatch, environment: environment)
            }
        }
        guard catalog.account(named: payload.account) != nil else {
            return .status(.accountNotFound, environment: environment)
        }
        return try await valid(payload, excludeOld: excludeOld, includeLatest: hasSubscriptions, now: now)
    }

    private func valid(_ payload: ReceiptPayload, excludeOld: Bool, includeLatest: Bool, now: Date) async throws
        -> VerifyReceiptResponse
    {
        let catalog = store.catalog
        let history = try await store.transactions(account: payload.account)
        let byId = Dictionary(history.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // What a receipt issued now would list: the same rule as the receipt's own `in_app`.
        let listed =
            includeLatest ? history.filter { $0.isListedInReceipt(as: catalog.product(id: $0.productId)?.type) } : []
        let details = try await store.details(transactionIds: payload.inApp.map(\.transactionId) + listed.map(\.id))
        let inApp = payload.inApp.map { item in
            InAppItem(
                item: item, transaction: byId[item.transactionId], details: details[item.transactionId],
                product: catalog.product(id: item.productId))
        }
        let receipt = ReceiptBody(
            receiptType: environment == .production ? "Production" : "ProductionSandbox", payload: payload,
            request: now,
            originalPurchase: payload.inApp.map(\.purchaseDate).min() ?? payload.creationDate, inApp: inApp)
        guard includeLatest else {
            return VerifyReceiptResponse(status: 0, environment: environment.name, receipt: receipt)
        }
        // Newest first; with exclude-old-transactions only the latest transaction of each
        // subscription, beside every other purchase.
        let isSubscription = { (transaction: Transaction) in
            catalog.product(id: transaction.productId)?.type == .autoRenewable
        }
        let newestFirst = listed.sorted { $0.purchaseDate > $1.purchaseDate }
        var seen = Set<String>()
        // A subscription's latest period: copies (restores, re-downloads, plan changes) are no period.
        let latestOfEachChain = newestFirst.filter {
            isSubscription($0) && $0.state == .purchased && seen.insert($0.originalId).inserted
        }
        let latestIds = Set(latestOfEachChain.map(\.id))
        let latestInfo = newestFirst.filter { !excludeOld || !isSubscription($0) || latestIds.contains($0.id) }.map {
            InAppItem(transaction: $0, details: details[$0.id], product: catalog.product(id: $0.productId))
        }
        return VerifyReceiptResponse(
            status: 0, environment: environment.name, receipt: receipt,
            latestReceipt: try await store.currentReceipt(account: payload.account),
            latestReceiptInfo: latestInfo,
            pendingRenewalInfo: try await store.serverAPI.subscriptionStatuses(account: payload.account).map(
                PendingRenewal.init))
    }
}

/// verifyReceipt's answer. A non-zero status carries no receipt.
struct VerifyReceiptResponse: Encodable, Sendable {
    let status: Int
    let environment: StoreEnvironment
    var receipt: ReceiptBody?
    var latestReceipt: String?
    var latestReceiptInfo: [InAppItem]?
    var pendingRenewalInfo: [PendingRenewal]?
    var isRetryable: Bool?

    enum CodingKeys: String, CodingKey {
        case status, environment, receipt
        case latestReceipt = "latest_receipt"
        case latestReceiptInfo = "latest_receipt_info"
        case pendingRenewalInfo = "pending_renewal_info"
        case isRetryable = "is-retryable"
    }

    init(
        status: Int, environment: StoreEnvironment, receipt: ReceiptBody? = nil, latestReceipt: String? = nil,
        latestReceiptInfo: [InAppItem]? = nil, pendingRenewalInfo: [PendingRenewal]? = nil, isRetryable: Bool? = nil
    ) {
        self.status = status
        self.environment = environment
        self.receipt = receipt
        self.latestReceipt = latestReceipt
        self.latestReceiptInfo = latestReceiptInfo
        self.pendingRenewalInfo = pendingRenewalInfo
        self.isRetryable = isRetryable
    }

    static func status(_ status: VerifyStatus, environment: ServerEnvironment) -> VerifyReceiptResponse {
        let retryable = status == .serverUnavailable || status == .internalDataAccessError
        return VerifyReceiptResponse(
            status: status.rawValue, environment: environment.name, isRetryable: retryable ? true : nil)
    }
}

// verifyReceipt's keys, spelled as Apple's JSON spells them.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `pending_renewal_info`: one subscription's renewal as the App Store Server API's renewal info
/// reports it, from the same record, so the two never disagree (a downgrade waiting for the
/// renewal is its `auto_renew_product_id`).
struct PendingRenewal: Encodable, Sendable {
    let autoRenewProductId: String
    let productId: String
    let originalTransactionId: String
    let autoRenewStatus: String
    let expirationIntent: String?
    let isInBillingRetryPeriod: String?
    let gracePeriodExpires: Date?
    let priceIncreaseStatus: String?
    let promotionalOfferId: String?
    let offerCodeRefName: String?

    init(_ status: SubscriptionStatus) {
        let renewal = status.renewal
        autoRenewProductId = renewal.autoRenewProductId
        productId = status.latest.transaction.productId
        originalTransactionId = status.originalTransactionId
        autoRenewStatus = renewal.willAutoRenew ? "1" : "0"
        // Apple reports why it expired, or may (billing retry); not while it renews.
        expirationIntent = status.status == .active ? nil : renewal.expirationReason.map { String($0.rawValue) }
        isInBillingRetryPeriod = renewal.isInBillingRetry ? "1" : (status.status == .expired ? "0" : nil)
        gracePeriodExpires = renewal.gracePeriodExpirationDate
        priceIncreaseStatus = renewal.priceIncreaseStatus.map { String($0.rawValue) }
        promotionalOfferId = status.renewalOffer?.type == .promotional ? status.renewalOffer?.id : nil
        offerCodeRefName = status.renewalOffer?.type == .code ? status.renewalOffer?.id : nil
    }

    enum CodingKeys: String, CodingKey {
        case auto_renew_product_id, product_id, original_transaction_id, auto_renew_status, expiration_intent
        case is_in_billing_retry_period, price_increase_status, promotional_offer_id, offer_code_ref_name
        case grace_period_expires_date, grace_period_expires_date_ms, grace_period_expires_date_pst
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(autoRenewProductId, forKey: .auto_renew_product_id)
        try container.encode(productId, forKey: .product_id)
        try container.encode(originalTransactionId, forKey: .original_transaction_id)
        try container.encode(autoRenewStatus, forKey: .auto_renew_status)
        try container.encodeIfPresent(expirationIntent, forKey: .expiration_intent)
        try container.encodeIfPresent(isInBillingRetryPeriod, forKey: .is_in_billing_retry_period)
        try container.encodeIfPresent(priceIncreaseStatus, forKey: .price_increase_status)
        try container.encodeIfPresent(promotionalOfferId, forKey: .promotional_offer_id)
        try container.encodeIfPresent(offerCodeRefName, forKey: .offer_code_ref_name)
        if let gracePeriodExpires {
            try container.encodeAppleDate(
                gracePeriodExpires, .grace_period_expires_date, .grace_period_expires_date_ms,
                .grace_period_expires_date_pst)
        }
    }
}
