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

    /// As receipts, verifyReceipt and the signed payloads spell it (Apple's `Environment`).
    public var name: String {
        switch self {
        case .sandbox: "Sandbox"
        case .production: "Production"
        case .xcode: "Xcode"
        case .localTesting: "LocalTesting"
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
              let object = try? JSONSerialization.jsonObject(with: body, options: []) as? [String: Any] else {
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
        case .unreachable: throw APIError.unavailable("verifyReceipt is unreachable (test control `verification unreachable`)")
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
        guard payload.bundle_id == store.catalog.bundleId else {
            return .status(.notAuthenticated, environment: environment)
        }
        let catalog = store.catalog
        let hasSubscriptions = payload.in_app.contains { catalog.product(id: $0.product_id)?.type == .autoRenewable }
        if let sharedSecret {
            if let password, !password.isEmpty {
                if !ConstantTime.equal(password, sharedSecret) { return .status(.sharedSecretMismatch, environment: environment) }
            } else if hasSubscriptions {
                return .status(.sharedSecretMismatch, environment: environment)
            }
        }
        guard catalog.account(named: payload.account) != nil else {
            return .status(.accountNotFound, environment: environment)
        }
        return try await valid(payload, excludeOld: excludeOld, includeLatest: hasSubscriptions, now: now)
    }

    private func valid(_ payload: ReceiptPayload, excludeOld: Bool, includeLatest: Bool, now: Date) async throws -> VerifyReceiptResponse {
        let catalog = store.catalog
        let history = try await store.transactions(account: payload.account)
        let subscriptions = history.filter {
            ($0.state == .purchased || $0.state == .restored) && catalog.product(id: $0.productId)?.type == .autoRenewable
        }
        let details = try await store.details(transactionIds: payload.in_app.map(\.transaction_id) + subscriptions.map(\.id))
        let inApp = payload.in_app.map { item in
            InAppItem(item: item, details: details[item.transaction_id], product: catalog.product(id: item.product_id))
        }
        let creation = Date(epochMillisecondsText: payload.receipt_creation_date_ms) ?? now
        let firstPurchase = payload.in_app.compactMap { Date(epochMillisecondsText: $0.purchase_date_ms) }.min() ?? creation
        let receipt = ReceiptBody(
            receiptType: environment == .production ? "Production" : "ProductionSandbox", bundleId: payload.bundle_id,
            creation: creation, request: now, originalPurchase: firstPurchase, inApp: inApp)
        guard includeLatest else {
            return VerifyReceiptResponse(status: 0, environment: environment.name, receipt: receipt)
        }
        // Newest first; with exclude-old-transactions only the latest transaction of each subscription.
        let newestFirst = subscriptions.sorted { $0.purchaseDate > $1.purchaseDate }
        var seen = Set<String>()
        let latestOfEachChain = newestFirst.filter { seen.insert($0.originalId).inserted }
        let latestInfo = (excludeOld ? latestOfEachChain : newestFirst).map {
            InAppItem(transaction: $0, details: details[$0.id], product: catalog.product(id: $0.productId))
        }
        return VerifyReceiptResponse(status: 0, environment: environment.name, receipt: receipt,
                                     latestReceipt: try await store.currentReceipt(account: payload.account),
                                     latestReceiptInfo: latestInfo,
                                     pendingRenewalInfo: latestOfEachChain.map { Self.pendingRenewal($0, details[$0.id], now: now) })
    }

    /// `pending_renewal_info` for the latest transaction of one subscription chain.
    private static func pendingRenewal(_ transaction: Transaction, _ detail: TransactionDetails?, now: Date) -> PendingRenewal {
        let expired = (detail?.expiresDate).map { $0 <= now } ?? false
        return PendingRenewal(
            auto_renew_product_id: transaction.productId, product_id: transaction.productId,
            original_transaction_id: transaction.originalId, auto_renew_status: detail?.willAutoRenew == true ? "1" : "0",
            expiration_intent: expired && detail?.willAutoRenew != true ? "1" : nil)
    }
}

/// verifyReceipt's answer. A non-zero status carries no receipt.
struct VerifyReceiptResponse: Encodable, Sendable {
    let status: Int
    let environment: String
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

    init(status: Int, environment: String, receipt: ReceiptBody? = nil, latestReceipt: String? = nil,
         latestReceiptInfo: [InAppItem]? = nil, pendingRenewalInfo: [PendingRenewal]? = nil, isRetryable: Bool? = nil) {
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
        return VerifyReceiptResponse(status: status.rawValue, environment: environment.name, isRetryable: retryable ? true : nil)
    }
}

struct ReceiptBody: Encodable, Sendable {
    let receiptType: String
    let bundleId: String
    let creation: Date
    let request: Date
    let originalPurchase: Date
    let inApp: [InAppItem]

    enum CodingKeys: String, CodingKey {
        case receipt_type, adam_id, app_item_id, bundle_id, application_version, download_id, version_external_identifier
        case receipt_creation_date, receipt_creation_date_ms, receipt_creation_date_pst
        case request_date, request_date_ms, request_date_pst
        case original_purchase_date, original_purchase_date_ms, original_purchase_date_pst
        case original_application_version, in_app
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(receiptType, forKey: .receipt_type)
        try container.encode(0, forKey: .adam_id)
        try container.encode(0, forKey: .app_item_id)
        try container.encode(bundleId, forKey: .bundle_id)
        try container.encode("1", forKey: .application_version)
        try container.encode(0, forKey: .download_id)
        try container.encode(0, forKey: .version_external_identifier)
        try container.encode(AppleDate.gmt(creation), forKey: .receipt_creation_date)
        try container.encode(AppleDate.ms(creation), forKey: .receipt_creation_date_ms)
        try container.encode(AppleDate.pst(creation), forKey: .receipt_creation_date_pst)
        try container.encode(AppleDate.gmt(request), forKey: .request_date)
        try container.encode(AppleDate.ms(request), forKey: .request_date_ms)
        try container.encode(AppleDate.pst(request), forKey: .request_date_pst)
        try container.encode(AppleDate.gmt(originalPurchase), forKey: .original_purchase_date)
        try container.encode(AppleDate.ms(originalPurchase), forKey: .original_purchase_date_ms)
        try container.encode(AppleDate.pst(originalPurchase), forKey: .original_purchase_date_pst)
        try container.encode("1.0", forKey: .original_application_version)
        try container.encode(inApp, forKey: .in_app)
    }
}

/// One `in_app` (or `latest_receipt_info`) item: every number a string, every date three ways.
struct InAppItem: Encodable, Sendable {
    let quantity: String
    let productId: String
    let transactionId: String
    let originalTransactionId: String
    let purchaseDate: Date
    let originalPurchaseDate: Date
    let expiresDate: Date?
    let cancellationDate: Date?
    let cancellationReason: RevocationReason?
    let offer: TransactionOffer?
    let isSubscription: Bool
    let webOrderLineItemId: String?
    /// When an upgrade replaced the subscription: the receipt cancels it then, with no reason.
    let upgradeDate: Date?

    init(item: ReceiptPayload.InApp, details: TransactionDetails?, product: Product?) {
        quantity = item.quantity
        productId = item.product_id
        transactionId = item.transaction_id
        originalTransactionId = item.original_transaction_id
        purchaseDate = Date(epochMillisecondsText: item.purchase_date_ms) ?? Date(timeIntervalSince1970: 0)
        originalPurchaseDate = details?.originalPurchaseDate ?? purchaseDate
        expiresDate = item.expires_date_ms.flatMap(Date.init(epochMillisecondsText:))
        cancellationDate = item.cancellation_date_ms.flatMap(Date.init(epochMillisecondsText:))
        cancellationReason = details?.revocationReason
        offer = details?.offer
        isSubscription = product?.type == .autoRenewable
        webOrderLineItemId = isSubscription ? TransactionSigner.webOrderLineItemId(transactionId) : nil
        upgradeDate = details?.upgrade?.date
    }

    init(transaction: Transaction, details: TransactionDetails?, product: Product?) {
        quantity = String(transaction.quantity)
        productId = transaction.productId
        transactionId = transaction.id
        originalTransactionId = transaction.originalId
        purchaseDate = transaction.purchaseDate
        originalPurchaseDate = details?.originalPurchaseDate ?? transaction.purchaseDate
        expiresDate = details?.expiresDate
        cancellationDate = details?.revocationDate
        cancellationReason = details?.revocationReason
        offer = details?.offer
        isSubscription = product?.type == .autoRenewable
        webOrderLineItemId = isSubscription ? TransactionSigner.webOrderLineItemId(transactionId) : nil
        upgradeDate = details?.upgrade?.date
    }

    enum CodingKeys: String, CodingKey {
        case quantity, product_id, transaction_id, original_transaction_id
        case purchase_date, purchase_date_ms, purchase_date_pst
        case original_purchase_date, original_purchase_date_ms, original_purchase_date_pst
        case expires_date, expires_date_ms, expires_date_pst
        case cancellation_date, cancellation_date_ms, cancellation_date_pst, cancellation_reason
        case web_order_line_item_id, is_trial_period, is_in_intro_offer_period, is_upgraded, in_app_ownership_type
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(productId, forKey: .product_id)
        try container.encode(transactionId, forKey: .transaction_id)
        try container.encode(originalTransactionId, forKey: .original_transaction_id)
        try container.encode(AppleDate.gmt(purchaseDate), forKey: .purchase_date)
        try container.encode(AppleDate.ms(purchaseDate), forKey: .purchase_date_ms)
        try container.encode(AppleDate.pst(purchaseDate), forKey: .purchase_date_pst)
        try container.encode(AppleDate.gmt(originalPurchaseDate), forKey: .original_purchase_date)
        try container.encode(AppleDate.ms(originalPurchaseDate), forKey: .original_purchase_date_ms)
        try container.encode(AppleDate.pst(originalPurchaseDate), forKey: .original_purchase_date_pst)
        if let expiresDate {
            try container.encode(AppleDate.gmt(expiresDate), forKey: .expires_date)
            try container.encode(AppleDate.ms(expiresDate), forKey: .expires_date_ms)
            try container.encode(AppleDate.pst(expiresDate), forKey: .expires_date_pst)
        }
        if let cancellationDate {
            try container.encode(AppleDate.gmt(cancellationDate), forKey: .cancellation_date)
            try container.encode(AppleDate.ms(cancellationDate), forKey: .cancellation_date_ms)
            try container.encode(AppleDate.pst(cancellationDate), forKey: .cancellation_date_pst)
            try container.encode(String((cancellationReason ?? .other).rawValue), forKey: .cancellation_reason)
        } else if let upgradeDate {
            try container.encode(AppleDate.gmt(upgradeDate), forKey: .cancellation_date)
            try container.encode(AppleDate.ms(upgradeDate), forKey: .cancellation_date_ms)
            try container.encode(AppleDate.pst(upgradeDate), forKey: .cancellation_date_pst)
            try container.encode("true", forKey: .is_upgraded)
        }
        if let webOrderLineItemId { try container.encode(webOrderLineItemId, forKey: .web_order_line_item_id) }
        let introductory = offer?.type == .introductory
        try container.encode(String(introductory && offer?.paymentMode == .freeTrial), forKey: .is_trial_period)
        if isSubscription {
            try container.encode(String(introductory && offer?.paymentMode != .freeTrial), forKey: .is_in_intro_offer_period)
        }
        try container.encode("PURCHASED", forKey: .in_app_ownership_type)
    }
}

struct PendingRenewal: Encodable, Sendable {
    let auto_renew_product_id: String
    let product_id: String
    let original_transaction_id: String
    let auto_renew_status: String
    let expiration_intent: String?
}

/// Apple's receipt date forms: `2026-01-02 03:04:05 Etc/GMT`, epoch milliseconds as a string,
/// and `2026-01-01 19:04:05 America/Los_Angeles`.
enum AppleDate {
    private static let gmtStyle = style(timeZone: TimeZone(identifier: "UTC") ?? .gmt)
    private static let pstStyle = style(timeZone: TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -8 * 3600) ?? .gmt)

    private static func style(timeZone: TimeZone) -> Date.VerbatimFormatStyle {
        Date.VerbatimFormatStyle(
            format: "\(year: .extended(minimumLength: 4))-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits)",
            locale: Locale(identifier: "en_US_POSIX"), timeZone: timeZone, calendar: Calendar(identifier: .gregorian))
    }

    static func gmt(_ date: Date) -> String { date.formatted(gmtStyle) + " Etc/GMT" }
    static func pst(_ date: Date) -> String { date.formatted(pstStyle) + " America/Los_Angeles" }
    static func ms(_ date: Date) -> String { String(date.epochMilliseconds) }
}

extension Date {
    init?(epochMillisecondsText text: String) {
        guard let milliseconds = Int64(text) else { return nil }
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
