import Foundation
import StoreKitModel

/// A transaction as the payment queue delivers it to the app, with the receipt the app sends
/// to its server when the state is `purchased` or `restored`.
public struct TransactionUpdate: Sendable, Hashable {
    public let transaction: Transaction
    public let receipt: String?

    public init(transaction: Transaction, receipt: String?) {
        self.transaction = transaction
        self.receipt = receipt
    }
}

/// Transaction-manager actions, as in Xcode's Transaction Manager and `SKTestSession`.
public enum ManageAction: Sendable, Hashable {
    case approveAskToBuy(String)
    case declineAskToBuy(String)
    case resolveIssue(String)
    /// The App Store refunds the transaction for `reason` (Apple's `revocationReason`): all of
    /// it, or the `percentage` a prorated refund gives back (REFUND_PRORATED).
    case refund(String, reason: RevocationReason = .other, percentage: RefundPercentage? = nil)
    /// The customer asks the App Store for a refund: it waits for the App Store's decision
    /// (`refund` grants it, `declineRefund` refuses it); servers hear CONSUMPTION_REQUEST with
    /// the customer's reason.
    case requestRefund(String, reason: RefundRequestReason = .other)
    case declineRefund(String)
    /// The App Store reverses a refund it granted (a dispute the customer raised): the
    /// transaction is no longer revoked, its dates unchanged; servers hear REFUND_REVERSED.
    case reverseRefund(String)
    case expireSubscription(String)
    case forceRenewal(String)
    case delete(String)
    case clearAll
    /// The sandbox's Clear Purchase History for one tester: the account's purchase history is
    /// deleted, so it may take introductory offers again; every other account keeps its own.
    case clearAccount(String)
    case resetToDefaults
    /// A transaction made outside the device, dated in the past (Xcode 26's transaction manager):
    /// the store writes it with the renewals and the expiry that followed from its date, and the
    /// app hears of it as of a purchase on another device.
    case createTransaction(TransactionCreation)
    /// A Sandbox Test Family edited while the store runs: the account joins the family `family`
    /// names (nil: it leaves its family), and the family's sharing follows.
    case setFamily(account: String, family: String?)
    /// Turns a subscription's auto-renew on or off (`enableAutoRenewForTransaction`, `disable…`).
    case setAutoRenew(String, Bool)
    /// A price increase asked for, consented to or declined (`requestPriceIncreaseConsentForTransaction`, …).
    /// A request may name its new renewal price and waive consent (`PriceIncreaseTerms`).
    case priceIncrease(String, PriceIncreaseStep, PriceIncreaseTerms? = nil)
    /// The purchaser stops sharing the purchase with the family: each member's copy is revoked
    /// (reason 0) and servers hear REVOKE.
    case stopSharing(String)
    /// An organization or group that bought the transaction's product assigns it to `account`:
    /// the account gets a copy of its own, owned `ASSIGNED` (App Store Server API 1.22), which
    /// follows the purchase's renewals and is revoked with a refund of it.
    case assign(String, account: String)
    /// The app's server finishes the transaction (the App Store Server API's Finish Transaction):
    /// the app's queue no longer offers it, and the store records that the server finished it.
    case serverFinish(String)
    /// The App Store sends the account a StoreKit message (`Message`): kept until an app of the
    /// account takes it, once. Only a reason in `StoreMessageReason.sendable` can be sent.
    case sendMessage(account: String, reason: StoreMessageReason)
    /// The customer starts a purchase outside the app (`PurchaseIntent`): taps the promoted
    /// product on the App Store, or redeems a win-back offer there (`offerId`). Kept until an app
    /// of the account takes it, once; the app completes the purchase.
    case purchaseIntent(account: String, productId: String, offerId: String?)
}

/// The steps of a subscription's price increase, as Xcode's test session takes them.
public enum PriceIncreaseStep: String, Sendable, Hashable, CaseIterable {
    case request, consent, decline
}

/// What a price increase asks for: the new renewal price, in the subscription's currency (nil:
/// the store raises the current one by a tenth, `PriceIncreaseTerms.defaultRaise`), and whether
/// the customer must consent. Apple lets a developer raise a price within limits without
/// consent: the customer is told, and the next renewal charges the new price.
public struct PriceIncreaseTerms: Sendable, Hashable {
    public let price: Decimal?
    public let needsConsent: Bool

    public init(price: Decimal?, needsConsent: Bool = true) {
        self.price = price
        self.needsConsent = needsConsent
    }

    /// From a price as the command line and `/admin` spell it (`5.99`); nil when the text is not
    /// a positive plain decimal.
    public init?(priceText: String?, needsConsent: Bool) {
        guard let priceText else {
            self.init(price: nil, needsConsent: needsConsent)
            return
        }
        guard !priceText.isEmpty, priceText.count <= 16,
            priceText.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            priceText.filter({ $0 == "." }).count <= 1,
            let value = Decimal(string: priceText, locale: Locale(identifier: "en_US_POSIX")), value > 0
        else { return nil }
        self.init(price: value, needsConsent: needsConsent)
    }

    /// The price a request without one asks for: a tenth more, rounded up to the currency's
    /// smallest unit (4.99 becomes 5.49).
    public static func defaultRaise(of price: Decimal, currency: String) -> Decimal {
        MinorUnits.round(price * Decimal(11) / Decimal(10), in: currency, .up)
    }
}

