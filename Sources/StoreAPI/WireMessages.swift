import Foundation
import StoreCore
import StoreKitModel

/// `POST /v1/payments`.
public struct PaymentRequest: Codable, Sendable, Hashable {
    public let account: String
    public let productId: String
    /// 1 to 10; 1 when absent.
    public let quantity: Int?
    public let applicationUsername: String?
    /// A promotional offer and its signature (`SKPaymentDiscount`).
    public let discount: PaymentDiscount?
    /// An offer code to redeem.
    public let offerCode: String?
    /// A win-back offer's id.
    public let winBackOffer: String?
    /// A promotional offer signed as a compact JWS (StoreKit's `.promotionalOffer(_:compactJWS:)`).
    public let promotionalOfferCompactJWS: String?
    /// The app server's decision on the introductory offer, a compact JWS (StoreKit's
    /// `.introductoryOfferEligibility(compactJWS:)`).
    public let introductoryOfferEligibilityCompactJWS: String?
    /// `upFront` or `monthly` (StoreKit's `.billingPlanType` purchase option); absent pays up
    /// front. Kept as sent, so the server can name a value it does not know.
    public let billingPlan: String?

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case account, productId, quantity, applicationUsername, discount, offerCode, winBackOffer, billingPlan
        case promotionalOfferCompactJWS, introductoryOfferEligibilityCompactJWS
    }

    public init(_ payment: Payment) {
        account = payment.account
        productId = payment.productId
        quantity = payment.quantity
        applicationUsername = payment.applicationUsername
        billingPlan = payment.billingPlan?.rawValue
        introductoryOfferEligibilityCompactJWS = payment.introductoryOfferEligibility?.compactJWS
        var discount: PaymentDiscount?
        var code: String?
        var winBack: String?
        var signed: String?
        switch payment.offer {
        case .promotional(let given)?: discount = given
        case .code(let given)?: code = given
        case .winBack(let given)?: winBack = given
        case .signedPromotional(let given)?: signed = given.compactJWS
        case nil: break
        }
        (self.discount, offerCode, winBackOffer, promotionalOfferCompactJWS) = (discount, code, winBack, signed)
    }

    /// The offer the request asks for; nil without one. Only one of the four may be given.
    public var offer: PaymentOffer? {
        if let discount { return .promotional(discount) }
        if let offerCode { return .code(offerCode) }
        if let promotionalOfferCompactJWS {
            return .signedPromotional(SignedRequest(compactJWS: promotionalOfferCompactJWS))
        }
        return winBackOffer.map(PaymentOffer.winBack)
    }

    /// The introductory offer eligibility the request carries; nil without one.
    public var introductoryOfferEligibility: SignedRequest? {
        introductoryOfferEligibilityCompactJWS.map(SignedRequest.init(compactJWS:))
    }
}

public struct TransactionResponse: Codable, Sendable, Hashable {
    public let transaction: WireTransaction

    public init(transaction: WireTransaction) {
        self.transaction = transaction
    }
}

public struct TransactionsResponse: Codable, Sendable, Hashable {
    public let transactions: [WireTransaction]

    public init(transactions: [WireTransaction]) {
        self.transactions = transactions
    }
}

/// `GET /admin/families`: the family each account is in now; an account in none is absent.
public struct FamiliesResponse: Codable, Sendable, Hashable {
    public let families: [String: String]

    public init(families: [String: String]) {
        self.families = families
    }
}

/// An answer with updates, whose receipts are in `receipts` by account (see `WireUpdates`).
public protocol CarriesUpdates {
    var updates: [WireUpdate] { get }
    var receipts: [String: String]? { get }
}

extension CarriesUpdates {
    public var wireUpdates: WireUpdates { WireUpdates(updates: updates, receipts: receipts) }
}

/// A page of the update journal. `cursor` is what to pass as `after` next time: the last
/// update's cursor, or the request's own when nothing new came.
public struct UpdatesResponse: CarriesUpdates, Codable, Sendable, Hashable {
    public let updates: [WireUpdate]
    /// Account → receipt, for the purchased and restored updates (see `WireUpdates`).
    public let receipts: [String: String]?
    public let cursor: Int64

