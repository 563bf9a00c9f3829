import Foundation
import StoreEngine
import StoreKitModel

/// StoreKit 2's `Transaction`: a purchase as the store signed it. Every field is read from the
/// JWS payload, so an app sees exactly what its server would verify.
public struct Transaction: Identifiable, Hashable, Sendable {
    public let id: UInt64
    public let originalID: UInt64
    public let webOrderLineItemID: String?
    public let productID: String
    public let subscriptionGroupID: String?
    public let appBundleID: String
    public let purchaseDate: Date
    public let originalPurchaseDate: Date
    public let expirationDate: Date?
    public let purchasedQuantity: Int
    public let isUpgraded: Bool
    public let ownershipType: OwnershipType
    public let signedDate: Date
    public let revocationDate: Date?
    public let revocationReason: RevocationReason?
    /// A full refund, a prorated one, or a family member's copy revoked with its purchase (iOS 26.4).
    public let revocationType: RevocationType?
    /// The share refunded, 0 to 100 (`40.5`); nil when not refunded or the refund was reversed.
    public let revocationPercentage: Decimal?
    public var revocationTypeStringRepresentation: String? { revocationType?.rawValue }
    public let productType: Product.ProductType
    public let appAccountToken: UUID?
    public let environment: AppStore.Environment
    public let reason: Reason
    public let storefront: Storefront
    /// What the transaction charged, its quantity included; 0 for a free trial.
    public let price: Decimal?
    public let currency: Locale.Currency?
    public let offer: Offer?
    public let appTransactionID: String
    /// Auto-renewable subscriptions: how the period was paid (iOS 26.4).
    public let billingPlanType: Product.SubscriptionInfo.BillingPlanType?
    /// A monthly payment's place in its 12-month commitment (iOS 26.4).
    public let commitmentInfo: CommitmentInfo?
    /// The JWS payload: the transaction's JSON as the store signed it.
    public let jsonRepresentation: Data
    let jws: String

    init?(jws: String, payload: Data) {
        guard let signed = try? JSONDecoder().decode(SignedTransactionPayload.self, from: payload),
            let id = UInt64(signed.transactionId), let originalID = UInt64(signed.originalTransactionId)
        else { return nil }
        self.id = id
        self.originalID = originalID
        webOrderLineItemID = signed.webOrderLineItemId
        productID = signed.productId
        subscriptionGroupID = signed.subscriptionGroupIdentifier
        appBundleID = signed.bundleId
        purchaseDate = Date(epochMilliseconds: signed.purchaseDate)
        originalPurchaseDate = Date(epochMilliseconds: signed.originalPurchaseDate)
        expirationDate = signed.expiresDate.map(Date.init(epochMilliseconds:))
        purchasedQuantity = signed.quantity
        isUpgraded = signed.isUpgraded ?? false
        ownershipType = OwnershipType(rawValue: signed.inAppOwnershipType)
        signedDate = Date(epochMilliseconds: signed.signedDate)
        revocationDate = signed.revocationDate.map(Date.init(epochMilliseconds:))
        revocationReason = signed.revocationReason.map(RevocationReason.init(rawValue:))
        revocationType = signed.revocationType.map(RevocationType.init(rawValue:))
        revocationPercentage = signed.revocationPercentage.map { Decimal($0) / 1000 }
        productType = Product.ProductType(signedName: signed.type)
        appAccountToken = signed.appAccountToken.flatMap(UUID.init(uuidString:))
        environment = AppStore.Environment(rawValue: signed.environment.rawValue)
        reason = signed.transactionReason == "RENEWAL" ? .renewal : .purchase
        storefront = Storefront(
            countryCode: signed.storefront, id: signed.storefrontId ?? signed.storefront, currency: signed.currency)
        price = Decimal(signed.price) / 1000
        currency = Locale.Currency(signed.currency)
        offer = signed.offerType.map { Offer(signed, type: $0) }
        appTransactionID = signed.appTransactionId
        billingPlanType = signed.billingPlanType.map {
            $0 == BillingPlanType.monthly.serverName ? .monthly : .upFront
        }
        commitmentInfo = signed.commitmentInfo.map(CommitmentInfo.init)
        jsonRepresentation = payload
        self.jws = jws
    }

    /// `index`: 0 the header, 1 the payload, 2 the signature, decoded.
    func jwsPart(_ index: Int) -> Data { SignedValue.part(index, of: jws) ?? Data() }

    public static func == (lhs: Transaction, rhs: Transaction) -> Bool { lhs.jws == rhs.jws }
    public func hash(into hasher: inout Hasher) { hasher.combine(jws) }

    /// Tells the store the app delivered the purchase: the transaction leaves `unfinished` and
    /// `updates` no longer offers it.
    public func finish() async {
        guard let store = try? await StoreKitCall.store() else { return }
        try? await store.backend.finish(transactionId: String(id), account: store.account.name)
    }
}

typealias BillingPlanType = StoreKitModel.BillingPlanType
