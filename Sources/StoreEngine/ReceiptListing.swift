import Foundation
import StoreKitModel

// Which of the store's transactions a receipt lists, and how one becomes an in-app purchase of it.

extension Transaction {
    /// Apple's rule for what a receipt lists (its `in_app`, and verifyReceipt's
    /// `latest_receipt_info`): purchases and restores, less consumables the app finished. A
    /// consumable stays until the app finishes it; every other type stays for good.
    public func isListedInReceipt(as type: ProductType?) -> Bool {
        state.hasReceipt && !(finished && type == .consumable)
    }
}

extension TransactionOffer {
    /// An introductory free trial: receipts' `is_trial_period`.
    public var isTrialPeriod: Bool { type == .introductory && paymentMode == .freeTrial }
    /// An introductory price paid as you go or up front: receipts' `is_in_intro_offer_period`.
    public var isInIntroOfferPeriod: Bool { type == .introductory && paymentMode != .freeTrial }
}

extension ReceiptPayload.InApp {
    init(_ stored: StoredTransaction, originalPurchaseDate: Date, type: ProductType?) {
        let transaction = stored.transaction
        let subscription = type == .autoRenewable
        quantity = transaction.quantity
        productId = transaction.productId
        transactionId = transaction.id
        originalTransactionId = transaction.originalId
        purchaseDate = transaction.purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        expiresDate = subscription ? stored.expiresDate : nil  // a non-renewing term is the app's
        cancellationDate = stored.revocationDate
        webOrderLineItemId = subscription ? Self.webOrderLineItemId(transactionId: transaction.id) : nil
        isTrialPeriod = subscription ? stored.offer?.isTrialPeriod == true : nil
        isInIntroOfferPeriod = subscription ? stored.offer?.isInIntroOfferPeriod == true : nil
        promotionalOfferId = stored.offer?.type == .promotional ? stored.offer?.id : nil
    }

    /// A subscription period's order line: the transaction id moved into a range of its own, so
    /// the two never collide. Signed transactions report the same.
    public static func webOrderLineItemId(transactionId: String) -> Int64? {
        Int64(transactionId).flatMap { $0 <= Int64.max - offset ? $0 + offset : nil }
    }

    private static let offset: Int64 = 1_000_000_000_000_000
}