    public init(updates: WireUpdates, cursor: Int64) {
        self.updates = updates.updates
        self.receipts = updates.encodedReceipts
        self.cursor = cursor
    }
}

/// `GET …/unfinished`: what the queue re-delivers at launch.
public struct UnfinishedResponse: CarriesUpdates, Codable, Sendable, Hashable {
    public let updates: [WireUpdate]
    public let receipts: [String: String]?

    public init(updates: WireUpdates) {
        self.updates = updates.updates
        self.receipts = updates.encodedReceipts
    }
}

/// `POST …/restore`: `restored` (with the new transactions), `nothing`, or `failed` with the error
/// `restoreCompletedTransactionsFailedWithError` would carry.
public struct RestoreResponse: CarriesUpdates, Codable, Sendable, Hashable {
    public let outcome: String
    public let updates: [WireUpdate]
    public let receipts: [String: String]?
    public let error: WireStoreError?

    public init(outcome: String, updates: WireUpdates, error: WireStoreError?) {
        self.outcome = outcome
        self.updates = updates.updates
        self.receipts = updates.encodedReceipts
        self.error = error
    }
}

/// `POST /v1/transactions/{id}/finish`'s optional body, the answer's shape: the path names the
/// transaction, and a body that names one must name the same.
public struct FinishRequest: Codable, Sendable, Hashable {
    public let transactionId: String?
    /// Only `true`: a finished transaction stays finished.
    public let finished: Bool?

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case transactionId, finished
    }

    public init(transactionId: String?, finished: Bool?) {
        self.transactionId = transactionId
        self.finished = finished
    }
}

public struct FinishResponse: Codable, Sendable, Hashable {
    public let transactionId: String
    public let finished: Bool

    public init(transactionId: String, finished: Bool) {
        self.transactionId = transactionId
        self.finished = finished
    }
}

/// `POST /v1/products`: a products request.
public struct ProductsRequest: Codable, Sendable, Hashable {
    public let ids: [String]
    /// ISO 3166-1 alpha-3; absent: the store's storefront setting, else the catalog's default.
    public let storefront: String?

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case ids, storefront
    }

    public init(ids: [String], storefront: String?) {
        self.ids = ids
        self.storefront = storefront
    }
}

public struct ProductsResponseBody: Codable, Sendable, Hashable {
    public struct Item: Codable, Sendable, Hashable {
        public let id: String
        public let type: String
        public let title: [String: String]
        public let description: [String: String]
        /// Exact decimal in the storefront's currency.
        public let price: String
        /// Formatted for the storefront's locale, as `SKProduct.priceLocale` would.
        public let displayPrice: String
        public let subscriptionPeriod: String?
        public let subscriptionGroup: String?

        public init(product: Product, storefront: Storefront) {
            id = product.id
            type = product.type.rawValue
            title = product.title.values
            description = product.description.values
            let amount = product.prices[storefront.id] ?? 0
            price = amount.exactString
            displayPrice = PriceFormatter(storefront: storefront).string(amount)
            subscriptionPeriod = product.subscription?.period.iso8601
            subscriptionGroup = product.subscription?.group
        }
    }

    public let storefront: Storefront
    public let products: [Item]
    public let invalidProductIdentifiers: [String]
    public let unavailableInStorefront: [String]
    /// The products request failed as StoreKit reports it (a simulated `load-products` error):
    /// nothing else in the answer counts.
    public let error: WireStoreError?

    public init(_ response: ProductsResponse) {
        storefront = response.storefront
        products = response.products.map { Item(product: $0, storefront: response.storefront) }
        invalidProductIdentifiers = response.invalidProductIdentifiers
        unavailableInStorefront = response.unavailableInStorefront
        error = nil
    }

    public init(failed error: StoreError, storefront: Storefront) {
        self.storefront = storefront
        products = []
        invalidProductIdentifiers = []
        unavailableInStorefront = []
        self.error = WireStoreError(error)
    }
}

