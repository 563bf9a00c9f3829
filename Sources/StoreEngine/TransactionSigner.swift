import Crypto
import Foundation
import StoreCore
import StoreKitModel
import StoreSigning

/// Signs transactions as StoreKit 2 does: a compact JWS, ES256 over P-256, whose payload uses
/// StoreKit 2's field names. The public key is served at `/.well-known/storefront-jws-key.pem`
/// and as a JWK set at `/.well-known/jwks.json`; `kid` in the header names it.
public struct TransactionSigner: Sendable {
    /// The store's key and the chain sent as `x5c`, so Apple's verifiers accept the JWS.
    let identity: SigningIdentity
    public let keyId: String
    /// Transaction JWS issued so far (`signOnce`).
    public let issued = IssuedSignatures()

    public init(identity: SigningIdentity) {
        self.identity = identity
        keyId = Base64URL.encode(Data(SHA256.hash(data: identity.key.publicKey.x963Representation)).prefix(16))
    }

    public var chain: SigningChain { identity.chain }
    var key: P256.Signing.PrivateKey { identity.key }

    public var publicKey: P256.Signing.PublicKey { key.publicKey }

    public var publicKeyPEM: String { key.publicKey.pemRepresentation + "\n" }

    /// `{"keys": [{"kty": "EC", "crv": "P-256", "x", "y", "alg": "ES256", "use": "sig", "kid"}]}`.
    public var jwks: JWKSet {
        let raw = key.publicKey.rawRepresentation  // x ‖ y, 32 bytes each
        return JWKSet(keys: [
            JWK(
                kty: "EC", crv: "P-256", x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)),
                alg: "ES256", use: "sig", kid: keyId)
        ])
    }

    /// The compact JWS of `payload`: base64url(header).base64url(payload).base64url(r ‖ s).
    public func sign(_ payload: some Encodable) -> String {
        let input = signingInput(payload)
        return input + "." + signature(input)
    }

    /// `sign`, but the same payload gets the same JWS, in this run and the next (`IssuedSignatures`).
    public func signOnce(_ payload: SignedTransactionPayload) -> String {
        let input = signingInput(payload)
        let digest = IssuedSignatures.digest(input)
        if let kept = issued.signature(for: digest) { return input + "." + kept }
        return input + "." + issued.remember(signature(input), for: digest)
    }

    private func signingInput(_ payload: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = JWSHeader(alg: "ES256", kid: keyId, typ: "JWT", x5c: chain.x5c)
        return Base64URL.encode((try? encoder.encode(header)) ?? Data()) + "."
            + Base64URL.encode((try? encoder.encode(payload)) ?? Data())
    }

    private func signature(_ signingInput: String) -> String {
        Base64URL.encode((try? key.signature(for: Data(signingInput.utf8)).rawRepresentation) ?? Data())
    }

    /// The StoreKit 2 payload of a transaction, from the store's details and the catalog.
    /// `appAccountToken`: one a server set on the chain (Set App Account Token), which replaces
    /// the one the app sent.
    public static func payload(
        for transaction: Transaction, details: TransactionDetails?, catalog: Catalog,
        environment: StoreEnvironment, signedAt: Date, appAccountToken: UUID? = nil
    ) -> SignedTransactionPayload {
        let product = catalog.product(id: transaction.productId)
        let storefront = details?.storefront ?? catalog.defaultStorefront
        let plan = billingPlan(of: product, terms: details?.terms)
        return SignedTransactionPayload(
            transactionId: transaction.id,
            originalTransactionId: transaction.originalId,
            bundleId: catalog.bundleId,
            productId: transaction.productId,
            subscriptionGroupIdentifier: product?.subscription?.group,
            purchaseDate: transaction.purchaseDate.epochMilliseconds,
            originalPurchaseDate: (details?.originalPurchaseDate ?? transaction.purchaseDate).epochMilliseconds,
            // Auto-renewable only: a non-renewing term is the app's (a store written by an
            // earlier version may still hold one).
            expiresDate: product?.type == .autoRenewable ? details?.expiresDate?.epochMilliseconds : nil,
            quantity: transaction.quantity,
            type: product.map { typeName($0.type) } ?? "Consumable",
            appAccountToken: accountToken(of: transaction, set: appAccountToken),
            inAppOwnershipType: (details?.ownership ?? .purchased).rawValue,
            signedDate: signedAt.epochMilliseconds,
            environment: environment,
            storefront: storefront,
            storefrontId: StorefrontRegistry.appleNumber(of: storefront),
            transactionReason: details?.reason == .renewal ? "RENEWAL" : "PURCHASE",
            revocationDate: details?.revocationDate?.epochMilliseconds,
            revocationReason: details?.revocationReason?.rawValue,
            revocationType: details?.terms.revocation.flatMap { revocationType($0, ownership: details?.ownership) },
            revocationPercentage: details?.terms.revocation.flatMap {
                details?.ownership.isCopy == true
                    ? nil : $0.percentage?.milliunits ?? RefundPercentage.fullMilliunits
            },
            isUpgraded: details?.upgrade.map { _ in true },
            webOrderLineItemId: product?.type == .autoRenewable ? webOrderLineItemId(transaction.id) : nil,
            appTransactionId: SimulatedStore.appTransactionId(
                bundleId: catalog.bundleId, account: transaction.payment.account),
            currency: details?.currency ?? "USD",
            price: milliunits(details?.price ?? 0),
            offerType: details?.offer.map { ServerOfferType($0.type) },
            offerIdentifier: details?.offer?.id,
            offerDiscountType: details?.offer.map { discountType($0.paymentMode) },
            offerPeriod: details?.offer?.period?.iso8601,
            billingPlanType: plan?.serverName,
            commitmentInfo: plan == .monthly ? details?.terms.commitment.map(SignedCommitmentInfo.init) : nil)
    }

    /// Apple's `revocationType`: a family member's copy is revoked with its purchase
    /// (`FAMILY_REVOKE`); a refund gives back all of it or a share (`REFUND_PRORATED`). Apple
    /// names no type for an assigned member's copy revoked with its purchase (nothing was
    /// refunded to the member, and it is no family revocation), so none is sent.
    package static func revocationType(_ revocation: Revocation, ownership: OwnershipType?) -> String? {
        if ownership == .assigned { return nil }
        if ownership == .familyShared { return "FAMILY_REVOKE" }
        return revocation.percentage == nil ? "REFUND_FULL" : "REFUND_PRORATED"
    }

    /// How an auto-renewable period was paid, as every one of its JWS says; nil for any other
    /// product. A period kept from before billing plans has none, and was paid up front.
    package static func billingPlan(of product: Product?, terms: TransactionTerms?) -> BillingPlanType? {
        guard product?.type == .autoRenewable else { return nil }
        return terms?.billingPlan ?? .upFront
    }

    /// The `appAccountToken` a payload carries: the one a server set on the chain, else the app's
    /// order id when it is a UUID (StoreKit 2's appAccountToken is one), lowercase.
    package static func accountToken(of transaction: Transaction, set: UUID?) -> String? {
        (set ?? transaction.payment.applicationUsername.flatMap(UUID.init(uuidString:)))?.uuidString.lowercased()
    }

    /// A price in milliunits of its currency (1.99 → 1990), as the App Store Server API sends prices.
    package static func milliunits(_ price: Decimal) -> Int64 {
        var scaled = price * 1000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .bankers)
        return NSDecimalNumber(decimal: rounded).int64Value
    }

    /// A subscription period's order line, as the receipt's `web_order_line_item_id` has it.
    package static func webOrderLineItemId(_ transactionId: String) -> String {
        String(ReceiptPayload.InApp.webOrderLineItemId(transactionId: transactionId) ?? 0)
    }

    /// The App Store Server API's `offerDiscountType`.
    package static func discountType(_ mode: IntroOffer.PaymentMode) -> String {
        switch mode {
        case .freeTrial: "FREE_TRIAL"
        case .payAsYouGo: "PAY_AS_YOU_GO"
        case .payUpFront: "PAY_UP_FRONT"
        // App Store Server API 1.18: "Added the ONE_TIME value to offerDiscountType to indicate
        // In-App Purchase offer codes."
        case .oneTime: "ONE_TIME"
        }
    }

    package static func typeName(_ type: ProductType) -> String {
        switch type {
        case .consumable: "Consumable"
        case .nonConsumable: "Non-Consumable"
        case .autoRenewable: "Auto-Renewable Subscription"
        case .nonRenewing: "Non-Renewing Subscription"
        }
    }
}

