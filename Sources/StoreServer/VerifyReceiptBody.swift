import Foundation
import StoreCore
import StoreEngine
import StoreKitModel

/// verifyReceipt's `receipt`: the receipt as sent, decoded, every date three ways.
struct ReceiptBody: Encodable, Sendable {
    let receiptType: String
    let payload: ReceiptPayload
    let request: Date
    let originalPurchase: Date
    let inApp: [InAppItem]

    // verifyReceipt's keys, spelled as Apple's JSON spells them.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    enum CodingKeys: String, CodingKey {
        case receipt_type, adam_id, app_item_id, bundle_id, application_version, download_id,
            version_external_identifier
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
        try container.encode(payload.bundleId, forKey: .bundle_id)
        try container.encode(payload.appVersion, forKey: .application_version)
        try container.encode(0, forKey: .download_id)
        try container.encode(0, forKey: .version_external_identifier)
        try container.encodeAppleDate(
            payload.creationDate, .receipt_creation_date, .receipt_creation_date_ms, .receipt_creation_date_pst)
        try container.encodeAppleDate(request, .request_date, .request_date_ms, .request_date_pst)
        try container.encodeAppleDate(
            originalPurchase, .original_purchase_date, .original_purchase_date_ms, .original_purchase_date_pst)
        try container.encode(payload.originalAppVersion, forKey: .original_application_version)
        try container.encode(inApp, forKey: .in_app)
    }
}

/// One `in_app` (or `latest_receipt_info`) item: every number a string, every date three ways.
/// An `in_app` item is what the receipt says; what it cannot say (the cancellation reason, an
/// upgrade, the app account token, an offer code) comes from the store's record.
struct InAppItem: Encodable, Sendable {
    let quantity: Int
    let productId: String
    let transactionId: String
    let originalTransactionId: String
    let purchaseDate: Date
    let originalPurchaseDate: Date
    let expiresDate: Date?
    let cancellationDate: Date?
    let cancellationReason: RevocationReason?
    let webOrderLineItemId: Int64?
    let isTrialPeriod: Bool
    /// Auto-renewable subscriptions only.
    let isInIntroOfferPeriod: Bool?
    let promotionalOfferId: String?
    let offerCodeRefName: String?
    let subscriptionGroupIdentifier: String?
    let appAccountToken: String?
    /// When an upgrade replaced the subscription: the receipt cancels it then, with no reason.
    let upgradeDate: Date?
    let ownership: OwnershipType

    /// An item of the receipt sent. `transaction` and `details` are the store's, nil once deleted.
    init(item: ReceiptPayload.InApp, transaction: Transaction?, details: TransactionDetails?, product: Product?) {
        quantity = item.quantity
        productId = item.productId
        transactionId = item.transactionId
        originalTransactionId = item.originalTransactionId
        purchaseDate = item.purchaseDate
        originalPurchaseDate = item.originalPurchaseDate
        expiresDate = item.expiresDate
        cancellationDate = item.cancellationDate
        cancellationReason = details?.revocationReason
        webOrderLineItemId = item.webOrderLineItemId
        isTrialPeriod = item.isTrialPeriod ?? false
        isInIntroOfferPeriod = item.isInIntroOfferPeriod
        promotionalOfferId = item.promotionalOfferId
        offerCodeRefName = Self.offerCode(details?.offer)
        subscriptionGroupIdentifier = Self.group(product)
        appAccountToken = transaction.flatMap { TransactionSigner.accountToken(of: $0, set: details?.appAccountToken) }
        upgradeDate = details?.upgrade?.date
        ownership = details?.ownership ?? .purchased
    }

    /// An item as the store has the transaction now (`latest_receipt_info`).
    init(transaction: Transaction, details: TransactionDetails?, product: Product?) {
        let subscription = product?.type == .autoRenewable
        let offer = details?.offer
        quantity = transaction.quantity
        productId = transaction.productId
        transactionId = transaction.id
        originalTransactionId = transaction.originalId
        purchaseDate = transaction.purchaseDate
        originalPurchaseDate = details?.originalPurchaseDate ?? transaction.purchaseDate
        expiresDate = subscription ? details?.expiresDate : nil
        cancellationDate = details?.revocationDate
        cancellationReason = details?.revocationReason
        webOrderLineItemId = subscription ? ReceiptPayload.InApp.webOrderLineItemId(transactionId: transaction.id) : nil
        isTrialPeriod = offer?.isTrialPeriod == true
        isInIntroOfferPeriod = subscription ? offer?.isInIntroOfferPeriod == true : nil
        promotionalOfferId = offer?.type == .promotional ? offer?.id : nil
        offerCodeRefName = Self.offerCode(offer)
        subscriptionGroupIdentifier = Self.group(product)
        appAccountToken = TransactionSigner.accountToken(of: transaction, set: details?.appAccountToken)
        upgradeDate = details?.upgrade?.date
        ownership = details?.ownership ?? .purchased
    }

