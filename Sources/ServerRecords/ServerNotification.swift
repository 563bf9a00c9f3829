import Foundation
import StoreCore
import StoreKitModel

/// App Store Server Notifications V2's `notificationType` values the store sends.
public enum NotificationType: String, Sendable, Hashable, CaseIterable, Codable {
    case subscribed = "SUBSCRIBED"
    case didRenew = "DID_RENEW"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    case expired = "EXPIRED"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    case offerRedeemed = "OFFER_REDEEMED"
    case priceIncrease = "PRICE_INCREASE"
    case refund = "REFUND"
    case refundDeclined = "REFUND_DECLINED"
    case consumptionRequest = "CONSUMPTION_REQUEST"
    case renewalExtended = "RENEWAL_EXTENDED"
    /// A mass extension's progress: its `SUMMARY` when complete, a `FAILURE` per subscriber refused.
    case renewalExtension = "RENEWAL_EXTENSION"
    case oneTimeCharge = "ONE_TIME_CHARGE"
    /// A family member's shared purchase is no longer shared: refunded, or sharing stopped.
    case revoke = "REVOKE"
    case test = "TEST"
    /// The App Store reversed a refund it granted: the transaction is no longer revoked.
    case refundReversed = "REFUND_REVERSED"
    // The types below are Apple's for what this store cannot cause (external purchases,
    // Advanced Commerce subscriptions, a consent withdrawn outside the app); they are known so
    // that Get Notification History takes every one of Apple's types as a filter.
    case externalPurchaseToken = "EXTERNAL_PURCHASE_TOKEN"
    case rescindConsent = "RESCIND_CONSENT"
    case metadataUpdate = "METADATA_UPDATE"
    case migration = "MIGRATION"
    case priceChange = "PRICE_CHANGE"
}

/// The `subtype` values that go with them.
public enum NotificationSubtype: String, Sendable, Hashable, CaseIterable, Codable {
    case initialBuy = "INITIAL_BUY"
    case resubscribe = "RESUBSCRIBE"
    case downgrade = "DOWNGRADE"
    case upgrade = "UPGRADE"
    case autoRenewEnabled = "AUTO_RENEW_ENABLED"
    case autoRenewDisabled = "AUTO_RENEW_DISABLED"
    case voluntary = "VOLUNTARY"
    case billingRetry = "BILLING_RETRY"
    case priceIncrease = "PRICE_INCREASE"
    case gracePeriod = "GRACE_PERIOD"
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    case billingRecovery = "BILLING_RECOVERY"
    case productNotForSale = "PRODUCT_NOT_FOR_SALE"
    case summary = "SUMMARY"
    case failure = "FAILURE"
    /// EXTERNAL_PURCHASE_TOKEN's, which this store never sends; a filter may name it.
    case unreported = "UNREPORTED"
}

/// What happened, as one notification tells it: its type and subtype.
public struct NotificationEvent: Sendable, Hashable {
    public let type: NotificationType
    public let subtype: NotificationSubtype?

    public init(_ type: NotificationType, _ subtype: NotificationSubtype? = nil) {
        self.type = type
        self.subtype = subtype
    }

    /// Whether the App Store sends it in `environment`. Apple sends ONE_TIME_CHARGE in the
    /// sandbox only ("currently available only in the sandbox environment", Apple's answer in
    /// developer forums thread 764348); nothing Apple has published since says otherwise.
    public func isSent(in environment: StoreEnvironment) -> Bool {
        !(type == .oneTimeCharge && environment == .production)
    }

    /// A subscription that stopped renewing, with the subtype Apple gives its reason.
    public static func expired(_ reason: ExpirationReason) -> NotificationEvent {
        switch reason {
        case .autoRenewDisabled: NotificationEvent(.expired, .voluntary)
        case .billingError: NotificationEvent(.expired, .billingRetry)
        case .didNotConsentToPriceIncrease: NotificationEvent(.expired, .priceIncrease)
        case .productUnavailable: NotificationEvent(.expired, .productNotForSale)
        case .unknown: NotificationEvent(.expired)
        }
    }
}

/// How one delivery attempt ended, in Apple's `sendAttemptResult` terms.
public enum SendAttemptResult: String, Sendable, Hashable, CaseIterable, Codable {
    case success = "SUCCESS"
    case timedOut = "TIMED_OUT"
    case tlsIssue = "TLS_ISSUE"
    case circularRedirect = "CIRCULAR_REDIRECT"
    case noResponse = "NO_RESPONSE"
    case socketIssue = "SOCKET_ISSUE"
    case unsupportedCharset = "UNSUPPORTED_CHARSET"
    case invalidResponse = "INVALID_RESPONSE"
    case prematureClose = "PREMATURE_CLOSE"
    case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    case other = "OTHER"
}