package struct JWSHeader: Codable {
    package let alg: String
    package let kid: String
    package let typ: String
    /// Leaf, intermediate, root: standard base64 DER (absent from a header the verifier reads
    /// that was not made here).
    package var x5c: [String]? = nil
}

/// StoreKit 2's `JWSTransactionDecodedPayload` field names; dates in epoch milliseconds, price in milliunits.
public struct SignedTransactionPayload: Codable, Sendable, Hashable {
    public let transactionId: String
    public let originalTransactionId: String
    public let bundleId: String
    public let productId: String
    public let subscriptionGroupIdentifier: String?
    public let purchaseDate: Int64
    public let originalPurchaseDate: Int64
    public let expiresDate: Int64?
    public let quantity: Int
    /// `Consumable`, `Non-Consumable`, `Auto-Renewable Subscription`, `Non-Renewing Subscription`.
    public let type: String
    /// The app's order id when it is a UUID (StoreKit 2's appAccountToken is one).
    public let appAccountToken: String?
    public let inAppOwnershipType: String
    public let signedDate: Int64
    public let environment: StoreEnvironment
    /// ISO 3166-1 alpha-3.
    public let storefront: String
    /// Apple's number for `storefront` (143441 for USA); absent for a storefront a catalog made up.
    public let storefrontId: String?
    /// `PURCHASE` or `RENEWAL`.
    public let transactionReason: String
    public let revocationDate: Int64?
    public let revocationReason: Int?
    /// With a revocation: `REFUND_FULL`, `REFUND_PRORATED`, or `FAMILY_REVOKE` for a family member's copy.
    public let revocationType: String?
    /// With a refund: how much of the transaction was refunded, in thousandths of a percent
    /// (100000 in full, 25500 for 25.5 %).
    public let revocationPercentage: Int?
    /// `true` on a subscription an upgrade replaced; absent otherwise, as Apple sends it.
    public let isUpgraded: Bool?
    /// Auto-renewable subscriptions only: the period's order line.
    public let webOrderLineItemId: String?
    /// One per app and account.
    public let appTransactionId: String
    public let currency: String
    /// What the transaction charged in milliunits of `currency`, its quantity included, as Apple
    /// signs it (3 × 0.99 → 2970); 0 for a free trial.
    public let price: Int64
    public let offerType: ServerOfferType?
    /// The offer's id (promotional, code, win-back); none for an introductory offer.
    public let offerIdentifier: String?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, or `ONE_TIME` for the offer code of a
    /// consumable, a non-consumable or a non-renewing subscription.
    public let offerDiscountType: String?
    /// One period of the offer, ISO 8601; none for a one-time offer.
    public let offerPeriod: String?
    /// Auto-renewable subscriptions only: `BILLED_UPFRONT` or `MONTHLY`.
    public let billingPlanType: String?
    /// A `MONTHLY` payment's place in its 12-month commitment.
    public let commitmentInfo: SignedCommitmentInfo?
}

