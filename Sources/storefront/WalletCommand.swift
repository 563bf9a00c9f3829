import AppSide
import ArgumentParser
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel
import StorefrontUI

struct WalletCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallet",
        abstract:
            "What the account has: consumable balances, owned items, subscriptions with expiry, pending payments.",
        discussion: "Balances are the app's (credited once per transaction id); entitlements come from the store."
    )

    @OptionGroup var options: StoreOptions

    @Flag(name: .long, help: "Print {\"account\",\"balances\",\"owned\",\"subscriptions\",\"pending\"} as JSON.")
    var json = false

    func run() async throws {
        let session = try await options.open()
        do {
            let wallet = try await WalletJSON(session: session, now: Date())
            if json {
                Console.json(try JSONOutput.encode(wallet))
            } else {
                Console.out(lines: wallet.lines(locale: session.locale))
            }
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }
}

/// `storefront wallet --json`; field names are a contract with scripts and tests.
struct WalletJSON: Encodable {
    struct Owned: Encodable {
        let productId: String
        let title: String
        let transactionId: String
        let purchaseDate: String
    }

    struct Subscription: Encodable {
        let productId: String
        let title: String
        let transactionId: String
        let originalTransactionId: String
        let expiresDate: String
        let active: Bool
        let willAutoRenew: Bool
        let secondsLeft: Int
        /// StoreKit 2's `RenewalState`: `subscribed`, `inGracePeriod`, `inBillingRetryPeriod` or
        /// `expired` (a refunded subscription grants nothing and is not listed).
        let state: String
        /// The subscription's paid periods (its purchases and renewals), newest first: one
        /// subscription per group, whatever plans it moved through.
        let periods: [String]
        /// Auto-renewable subscriptions only: StoreKit 2's renewal info.
        let renewal: Renewal?
        /// `upFront` or `monthly`: how the period in force was paid.
        let billingPlanType: String?
        /// On the monthly plan: the period in force's place in its commitment ("payment 4 of 12").
        let commitment: CommitmentJSON?

        static func state(of entitlement: Entitlement, at now: Date) -> String {
            guard entitlement.renewal?.isInBillingRetry == true else {
                return entitlement.isActive(at: now) ? "subscribed" : "expired"
            }
            return entitlement.isActive(at: now) ? "inGracePeriod" : "inBillingRetryPeriod"
        }
    }

    /// `RenewalInfo`, with reasons and statuses by name and dates in ISO 8601.
    struct Renewal: Encodable {
        let willAutoRenew: Bool
        let autoRenewProductId: String
        let expirationReason: String?
        let isInBillingRetry: Bool
        let gracePeriodExpiresDate: String?
        /// `pending` (asked, not answered) or `agreed`; absent without a price increase.
        let priceIncreaseStatus: String?
        /// The next renewal's price a price increase set, as an exact decimal; absent without one.
        let renewalPrice: String?
        /// `upFront` or `monthly`: the plan the next payment is billed on.
        let renewalBillingPlanType: String
        /// While a 12-month commitment runs: what follows its end.
        let commitmentInfo: RenewalCommitmentJSON?
        /// An offer taken on the plan in force, waiting for the next renewal.
        let renewalOffer: RenewalOfferJSON?

        init(_ info: RenewalInfo) {
            renewalOffer = info.renewalOffer.map(RenewalOfferJSON.init)
            renewalBillingPlanType = info.renewalBillingPlan.rawValue
            commitmentInfo = info.commitment.map(RenewalCommitmentJSON.init)
            willAutoRenew = info.willAutoRenew
            autoRenewProductId = info.autoRenewProductId
            expirationReason = info.expirationReason?.name
            isInBillingRetry = info.isInBillingRetry
            gracePeriodExpiresDate = info.gracePeriodExpirationDate?.formatted(.iso8601)
            priceIncreaseStatus = info.priceIncreaseStatus?.name
            renewalPrice = info.renewalPrice?.exactString
        }
    }

    /// `Transaction.Offer` of an offer the next renewal takes.
    struct RenewalOfferJSON: Encodable {
        /// `promotional`, `code` or `winBack`.
        let offerType: String
        let offerId: String?
        let paymentMode: String
        let period: String?

        init(_ offer: TransactionOffer) {
            offerType = offer.type.rawValue
            offerId = offer.id
            paymentMode = offer.paymentMode.rawValue
            period = offer.period?.iso8601
        }
    }

    struct Pending: Encodable {
        let transactionId: String
        let productId: String
        let state: String
        let since: String
        let waitingFor: String
    }

    let account: String
    let storefront: String
    let balances: [String: Int]
    let owned: [Owned]
    let subscriptions: [Subscription]
    let pending: [Pending]

