import Foundation

/// `SKPaymentTransactionState`, with StoreKit's raw values.
public enum TransactionState: Int, NamedCase, Sendable, Codable, Hashable {
    case purchasing = 0
    case purchased = 1
    case failed = 2
    case restored = 3
    case deferred = 4

    /// The name JSON, the wire and the screen use (see `NamedCase`).
    public var name: String {
        switch self {
        case .purchasing: "purchasing"
        case .purchased: "purchased"
        case .failed: "failed"
        case .restored: "restored"
        case .deferred: "deferred"
        }
    }

    /// Purchased or restored: the transactions a receipt lists, whose updates come with the receipt.
    public var hasReceipt: Bool { self == .purchased || self == .restored }
}

/// Why a transaction failed: a StoreKit error, or a network error from the URL domain.
public enum StoreError: Error, Sendable, Hashable {
    case storeKit(SKErrorCode)
    case network(URLErrorCode)

    public var code: Int {
        switch self {
        case .storeKit(let code): code.rawValue
        case .network(let code): code.rawValue
        }
    }

    public var name: String {
        switch self {
        case .storeKit(let code): code.name
        case .network(let code): code.name
        }
    }

    public var domain: String {
        switch self {
        case .storeKit: "SKErrorDomain"
        case .network: "NSURLErrorDomain"
        }
    }

    public func text(in language: Language) -> ErrorText {
        switch self {
        case .storeKit(let code): code.text(in: language)
        case .network(let code): code.text(in: language)
        }
    }
}

/// `SKPayment`: what the app asks the queue to buy.
public struct Payment: Sendable, Hashable, Codable {
    public static let quantityRange = 1...10

    public let productId: String
    public let quantity: Int
    /// `applicationUsername`: the app's order id, carried through the purchase (may come back empty).
    public let applicationUsername: String?
    public let account: String
    /// The offer the app asks for, which the store checks.
    public let offer: PaymentOffer?
    /// The billing plan chosen (StoreKit's `.billingPlanType` purchase option); nil pays up front.
    public let billingPlan: BillingPlanType?
    /// StoreKit's `.introductoryOfferEligibility(compactJWS:)` purchase option: the app's server
    /// decides whether the introductory offer applies, in a JWS it signed, which the store checks.
    public let introductoryOfferEligibility: SignedRequest?

    public init(
        productId: String, quantity: Int = 1, applicationUsername: String? = nil, account: String,
        offer: PaymentOffer? = nil, billingPlan: BillingPlanType? = nil,
        introductoryOfferEligibility: SignedRequest? = nil
    ) {
        self.billingPlan = billingPlan
        self.introductoryOfferEligibility = introductoryOfferEligibility
        self.productId = productId
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.account = account
        self.offer = offer
    }
}

/// An offer asked for with a payment.
public enum PaymentOffer: Sendable, Hashable, Codable {
    /// A promotional offer with the app server's signature (`SKPaymentDiscount`).
    case promotional(PaymentDiscount)
    /// An offer code being redeemed.
    case code(String)
    /// A win-back offer (StoreKit 2's `.winBackOffer` purchase option): no signature.
    case winBack(String)
    /// A promotional offer signed as a JWS (StoreKit's `.promotionalOffer(_:compactJWS:)`): the
    /// offer's id is the JWS's `offerIdentifier` claim.
    case signedPromotional(SignedRequest)
}

/// `SKPaymentDiscount`: a promotional offer and the signature the app's server made for it.
public struct PaymentDiscount: Sendable, Hashable, Codable {
    /// The offer's id.
    public let identifier: String
    public let keyIdentifier: String
    /// A lower-case UUID, used once.
    public let nonce: String
    /// Base64 of the DER-encoded ECDSA P-256 SHA-256 signature.
    public let signature: String
    /// Milliseconds since 1970 when it was signed; older than a day is refused.
    public let timestamp: Int64

    public init(identifier: String, keyIdentifier: String, nonce: String, signature: String, timestamp: Int64) {
        self.identifier = identifier
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.signature = signature
        self.timestamp = timestamp
    }

    /// The text the signature covers, as Apple defines it: bundle id, key id, product id, offer
    /// id, the app account token (lower case; empty without one), nonce and timestamp, joined by
    /// U+2063 INVISIBLE SEPARATOR.
    public static func signedText(
        bundleId: String, keyIdentifier: String, productId: String, offerId: String,
        applicationUsername: String?, nonce: String, timestamp: Int64
    ) -> String {
        [
            bundleId, keyIdentifier, productId, offerId, (applicationUsername ?? "").lowercased(), nonce.lowercased(),
            String(timestamp),
        ]
        .joined(separator: "\u{2063}")
    }
}

/// `SKPaymentTransaction` as the queue delivers it.
public struct Transaction: Sendable, Hashable {
    /// 16 decimal digits, like App Store transaction identifiers.
    public let id: String
    /// For a restored or renewed transaction, the first purchase's id; otherwise `id`.
    public var originalId: String
    public let payment: Payment
    public var state: TransactionState
    public var error: StoreError?
    public let purchaseDate: Date
    public var finished: Bool
    /// Who finished it, once finished: the app, or the app's server through the App Store Server
    /// API's Finish Transaction; nil when the store does not say.
    public var finishedBy: Finisher?
    /// The refund the customer asked for that the App Store has not decided, as the store reports
    /// the transaction (its list, not an update: the app is told only of a decision).
    public var refundRequest: WaitingRefund?
    /// StoreKit 2's view of what the store decided; nil until the store says (a `purchasing`
    /// transaction, or an answer from a store that does not tell).
    public var terms: TransactionTerms?
    /// What the store knows beyond what the app is told: why a failed transaction failed (the
    /// app sees only the error), or why a deferred Ask to Buy request is closed (the app is told
    /// nothing, and still sees it deferred).
    public var failureContext: FailureContext?

    public init(
        id: String, originalId: String, payment: Payment, state: TransactionState,
        error: StoreError? = nil, purchaseDate: Date, finished: Bool = false, terms: TransactionTerms? = nil,
        failureContext: FailureContext? = nil
    ) {
        self.id = id
        self.originalId = originalId
        self.payment = payment
        self.state = state
        self.error = error
        self.purchaseDate = purchaseDate
        self.finished = finished
        self.terms = terms
        self.failureContext = failureContext
    }

    public var productId: String { payment.productId }
    public var quantity: Int { payment.quantity }
}

/// Who finished a transaction.
public enum Finisher: String, Sendable, Hashable, CaseIterable {
    /// The app, with `finishTransaction` or `Transaction.finish()`.
    case app
    /// The app's server, with the App Store Server API's Finish Transaction.
    case server
}

/// What the store knows of a transaction that the app is not told: why a failed one failed, where
/// its error code says less, or why a deferred Ask to Buy request is closed.
public enum FailureContext: String, Sendable, Hashable, CaseIterable {
    /// An interrupted purchase (SKError 0 to the app): it waits for the user's action outside
    /// the app, and completes as a new purchase once resolved.
    case interrupted
    /// A parent declined the Ask to Buy request; nothing was charged. Apple sends the app nothing,
    /// so its transaction stays deferred.
    case declined
    /// Nobody answered the Ask to Buy request within 24 hours of store time; nothing was charged
    /// and the child must ask again. As for a decline, the app is sent nothing.
    case askToBuyExpired
}
