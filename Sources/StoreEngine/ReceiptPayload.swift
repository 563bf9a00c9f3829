import Crypto
import Foundation
import StoreCore

/// What a receipt says: the app, the account, and the account's purchases that a receipt lists
/// (`Transaction.isListedInReceipt`). Written as Apple's ASN.1 receipt (`ReceiptPayload+ASN1`)
/// inside PKCS#7 signed by the store's leaf key, so a receipt changed or issued by another store
/// is refused (21003).
public struct ReceiptPayload: Sendable, Hashable {
    public struct InApp: Sendable, Hashable {
        public var quantity: Int
        public var productId: String
        public var transactionId: String
        public var originalTransactionId: String
        /// Receipt dates are RFC 3339 to the second, as Apple's are.
        public var purchaseDate: Date
        public var originalPurchaseDate: Date
        public var expiresDate: Date?
        public var cancellationDate: Date?
        /// Auto-renewable subscriptions only.
        public var webOrderLineItemId: Int64?
        /// Subscriptions only: nil for other products, as Apple leaves the fields out.
        public var isTrialPeriod: Bool?
        public var isInIntroOfferPeriod: Bool?
        public var promotionalOfferId: String?
    }

    /// The environment of the store that issued it.
    public var environment: StoreEnvironment
    public var bundleId: String
    public var appVersion = "1"
    public var originalAppVersion = "1.0"
    /// Storefront's own field: Apple's receipt belongs to a device's Apple ID and names none.
    public var account: String
    public var creationDate: Date
    /// Apple's device check: SHA-1 of the device identifier, `opaqueValue` and the bundle id's DER.
    public var opaqueValue: [UInt8] = []
    public var sha1Hash: [UInt8] = []
    public var inApp: [InApp]
}

extension ReceiptPayload {
    /// A receipt issued now to the simulated device of `account` (see `deviceIdentifier`).
    static func issued(environment: StoreEnvironment, bundleId: String, account: String, at now: Date, inApp: [InApp])
        -> ReceiptPayload
    {
        var payload = ReceiptPayload(
            environment: environment, bundleId: bundleId, account: account, creationDate: now, inApp: inApp)
        payload.opaqueValue = Array(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
        payload.sha1Hash = hash(
            device: deviceIdentifier(account: account), opaque: payload.opaqueValue, bundleId: bundleId)
        return payload
    }

    /// The `identifierForVendor` of the account's simulated device: the first 16 bytes of SHA-256
    /// of `storefront-device:` and the account name, so an app's on-device check can be tested.
    public static func deviceIdentifier(account: String) -> [UInt8] {
        Array(SHA256.hash(data: Data("storefront-device:\(account)".utf8)).prefix(16))
    }

    static func hash(device: [UInt8], opaque: [UInt8], bundleId: String) -> [UInt8] {
        Array(Insecure.SHA1.hash(data: device + opaque + ReceiptAttribute.utf8Value(bundleId)))
    }
}
