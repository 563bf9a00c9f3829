import Foundation
import ServerRecords
import StoreCore

/// `ResponseBodyV2DecodedPayload`: what a notification's `signedPayload` signs.
struct NotificationPayload: Encodable, Sendable {
    /// `data`: the app, the environment, and the transaction and renewal info it is about.
    struct Data: Encodable, Sendable {
        let appAppleId: Int64?
        let bundleId: String
        let bundleVersion: String
        let environment: StoreEnvironment
        let signedTransactionInfo: String?
        let signedRenewalInfo: String?
        /// The subscription's status (1–5), for a subscription's notification.
        let status: Int?
        /// The customer's reason for the refund request, in CONSUMPTION_REQUEST.
        var consumptionRequestReason: String? = nil
    }

    /// `summary`: a mass extension's outcome, in a RENEWAL_EXTENSION/SUMMARY instead of `data`.
    struct Summary: Encodable, Sendable {
        let requestIdentifier: String
        let environment: StoreEnvironment
        let appAppleId: Int64?
        let bundleId: String
        let productId: String
        let storefrontCountryCodes: [String]?
        let failedCount: Int64
        let succeededCount: Int64
    }

    let notificationType: String
    let subtype: String?
    let notificationUUID: String
    /// Exactly one of `data` and `summary`, as Apple sends them.
    let data: Data?
    let summary: Summary?
    let version: String
    let signedDate: Int64
}

/// The body POSTed to a notification URL.
struct NotificationBody: Codable, Sendable {
    let signedPayload: String
}

/// `SendAttemptItem`.
struct SendAttemptItem: Encodable, Sendable {
    let attemptDate: Int64
    let sendAttemptResult: String

    init(_ attempt: SendAttempt) {
        attemptDate = attempt.date.epochMilliseconds
        sendAttemptResult = attempt.result.rawValue
    }
}

/// Request a Test Notification's answer.
struct SendTestNotificationResponse: Encodable, Sendable {
    let testNotificationToken: String
}

/// Get Test Notification Status's answer.
struct CheckTestNotificationResponse: Encodable, Sendable {
    let signedPayload: String
    let sendAttempts: [SendAttemptItem]
}

/// Get Notification History's request body (`NotificationHistoryRequest`).
struct NotificationHistoryRequest: Codable, Sendable {
    let startDate: Int64?
    let endDate: Int64?
    let notificationType: String?
    let notificationSubtype: String?
    let transactionId: String?
    let onlyFailures: Bool?
}

/// Get Notification History's answer.
struct NotificationHistoryResponse: Encodable, Sendable {
    struct Item: Encodable, Sendable {
        let signedPayload: String
        let sendAttempts: [SendAttemptItem]
    }

    let notificationHistory: [Item]
    let hasMore: Bool
    let paginationToken: String
}

/// `/admin/notifications`: the outbox as the deliverer sees it.
struct AdminNotificationsResponse: Encodable, Sendable {
    struct Attempt: Encodable, Sendable {
        let url: String
        let attemptDate: Int64
        let result: String
        let httpStatus: Int?
        let detail: String?
    }

    struct Pending: Encodable, Sendable {
        let url: String
        let nextAttemptDate: Int64
    }

    struct Item: Encodable, Sendable {
        let notificationUUID: String
        let notificationType: String
        let subtype: String?
        let transactionId: String?
        let createdDate: Int64
        let signed: Bool
        let attempts: [Attempt]
        let pending: [Pending]
    }

    let urls: [String]
    let notifications: [Item]
}

/// `PUT /admin/notification-urls`: where notifications go from now on.
struct NotificationURLsRequest: Codable, Sendable {
    let urls: [String]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case urls
    }
}

/// `GET`/`PUT /admin/notification-urls`: the URLs set with `--notify` and through `/admin`.
struct NotificationURLsResponse: Encodable, Sendable {
    /// Every URL notifications go to.
    let urls: [String]
    /// Those given with `storefront serve --notify`, for this run.
    let fromCommandLine: [String]
}

/// `POST /admin/notifications/send-pending`: retries made due now.
struct SendPendingResponse: Encodable, Sendable {
    let madeDue: Int
}