    init(session: StoreSession, now: Date) async throws {
        let name = session.account.name
        let catalog = session.context.catalog
        let title = { (id: String) in catalog.product(id: id)?.title.text(in: session.language) ?? id }
        // A non-renewing subscription runs for the term the app keeps (Apple's servers sign none).
        let entitlements = try session.ledger.withAppTerms(
            try await session.store.entitlements(account: name), account: name, catalog: catalog,
            rate: try await session.store.controls().timeRate)
        // StoreKit's subscription status failing (a simulated error): no renewal info to show.
        let statusError = try await session.store.controls().apiErrors[.subscriptionStatus]
        if let statusError {
            Console.err(
                "storefront: note: subscription status unavailable (\(statusError.domain) \(statusError.code) \(statusError.name)); renewal info left out"
            )
        }
        account = name
        storefront = session.storefront.id
        balances = try session.ledger.balances(account: name)
        // A non-renewing subscription the app has no term for (never delivered) is not owned for good.
        owned = entitlements.filter { $0.expiresDate == nil && $0.type != .nonRenewing }.map {
            Owned(
                productId: $0.productId, title: title($0.productId), transactionId: $0.transactionId,
                purchaseDate: $0.purchaseDate.formatted(.iso8601))
        }
        let history = try await session.store.transactions(account: name)
        subscriptions = entitlements.compactMap { entitlement in
            guard let expires = entitlement.expiresDate else { return nil }
            let periods = history.filter {
                $0.originalId == entitlement.originalTransactionId && $0.state == .purchased
            }.map(\.id)
            let terms = history.first { $0.id == entitlement.transactionId }?.terms
            return Subscription(
                productId: entitlement.productId, title: title(entitlement.productId),
                transactionId: entitlement.transactionId,
                originalTransactionId: entitlement.originalTransactionId, expiresDate: expires.formatted(.iso8601),
                active: entitlement.isActive(at: now), willAutoRenew: entitlement.willAutoRenew,
                secondsLeft: max(0, Int(expires.timeIntervalSince(now).rounded(.up))),
                state: Subscription.state(of: entitlement, at: now), periods: periods,
                renewal: statusError == nil ? entitlement.renewal.map(Renewal.init) : nil,
                billingPlanType: terms?.billingPlan?.rawValue, commitment: terms?.commitment.map(CommitmentJSON.init))
        }
        pending = try await session.observer.pending(account: name).map {
            Pending(
                transactionId: $0.transactionId, productId: $0.productId, state: $0.state.name,
                since: $0.since.formatted(.iso8601), waitingFor: $0.waitingFor)
        }
    }

    /// "renews …", "ends …", "in billing retry, …", "expired … (billingError)".
    static func status(_ subscription: Subscription) -> String {
        let renewal = subscription.renewal
        var words: [String] = []
        if renewal?.isInBillingRetry == true {
            words.append(
                "billing issue: in billing retry"
                    + (renewal?.gracePeriodExpiresDate.map { ", access kept in grace period until \($0)" } ?? ""))
        }
        // Apple's renewal price is there for every subscription: a price increase is its status.
        if let price = renewal?.renewalPrice, let increase = renewal?.priceIncreaseStatus {
            let status =
                increase != "pending"
                ? "agreed"
                : renewal?.willAutoRenew == false ? "declined: it ends at its renewal" : "waiting for consent"
            words.append("price increase to \(price) \(status)")
        }
        if let offer = renewal?.renewalOffer {
            words.append("the next renewal takes the \(offer.offerType) offer" + (offer.offerId.map { " \($0)" } ?? ""))
        }
        if let product = renewal?.autoRenewProductId, product != subscription.productId {
            words.append("renews to \(product)")
        }
        if let commitment = subscription.commitment, subscription.active {
            words.insert(commitment.progress, at: 0)
            if let next = renewal?.commitmentInfo {
                words.append(
                    next.willAutoRenew
                        ? "commitment renews \(next.renewalDate)"
                        : "commitment ends \(next.renewalDate), not renewed: payments go on until then")
            }
        }
        let state =
            subscription.active
            ? "\(subscription.willAutoRenew ? "renews" : "ends") \(subscription.expiresDate) (in \(UIStrings.timeLeft(subscription.secondsLeft)))"
            : "expired \(subscription.expiresDate)" + (renewal?.expirationReason.map { " (\($0))" } ?? "")
        return ([state] + words).joined(separator: "; ")
    }

    /// The wallet as text, counts grouped as `locale` writes them ("1,200 gems").
    func lines(locale: String) -> [String] {
        var lines = ["\(account) (\(storefront))"]
        let number = IntegerFormatStyle<Int>(locale: Locale(identifier: locale))
        let balanceText = balances.sorted { $0.key < $1.key }.map { "\($0.value.formatted(number)) \($0.key)" }
            .joined(separator: ", ")
        lines.append("Balances: " + (balanceText.isEmpty ? "none" : balanceText))
        lines.append("Owned: " + (owned.isEmpty ? "nothing" : owned.map(\.title).joined(separator: ", ")))
        if subscriptions.isEmpty { lines.append("Subscriptions: none") }
        for subscription in subscriptions {
            lines.append("Subscription: \(subscription.title) — \(Self.status(subscription))")
        }
        for payment in pending {
            lines.append(
                "Pending: \(payment.transactionId) \(payment.productId) — \(payment.waitingFor); do not pay again")
        }
        return lines
    }
}
