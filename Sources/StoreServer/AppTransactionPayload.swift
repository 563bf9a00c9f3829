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

    init(service: StoreService, account: String, firstSeen: Date, at now: Date) {
        receiptType = service.store.environment
        appAppleId = service.appAppleId
        bundleId = service.catalog.bundleId
        applicationVersion = StoreService.bundleVersion
        versionExternalIdentifier = 0
        receiptCreationDate = now.epochMilliseconds
        requestDate = now.epochMilliseconds
        originalPurchaseDate = firstSeen.epochMilliseconds
        originalApplicationVersion = StoreService.bundleVersion
        appTransactionId = TransactionSigner.appTransactionId(bundleId: service.catalog.bundleId, account: account)
        originalPlatform = "iOS"
    }
}

/// Get App Transaction Info's answer.
struct AppTransactionInfoResponse: Encodable, Sendable {
    let signedAppTransactionInfo: String
}
