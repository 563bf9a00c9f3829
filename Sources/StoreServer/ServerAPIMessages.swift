import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel

/// Get App Transaction Info's answer.
struct AppTransactionInfoResponse: Encodable, Sendable {
    let signedAppTransactionInfo: String
}

/// Get Transaction Info.
struct TransactionInfoResponse: Codable, Sendable {
    let signedTransactionInfo: String
}

/// Get Transaction History (v1 and v2).
struct HistoryResponse: Codable, Sendable {
    let revision: String
    let hasMore: Bool
    let bundleId: String
    let appAppleId: Int64?
    let environment: StoreEnvironment
    let signedTransactions: [String]
}

/// Get Refund History.
struct RefundHistoryResponse: Codable, Sendable {
    let signedTransactions: [String]
    let revision: String
    let hasMore: Bool
}

/// Get All Subscription Statuses.
struct StatusResponse: Codable, Sendable {
    struct Group: Codable, Sendable {
        let subscriptionGroupIdentifier: String
        let lastTransactions: [LastTransaction]
    }

    struct LastTransaction: Codable, Sendable {
        let status: Int
        let originalTransactionId: String
        let signedTransactionInfo: String
        let signedRenewalInfo: String
    }

    let environment: StoreEnvironment
    let bundleId: String
    let appAppleId: Int64?
    let data: [Group]
}

/// Look Up Order ID: status 0 with the order's transactions, or 1 when the order id is not valid.
struct OrderLookupResponse: Codable, Sendable {
    let status: Int
    let signedTransactions: [String]
}

/// Extend a Subscription Renewal Date's request and answer.
struct ExtendRenewalDateRequest: Codable, Sendable {
    let extendByDays: Int?
    let extendReasonCode: Int?
    let requestIdentifier: String?
}

struct ExtendRenewalDateResponse: Codable, Sendable {
    let originalTransactionId: String
    let webOrderLineItemId: String
    let success: Bool
    let effectiveDate: Int64
}

/// Set App Account Token's request.
struct UpdateAppAccountTokenRequest: Codable, Sendable {
    let appAccountToken: String?
}

/// Send Consumption Information (v2): the fields Apple checks.
struct ConsumptionRequest: Codable, Sendable {
    static let deliveryStatuses: Set<String> = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
        "UNDELIVERED_OTHER",
    ]
    static let grantProrated = "GRANT_PRORATED"
    static let refundPreferences: Set<String> = ["DECLINE", "GRANT_FULL", grantProrated]
    /// The consumption a prorated refund of a product other than an auto-renewable subscription
    /// is asked with, in milliunits: some of it was consumed, not all.
    static let proratedPercentages = 1..<100_000
    static let delivered = "DELIVERED"

    let customerConsented: Bool?
    let sampleContentProvided: Bool?
    let deliveryStatus: String?
    let consumptionPercentage: Int?
    let refundPreference: String?
}

/// `/admin/api-keys`: a key to register.
struct APIKeyRequest: Codable, Sendable {
    let issuerId: String
    let keyId: String
    /// A private key (`.p8`) or public key, PEM.
    let key: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case issuerId, keyId, key
    }
}

struct APIKeysResponse: Codable, Sendable {
    struct Key: Codable, Sendable {
        let issuerId: String
        let keyId: String
        let publicKey: String
    }

    let keys: [Key]
}

/// `/admin/consumption`: what servers sent with Send Consumption Information.
struct ConsumptionReportsResponse: Codable, Sendable {
    struct Report: Codable, Sendable {
        let transactionId: String
        let receivedDate: Int64
        /// The request as sent.
        let request: String
    }

    let reports: [Report]
}