/// Apple's retry schedule: after a failed first attempt, five more, 1, 12, 24, 48 and 72 hours
/// after the one before, each scaled by the test time rate as subscription periods are.
public enum NotificationRetry {
    public static let hours: [Double] = [1, 12, 24, 48, 72]

    /// Seconds to wait after the `attempts`-th attempt failed; nil when it was the last.
    public static func delay(afterAttempt attempts: Int, rate: TimeRate) -> Double? {
        guard attempts >= 1, attempts <= hours.count else { return nil }
        return rate.seconds(hours: hours[attempts - 1])
    }
}

/// One notification as the store keeps it: what it tells, about which transaction, and (once
/// the deliverer first took it) its signed payload, which every retry sends unchanged.
public struct StoredNotification: Sendable, Hashable {
    public let sequence: Int64
    public let uuid: UUID
    public let event: NotificationEvent
    /// Nil for `TEST`.
    public let transactionId: String?
    public let createdAt: Date
    public let signedPayload: String?
    /// The customer's reason, for CONSUMPTION_REQUEST.
    public let consumptionRequestReason: RefundRequestReason?
    /// The request identifier of the mass extension a `RENEWAL_EXTENSION`/`SUMMARY` sums up: its
    /// payload carries `summary` instead of `data`.
    public let massExtension: String?

    public init(
        sequence: Int64, uuid: UUID, event: NotificationEvent, transactionId: String?, createdAt: Date,
        signedPayload: String?, consumptionRequestReason: RefundRequestReason? = nil, massExtension: String? = nil
    ) {
        self.sequence = sequence
        self.uuid = uuid
        self.event = event
        self.transactionId = transactionId
        self.createdAt = createdAt
        self.signedPayload = signedPayload
        self.consumptionRequestReason = consumptionRequestReason
        self.massExtension = massExtension
    }
}

/// What a notification's payload says of its transaction, read when it is signed.
public struct NotificationContext: Sendable, Hashable {
    public let transaction: ServerTransaction
    /// The chain's status and renewal info, for an auto-renewable subscription.
    public let subscription: SubscriptionStatus?

    public init(transaction: ServerTransaction, subscription: SubscriptionStatus?) {
        self.transaction = transaction
        self.subscription = subscription
    }
}

/// A notification due at one URL.
public struct NotificationDelivery: Sendable, Hashable {
    public let notification: StoredNotification
    public let url: String
    /// Attempts made so far.
    public let attempts: Int

    public init(notification: StoredNotification, url: String, attempts: Int) {
        self.notification = notification
        self.url = url
        self.attempts = attempts
    }
}

/// One attempt to deliver a notification, as Get Notification History and `/admin` show it.
public struct SendAttempt: Sendable, Hashable {
    public let url: String
    public let date: Date
    public let result: SendAttemptResult
    /// The receiver's HTTP status, when it answered.
    public let httpStatus: Int?
    /// What went wrong, in words, for the log and `/admin`.
    public let detail: String?

    public init(url: String, date: Date, result: SendAttemptResult, httpStatus: Int?, detail: String?) {
        self.url = url
        self.date = date
        self.result = result
        self.httpStatus = httpStatus
        self.detail = detail
    }
}

/// A notification with its attempts so far and where it stands at each URL.
public struct NotificationRecord: Sendable, Hashable {
    public let notification: StoredNotification
    public let attempts: [SendAttempt]
    /// URLs it still waits to reach, with when the next attempt is due.
    public let pending: [String: Date]

    public init(notification: StoredNotification, attempts: [SendAttempt], pending: [String: Date]) {
        self.notification = notification
        self.attempts = attempts
        self.pending = pending
    }
}

/// Which notifications Get Notification History returns.
public struct NotificationFilter: Sendable, Hashable {
    public var startDate: Date
    public var endDate: Date
    public var type: NotificationType?
    public var subtype: NotificationSubtype?
    /// Notifications about this customer's transactions only.
    public var account: String?
    public var onlyFailures: Bool

    public init(
        startDate: Date, endDate: Date, type: NotificationType? = nil, subtype: NotificationSubtype? = nil,
        account: String? = nil, onlyFailures: Bool = false
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.type = type
        self.subtype = subtype
        self.account = account
        self.onlyFailures = onlyFailures
    }
}
