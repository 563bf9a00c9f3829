import Foundation
import StoreCore

/// `JWSAppTransactionDecodedPayload`: the account's purchase of the app itself, as Get App
/// Transaction Info signs it. Dates in epoch milliseconds. The device fields (`deviceVerification`
/// and its nonce) belong to one device's copy and are left out of a server's answer.
struct SignedAppTransactionPayload: Encodable, Sendable {
    let receiptType: StoreEnvironment
    let appAppleId: Int64?
    let bundleId: String
    let applicationVersion: String
    let versionExternalIdentifier: Int64
    let receiptCreationDate: Int64
    let requestDate: Int64
    let originalPurchaseDate: Int64
    let originalApplicationVersion: String
    let appTransactionId: String
    let originalPlatform: String
    /// Only for an app the account pre-ordered, as Apple leaves it out otherwise.
    let preorderDate: Int64?

    init(_ info: AppTransactionInfo, appAppleId: Int64?, at now: Date) {
        receiptType = info.environment
        self.appAppleId = appAppleId
        bundleId = info.bundleId
        applicationVersion = info.applicationVersion
        versionExternalIdentifier = 0
        receiptCreationDate = now.epochMilliseconds
        requestDate = now.epochMilliseconds
        originalPurchaseDate = info.originalPurchaseDate.epochMilliseconds
        originalApplicationVersion = info.originalApplicationVersion
        appTransactionId = info.appTransactionId
        originalPlatform = "iOS"
        preorderDate = info.preorderDate?.epochMilliseconds
    }
}

/// Get App Transaction Info's answer.
struct AppTransactionInfoResponse: Encodable, Sendable {
    let signedAppTransactionInfo: String
}