    /// `offer_code_ref_name`: an offer code's id is its reference name.
    private static func offerCode(_ offer: TransactionOffer?) -> String? {
        offer?.type == .code ? offer?.id : nil
    }

    private static func group(_ product: Product?) -> String? {
        product?.type == .autoRenewable ? product?.subscription?.group : nil
    }

    // verifyReceipt's keys, spelled as Apple's JSON spells them.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    enum CodingKeys: String, CodingKey {
        case quantity, product_id, transaction_id, original_transaction_id
        case purchase_date, purchase_date_ms, purchase_date_pst
        case original_purchase_date, original_purchase_date_ms, original_purchase_date_pst
        case expires_date, expires_date_ms, expires_date_pst
        case cancellation_date, cancellation_date_ms, cancellation_date_pst, cancellation_reason
        case web_order_line_item_id, is_trial_period, is_in_intro_offer_period, is_upgraded, in_app_ownership_type
        case promotional_offer_id, offer_code_ref_name, subscription_group_identifier, app_account_token
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(String(quantity), forKey: .quantity)
        try container.encode(productId, forKey: .product_id)
        try container.encode(transactionId, forKey: .transaction_id)
        try container.encode(originalTransactionId, forKey: .original_transaction_id)
        try container.encodeAppleDate(purchaseDate, .purchase_date, .purchase_date_ms, .purchase_date_pst)
        try container.encodeAppleDate(
            originalPurchaseDate, .original_purchase_date, .original_purchase_date_ms, .original_purchase_date_pst)
        if let expiresDate {
            try container.encodeAppleDate(expiresDate, .expires_date, .expires_date_ms, .expires_date_pst)
        }
        if let cancellationDate {
            try container.encodeAppleDate(
                cancellationDate, .cancellation_date, .cancellation_date_ms, .cancellation_date_pst)
            try container.encode(String((cancellationReason ?? .other).rawValue), forKey: .cancellation_reason)
        } else if let upgradeDate {
            try container.encodeAppleDate(
                upgradeDate, .cancellation_date, .cancellation_date_ms, .cancellation_date_pst)
            try container.encode("true", forKey: .is_upgraded)
        }
        try container.encodeIfPresent(webOrderLineItemId.map(String.init), forKey: .web_order_line_item_id)
        try container.encode(String(isTrialPeriod), forKey: .is_trial_period)
        try container.encodeIfPresent(isInIntroOfferPeriod.map(String.init), forKey: .is_in_intro_offer_period)
        try container.encodeIfPresent(promotionalOfferId, forKey: .promotional_offer_id)
        try container.encodeIfPresent(offerCodeRefName, forKey: .offer_code_ref_name)
        try container.encodeIfPresent(subscriptionGroupIdentifier, forKey: .subscription_group_identifier)
        try container.encodeIfPresent(appAccountToken, forKey: .app_account_token)
        try container.encode(ownership.rawValue, forKey: .in_app_ownership_type)
    }
}

/// Apple's receipt date forms: `2026-01-02 03:04:05 Etc/GMT`, epoch milliseconds as a string,
/// and `2026-01-01 19:04:05 America/Los_Angeles`.
enum AppleDate {
    private static let gmtStyle = style(timeZone: TimeZone(identifier: "UTC") ?? .gmt)
    private static let pstStyle = style(
        timeZone: TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -8 * 3600) ?? .gmt)

    private static func style(timeZone: TimeZone) -> Date.VerbatimFormatStyle {
        Date.VerbatimFormatStyle(
            format:
                "\(year: .extended(minimumLength: 4))-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits)",
            locale: Locale(identifier: "en_US_POSIX"), timeZone: timeZone, calendar: Calendar(identifier: .gregorian))
    }

    static func gmt(_ date: Date) -> String { date.formatted(gmtStyle) + " Etc/GMT" }
    static func pst(_ date: Date) -> String { date.formatted(pstStyle) + " America/Los_Angeles" }
    static func ms(_ date: Date) -> String { String(date.epochMilliseconds) }
}

extension KeyedEncodingContainer {
    /// A date under its three keys: GMT, epoch milliseconds, Pacific time.
    mutating func encodeAppleDate(_ date: Date, _ gmt: Key, _ ms: Key, _ pst: Key) throws {
        try encode(AppleDate.gmt(date), forKey: gmt)
        try encode(AppleDate.ms(date), forKey: ms)
        try encode(AppleDate.pst(date), forKey: pst)
    }
}