/// `GET …/wallet`: what the store says the account owns (balances are the app's, not the store's).
public struct WalletResponse: Codable, Sendable, Hashable {
    public struct Item: Codable, Sendable, Hashable {
        public let productId: String
        public let type: String
        public let transactionId: String
        public let originalTransactionId: String
        public let purchaseDate: Int64
        public let expiresDate: Int64?
        public let willAutoRenew: Bool
        public let active: Bool
        public let renewal: WireRenewal?

        public init(_ entitlement: Entitlement, now: Date) {
            productId = entitlement.productId
            type = entitlement.type.rawValue
            transactionId = entitlement.transactionId
            originalTransactionId = entitlement.originalTransactionId
            purchaseDate = entitlement.purchaseDate.epochMilliseconds
            expiresDate = entitlement.expiresDate?.epochMilliseconds
            willAutoRenew = entitlement.willAutoRenew
            active = entitlement.isActive(at: now)
            renewal = entitlement.renewal.map(WireRenewal.init)
        }

        public func entitlement() throws -> Entitlement {
            guard let type = ProductType(rawValue: type) else {
                throw WireFormatError("entitlement \(productId) has an unknown type \(type)")
            }
            return Entitlement(
                productId: productId, type: type, transactionId: transactionId,
                originalTransactionId: originalTransactionId,
                purchaseDate: Date(epochMilliseconds: purchaseDate),
                expiresDate: expiresDate.map(Date.init(epochMilliseconds:)),
                willAutoRenew: willAutoRenew, renewal: try renewal?.info())
        }
    }

    public let account: String
    public let entitlements: [Item]

    public init(account: String, entitlements: [Item]) {
        self.account = account
        self.entitlements = entitlements
    }
}

/// StoreKit 2's renewal info of a subscription; reasons and statuses by name, dates in epoch ms.
public struct WireRenewal: Codable, Sendable, Hashable {
    public let willAutoRenew: Bool
    public let autoRenewProductId: String
    /// `autoRenewDisabled`, `billingError`, `didNotConsentToPriceIncrease`, `productUnavailable`, `unknown`.
    public let expirationReason: String?
    public let isInBillingRetry: Bool
    public let gracePeriodExpiresDate: Int64?
    /// `pending` or `agreed`.
    public let priceIncreaseStatus: String?
    /// What the next renewal charges when a price increase set it, an exact decimal.
    public let renewalPrice: String?
    /// `upFront` or `monthly`: how the next payment is billed; absent from older servers (up front).
    public let renewalBillingPlan: String?
    /// While a 12-month commitment runs: what becomes of it at its end.
    public let commitment: WireRenewalCommitment?
    /// The offer the next renewal takes: its type (`promotional`, `code`, `winBack`), id, payment
    /// mode and period (ISO 8601); absent without one.
    public let renewalOfferType: String?
    public let renewalOfferId: String?
    public let renewalOfferPaymentMode: String?
    public let renewalOfferPeriod: String?

    public init(_ info: RenewalInfo) {
        renewalOfferType = info.renewalOffer?.type.rawValue
        renewalOfferId = info.renewalOffer?.id
        renewalOfferPaymentMode = info.renewalOffer?.paymentMode.rawValue
        renewalOfferPeriod = info.renewalOffer?.period?.iso8601
        willAutoRenew = info.willAutoRenew
        autoRenewProductId = info.autoRenewProductId
        expirationReason = info.expirationReason?.name
        isInBillingRetry = info.isInBillingRetry
        gracePeriodExpiresDate = info.gracePeriodExpirationDate?.epochMilliseconds
        priceIncreaseStatus = info.priceIncreaseStatus?.name
        renewalPrice = info.renewalPrice?.exactString
        renewalBillingPlan = info.renewalBillingPlan.rawValue
        commitment = info.commitment.map(WireRenewalCommitment.init)
    }