/// The one seam between the app side (UI, headless commands) and a store: the simulated store
/// in this process, or a remote store over HTTP. Both keep StoreKit's semantics.
public protocol StoreBackend: Sendable {
    /// The store's stable identity, made once with its database. Transaction ids are unique within
    /// one store only (every store numbers from 2000000000000001), so the app keys what it
    /// delivered by store and transaction id.
    func storeId() async throws -> String
    /// `SKProductsRequest` in the current (or given) storefront.
    func products(ids: [String], storefront: String?) async throws -> ProductsResponse
    /// `SKPaymentQueue.add`: returns the new `purchasing` transaction; later states arrive as updates.
    /// `forcing` chooses this payment's outcome in the same commit that records it (a test control,
    /// like `buy --outcome`), so no other payment can take it; nil leaves it to the test controls.
    func add(_ payment: Payment, forcing: PaymentOutcome?) async throws -> Transaction
    /// Every update from now on, for every account.
    func updates() async -> AsyncStream<TransactionUpdate>
    /// What the queue re-delivers at launch: every unfinished transaction of the account.
    func unfinished(account: String) async throws -> [TransactionUpdate]
    /// `finishTransaction` of one of `account`'s own transactions (another account's is not
    /// found, as the queue of one account never holds it); refused for a `purchasing` one.
    func finish(transactionId: String, account: String) async throws
    /// `restoreCompletedTransactions`: new `restored` transactions, or a thrown `StoreError`.
    func restore(account: String) async throws -> [TransactionUpdate]
    /// Every transaction the store keeps for the account, newest first.
    func transactions(account: String?) async throws -> [Transaction]
    /// The Sandbox Test Family each account is in now, by account: the catalog's, as edited
    /// while the store runs (`manage family`); an account in no family is absent.
    func families() async throws -> [String: String]
    /// Non-consumables owned and each subscription's latest period (StoreKit 2's current entitlements).
    func entitlements(account: String) async throws -> [Entitlement]
    /// StoreKit's `AppTransaction.shared`: the account's purchase of the app itself.
    func appTransaction(account: String) async throws -> AppTransactionInfo
    /// The app server's verification of a receipt for one transaction. `claim` identifies the
    /// app's request (its ledger entry): the same claim retried is answered again, while another
    /// claim on an already consumed transaction id is refused as a replay.
    func verify(receipt: String, transactionId: String, productId: String, claim: String) async throws
        -> VerificationResult
    func controls() async throws -> TestControls
    func setControls(_ controls: TestControls) async throws
    func perform(_ action: ManageAction) async throws -> [TransactionUpdate]
    /// StoreKit's messages for the account that no app has taken yet, oldest first, each given
    /// once (`Message.messages`): those sent to it, and a win-back offer's when the account has
    /// become eligible for one since its subscription ended (unless the `win-back-messages`
    /// control is off).
    func takeMessages(account: String) async throws -> [AppStoreMessage]
    /// The purchases the customer started outside the app that no app has taken yet, oldest
    /// first, each given once (`PurchaseIntent.intents`).
    func takePurchaseIntents(account: String) async throws -> [PurchaseIntentInfo]
    /// The retention message to show as the customer turns auto-renew off (nil: none).
    func cancellationMessage(account: String, productId: String, locale: String) async throws
        -> CancellationMessage?
}

extension StoreBackend {
    public func add(_ payment: Payment) async throws -> Transaction {
        try await add(payment, forcing: nil)
    }
}

/// What the app's server concluded about a purchase.
public enum VerificationResult: Sendable, Hashable {
    case verified
    /// Definitive: the receipt or the claim is wrong; the app must not deliver again, and finishes.
    case rejected(status: VerifyStatus?, reason: String)
    /// Definitive: another claim (another device of the account) was verified for this transaction
    /// id first, so the delivery is that claim's. The app takes back its own provisional delivery
    /// and finishes; the transaction is delivered exactly once across the account's devices.
    case replayed(reason: String)
    /// Try again later (server unreachable or a retryable status): keep the transaction unfinished.
    case retryLater(reason: String)
}

/// A store refused a request; what went wrong and what to do.
public struct StoreFailure: Error, Sendable, CustomStringConvertible {
    /// What kind of refusal, so a server can answer with the right HTTP status and a client can
    /// tell "fix the request" from "try again later".
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Anything else (a database error, an unexpected state).
        case failure
        /// The named transaction (or other record) does not exist.
        case notFound
        /// The request is understood but conflicts with the current state (finishing a purchasing transaction).
        case conflict
        /// A value in the request is not acceptable (unknown account, quantity out of range).
        case invalid
        /// The store cannot be reached or is not ready; the same request may succeed later.
        case unavailable
        /// The store's files failed (the disk is full, a page is damaged): nothing was recorded, and
        /// the same request can succeed only once someone fixes the storage.
        case storage
    }

    public let message: String
    public let kind: Kind
    /// A write that may or may not have been recorded: the database did not confirm it in time.
    /// Retrying is safe only where the write is idempotent (a payment with its Idempotency-Key).
    public let outcomeUnknown: Bool
    /// The message names nothing of the server's (no host, user, file or SQL), so an answer may
    /// carry it as it is, where other failures of the server's own are told in general words.
    public let shareable: Bool

    public init(_ message: String, kind: Kind = .failure, outcomeUnknown: Bool = false, shareable: Bool = false) {
        self.message = message
        self.kind = kind
        self.outcomeUnknown = outcomeUnknown
        self.shareable = shareable
    }

    public var description: String { message }
}
