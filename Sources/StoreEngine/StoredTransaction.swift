import Foundation
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// Why a transaction exists, as StoreKit 2's `transactionReason` and Xcode's manager show it.
enum TransactionReason: String, Sendable {
    case purchase, renewal, restore
    /// A downgrade or crossgrade bought while another plan of the group is in force, or an offer
    /// taken on the plan in force: the payment completes as a copy in the subscription that
    /// grants nothing itself; the plan in force renews to it.
    case planChange
    /// A non-consumable the account owns, or the plan in force, bought again: delivered again as
    /// a restore is, no purchase or period of its own.
    case redownload

    /// A copy of a purchase the App Store already has (a restore, a re-download, a plan change
    /// waiting for the renewal): nothing was paid for it.
    var isCopy: Bool {
        switch self {
        case .restore, .redownload, .planChange: true
        case .purchase, .renewal: false
        }
    }
}

/// The transaction a notification is about.
struct NotificationSubject: Sendable, Hashable {
    let id: String
    let originalId: String
}

/// One row of `transactions`, with the fields the store needs beyond StoreKit's transaction.
struct StoredTransaction: Sendable, Hashable {
    var transaction: Transaction
    var storefront: String
    var price: Decimal
    var currency: String
    var expiresDate: Date?
    var revocationDate: Date?
    var autoRenew: Bool
    var pendingOutcome: PaymentOutcome?
    var reason: TransactionReason
    var offer: TransactionOffer? = nil
    var revocationReason: RevocationReason? = nil
    /// The share a prorated refund gave back; nil with a full refund or none.
    var revocationPercentage: RefundPercentage? = nil
    /// The plan a downgrade or crossgrade chose for the next renewal; nil renews the same product.
    var renewalProductId: String? = nil
    /// While a billing issue is open: when billing retry gives up.
    var billingRetryUntil: Date? = nil
    /// While a billing issue is open with the grace period on: when access ends.
    var graceExpires: Date? = nil
    var priceIncrease: PriceIncreaseStatus? = nil
    var expirationReason: ExpirationReason? = nil
    /// What the subscription renews at once a price increase set it; nil: the catalog's price.
    var renewalPrice: Decimal? = nil
    /// How an auto-renewable period was billed; nil for other products (and for periods kept
    /// from before billing plans, which were all paid up front).
    var billingPlan: BillingPlanType? = nil
    /// A monthly payment's place in its 12-month commitment.
    var commitment: TransactionCommitment? = nil
    /// On a commitment's latest payment: whether a new commitment follows its end (the
    /// customer's auto-renew choice; the monthly payments go on regardless).
    var commitmentAutoRenew: Bool? = nil
    /// The billing plan the next renewal, or the commitment's end, switches to; nil keeps the plan.
    var renewalPlan: BillingPlanType? = nil
    /// Whether the app's server allowed the introductory offer with this payment (a verified
    /// `.introductoryOfferEligibility(compactJWS:)`), kept until the payment completes, which
    /// may be after a restart; nil leaves it to the App Store's rule.
    var introOfferAllowed: Bool? = nil
    /// When the App Store last reversed a refund of this transaction.
    var refundReversalDate: Date? = nil

    /// The price a price increase set for a renewal to `productId`: it applies to the plan it was
    /// made on; a plan change renews at the new plan's price (nil).
    func increasedPrice(renewingTo productId: String) -> Decimal? {
        productId == transaction.productId ? renewalPrice : nil
    }
    /// An offer the next renewal takes (one bought on the plan in force).
    var renewalOffer: TransactionOffer? = nil
    /// Set when a higher level replaced this subscription before its period ended.
    var upgrade: Upgrade? = nil
    /// A parent declined this Ask to Buy request.
    var declined = false
    /// Set by a server through the App Store Server API; renewals and restores keep it.
    var appAccountToken: UUID? = nil
    /// `familyShared`: a family member's copy of the purchase `sharedFrom`.
    var ownership: OwnershipType = .purchased
    var sharedFrom: String? = nil
    /// What a server notification will tell of this change when it is recorded; not stored.
    var notification: NotificationEvent? = nil
    /// The transaction that notification is about when it is not this one (a plan change tells
    /// of the plan in force, which renews to it); not stored.
    var notificationSubject: NotificationSubject? = nil

    var id: String { transaction.id }

    /// The transaction as the app is told of it: with StoreKit 2's terms once it is purchased
    /// or restored (nothing was charged before, or for a failure).
    var published: Transaction {
        var published = transaction
        published.failureContext = failureContext
        if transaction.state.hasReceipt { published.terms = terms }
        return published
    }

    /// StoreKit 2's terms as this row has them.
    var terms: TransactionTerms {
        TransactionTerms(
            price: price, currency: currency, expirationDate: expiresDate, offer: offer,
            revocation: Revocation(
                date: revocationDate, reason: revocationReason, percentage: revocationPercentage?.milliunits),
            upgrade: upgrade,
            isRenewal: reason == .renewal,
            ownership: ownership, billingPlan: billingPlan, commitment: commitment,
            refundReversalDate: refundReversalDate)
    }
}