    public func info() throws -> RenewalInfo {
        func named<T: NamedCase>(_ name: String?, _ what: String) throws -> T? {
            guard let name else { return nil }
            guard let value = T(name: name) else {
                throw WireFormatError("renewal info has an unknown \(what) \(name)")
            }
            return value
        }
        return RenewalInfo(
            willAutoRenew: willAutoRenew, autoRenewProductId: autoRenewProductId,
            expirationReason: try named(expirationReason, "expiration reason"),
            isInBillingRetry: isInBillingRetry,
            gracePeriodExpirationDate: gracePeriodExpiresDate.map(Date.init(epochMilliseconds:)),
            priceIncreaseStatus: try named(priceIncreaseStatus, "price increase status"),
            renewalPrice: try WireRenewal.decimal(renewalPrice, "renewal price"),
            renewalBillingPlan: try BillingPlanType(wireName: renewalBillingPlan, of: "renewal info") ?? .upFront,
            commitment: try commitment?.info(),
            renewalOffer: TransactionOffer(
                type: renewalOfferType, id: renewalOfferId, mode: renewalOfferPaymentMode, period: renewalOfferPeriod))
    }

    static func decimal(_ text: String?, _ what: String) throws -> Decimal? {
        guard let text else { return nil }
        guard let value = Decimal(string: text) else {
            throw WireFormatError("renewal info has a \(what) \(text) that is not a decimal")
        }
        return value
    }
}

/// `RenewalCommitment` on the wire: whether a new commitment follows this one's end, on which
/// product and plan, at what price for one payment (an exact decimal), and when (epoch ms).
public struct WireRenewalCommitment: Codable, Sendable, Hashable {
    public let willAutoRenew: Bool
    public let autoRenewProductId: String
    public let renewalBillingPlan: String
    public let renewalPrice: String?
    public let renewalDate: Int64

    public init(_ commitment: RenewalCommitment) {
        willAutoRenew = commitment.willAutoRenew
        autoRenewProductId = commitment.autoRenewProductId
        renewalBillingPlan = commitment.renewalBillingPlan.rawValue
        renewalPrice = commitment.renewalPrice?.exactString
        renewalDate = commitment.renewalDate.epochMilliseconds
    }

    func info() throws -> RenewalCommitment {
        RenewalCommitment(
            willAutoRenew: willAutoRenew, autoRenewProductId: autoRenewProductId,
            renewalBillingPlan: try BillingPlanType(wireName: renewalBillingPlan, of: "renewal info's commitment")
                ?? .upFront,
            renewalPrice: try WireRenewal.decimal(renewalPrice, "commitment renewal price"),
            renewalDate: Date(epochMilliseconds: renewalDate))
    }
}

/// `POST /v1/verify`: the app server's check of one transaction in a receipt.
public struct VerifyRequest: Codable, Sendable, Hashable {
    public let receipt: String
    public let transactionId: String
    public let productId: String
    /// The app's request id (its ledger entry): the same claim may ask again, another claim on a
    /// consumed transaction id is a replay.
    public let claim: String

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case receipt, transactionId, productId, claim
    }

    public init(receipt: String, transactionId: String, productId: String, claim: String) {
        self.receipt = receipt
        self.transactionId = transactionId
        self.productId = productId
        self.claim = claim
    }
}

public struct VerifyResponse: Codable, Sendable, Hashable {
    /// `verified`, `rejected` or `retryLater`.
    public let result: String
    public let status: Int?
    public let reason: String?
    /// With `rejected`: the transaction id was verified for another claim first (left out otherwise).
    public let replayed: Bool?

    public init(_ result: VerificationResult) {
        switch result {
        case .verified:
            self.init(result: "verified", status: nil, reason: nil, replayed: nil)
        case .rejected(let status, let reason):
            self.init(result: "rejected", status: status?.rawValue, reason: reason, replayed: nil)
        case .replayed(let reason):
            self.init(result: "rejected", status: nil, reason: reason, replayed: true)
        case .retryLater(let reason):
            self.init(result: "retryLater", status: nil, reason: reason, replayed: nil)
        }
    }

    init(result: String, status: Int?, reason: String?, replayed: Bool?) {
        self.result = result
        self.status = status
        self.reason = reason
        self.replayed = replayed
    }

