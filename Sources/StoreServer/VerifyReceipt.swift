import Crypto
import Foundation
import LocalState
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
    let store: any ServedStore
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
        let latestOfEachChain = newestFirst.filter { isSubscription($0) && seen.insert($0.originalId).inserted }
        let latestIds = Set(latestOfEachChain.map(\.id))
        let latestInfo = newestFirst.filter { !excludeOld || !isSubscription($0) || latestIds.contains($0.id) }.map {
            InAppItem(transaction: $0, details: details[$0.id], product: catalog.product(id: $0.productId))
        }
        return VerifyReceiptResponse(
            status: 0, environment: environment.name, receipt: receipt,
            latestReceipt: try await store.currentReceipt(account: payload.account),
            latestReceiptInfo: latestInfo,
            pendingRenewalInfo: latestOfEachChain.map { Self.pendingRenewal($0, details[$0.id], now: now) })
    }

    /// `pending_renewal_info` for the latest transaction of one subscription chain.
    private static func pendingRenewal(_ transaction: Transaction, _ detail: TransactionDetails?, now: Date)
        -> PendingRenewal
    {
        // A refund ends the subscription though its expiry, which never changes, may be ahead.
        let expired = detail?.revocationDate != nil || ((detail?.expiresDate).map { $0 <= now } ?? false)
        return PendingRenewal(
            auto_renew_product_id: transaction.productId, product_id: transaction.productId,
            original_transaction_id: transaction.originalId,
            auto_renew_status: detail?.willAutoRenew == true ? "1" : "0",
            expiration_intent: expired && detail?.willAutoRenew != true ? "1" : nil)
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
struct PendingRenewal: Encodable, Sendable {
    let auto_renew_product_id: String
    let product_id: String
    let original_transaction_id: String
    let auto_renew_status: String
    let expiration_intent: String?
}