/// Apple's `TransactionCommitmentInfo`: a monthly payment's place in its commitment, what the
/// whole commitment costs (milliunits; `price` stays this payment's) and when it ends (epoch ms).
public struct SignedCommitmentInfo: Codable, Sendable, Hashable {
    public let billingPeriodNumber: Int
    public let totalBillingPeriods: Int
    public let commitmentPrice: Int64
    public let commitmentExpiresDate: Int64

    init(_ commitment: TransactionCommitment) {
        billingPeriodNumber = commitment.billingPeriodNumber
        totalBillingPeriods = commitment.totalBillingPeriods
        commitmentPrice = TransactionSigner.milliunits(commitment.price)
        commitmentExpiresDate = commitment.expirationDate.epochMilliseconds
    }
}

/// Apple's `offerType` in a signed transaction or renewal info: the raw values are its numbers.
public enum ServerOfferType: Int, Sendable, Hashable, Codable {
    case introductory = 1
    case promotional = 2
    case offerCode = 3
    case winBack = 4

    public init(_ type: OfferType) {
        switch type {
        case .introductory: self = .introductory
        case .promotional: self = .promotional
        case .code: self = .offerCode
        case .winBack: self = .winBack
        }
    }
}

public struct JWK: Codable, Sendable, Hashable {
    public let kty: String
    public let crv: String
    public let x: String
    public let y: String
    public let alg: String
    public let use: String
    public let kid: String
}

public struct JWKSet: Codable, Sendable, Hashable {
    public let keys: [JWK]
}