    public func verificationResult() throws -> VerificationResult {
        switch result {
        case "verified": return .verified
        case "rejected" where replayed == true:
            return .replayed(reason: reason ?? "already delivered under another claim")
        case "rejected":
            return .rejected(status: status.flatMap(VerifyStatus.init(rawValue:)), reason: reason ?? "rejected")
        case "retryLater": return .retryLater(reason: reason ?? "retry later")
        default: throw WireFormatError("unknown verification result \(result)")
        }
    }
}

/// The updates a transaction-manager action caused (an approval, a renewal).
public struct ManageResponse: CarriesUpdates, Codable, Sendable, Hashable {
    public let updates: [WireUpdate]
    public let receipts: [String: String]?

    public init(updates: WireUpdates) {
        self.updates = updates.updates
        self.receipts = updates.encodedReceipts
    }
}

/// `GET /v1/health`: the server answers (`ok`, or `degraded` after a storage failure, with the
/// reason), in which environment, for which app, how far its journal has come, and which store it
/// is (a client keys its deliveries by it).
public struct HealthResponse: Codable, Sendable, Hashable {
    public let status: String
    public let environment: StoreEnvironment
    public let bundleId: String
    public let cursor: Int64
    public let storeId: String
    /// Why the status is `degraded`: the last storage failure, until a write succeeds again, or
    /// why the database could not be read just now.
    public let reason: String?
    /// Where the store's tables are: `sqlite` (a file beside the server) or `postgresql` (a
    /// database several servers may share).
    public let database: String?

    public init(
        status: String, environment: StoreEnvironment, bundleId: String, cursor: Int64, storeId: String,
        reason: String? = nil, database: String? = nil
    ) {
        self.status = status
        self.environment = environment
        self.bundleId = bundleId
        self.cursor = cursor
        self.storeId = storeId
        self.reason = reason
        self.database = database
    }
}

/// `POST /admin/transactions/{id}/price-increase/request`'s optional body: the new renewal price
/// as a decimal string in the subscription's currency (none: a tenth more), and whether the
/// customer must consent (default true).
public struct PriceIncreaseRequest: Codable, Sendable, Hashable {
    public let price: String?
    public let needsConsent: Bool?

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case price, needsConsent
    }

    public init(_ terms: PriceIncreaseTerms) {
        price = terms.price?.exactString
        needsConsent = terms.needsConsent
    }

    /// The terms asked for; nil when `price` is not a positive decimal.
    public var terms: PriceIncreaseTerms? {
        PriceIncreaseTerms(priceText: price, needsConsent: needsConsent ?? true)
    }
}

/// `GET /v1/accounts/{account}/app-transaction`: the account's purchase of the app itself, as
/// StoreKit's `AppTransaction.shared` gives an app (dates in epoch milliseconds).
public struct WireAppTransaction: Codable, Sendable, Hashable {
    public let appTransactionId: String
    public let bundleId: String
    public let originalPurchaseDate: Int64
    public let originalApplicationVersion: String
    /// Optional when read: a server before catalogs had an `app` section sent none.
    public let applicationVersion: String?
    public let preorderDate: Int64?
    public let environment: StoreEnvironment
    /// The same record signed, as Get App Transaction Info signs it (`AppTransaction.shared`);
    /// optional when read, as a server before StoreKit 2's library sent none.
    public let signedAppTransactionInfo: String?

    public init(_ info: AppTransactionInfo, signed: String?) {
        signedAppTransactionInfo = signed
        appTransactionId = info.appTransactionId
        bundleId = info.bundleId
        originalPurchaseDate = info.originalPurchaseDate.epochMilliseconds
        originalApplicationVersion = info.originalApplicationVersion
        applicationVersion = info.applicationVersion
        preorderDate = info.preorderDate?.epochMilliseconds
        environment = info.environment
    }

    public var info: AppTransactionInfo {
        AppTransactionInfo(
            appTransactionId: appTransactionId, bundleId: bundleId,
            originalPurchaseDate: Date(epochMilliseconds: originalPurchaseDate),
            originalApplicationVersion: originalApplicationVersion,
            applicationVersion: applicationVersion ?? AppTransactionInfo.appVersion,
            preorderDate: preorderDate.map { Date(epochMilliseconds: $0) }, environment: environment)
    }
}
