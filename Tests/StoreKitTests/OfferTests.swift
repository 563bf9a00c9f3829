import AppSide
import Crypto
import Foundation
@_spi(Storefront) import StoreKit
import StoreKitTest
import StoreSigning
import Testing

extension StoreKitLibrary {
    /// Offers and billing plans as StoreKit 2's purchase options carry them, and as the signed
    /// transaction reports them.
    @Suite struct OfferTests {
        static let halfPrice = "com.example.storefront.premium.halfprice"

        @Test func theIntroductoryOfferIsTakenOnceAndSigned() async throws {
            _ = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            let intro = try #require(monthly.subscription?.introductoryOffer)
            #expect(intro.type == .introductory && intro.id == nil)
            #expect(intro.paymentMode == .freeTrial && intro.price == 0 && intro.periodCount == 1)
            #expect(intro.period.unit == .week && intro.period.value == 1)
            #expect(monthly.subscription?.promotionalOffers.map(\.id) == [Self.halfPrice])
            guard case .success(.verified(let transaction)) = try await monthly.purchase() else {
                Issue.record("expected a verified purchase")
                return
            }
            #expect(transaction.offer?.type == .introductory)
            #expect(transaction.offer?.paymentMode == .freeTrial)
            #expect(transaction.offer?.period == "P1W")
            #expect(transaction.price == 0)
            #expect(transaction.webOrderLineItemID != nil)
            #expect(transaction.appBundleID == "com.example.storefront.demo")
            #expect(!transaction.appTransactionID.isEmpty)
            #expect(transaction.originalPurchaseDate == transaction.purchaseDate)
            #expect(transaction.signedDate >= transaction.purchaseDate)
            #expect(await monthly.subscription?.isEligibleForIntroOffer == false)
        }

        @Test func aPromotionalOfferSignedByTheAppsServerIsApplied() async throws {
            let monthly = try await lapsedMonthly(try session())
            let store = try await StoreConnection.shared.store()
            let token = UUID()
            let discount = try PromotionalOfferSigner.sign(
                offerId: Self.halfPrice, productId: Products.monthly,
                applicationUsername: token.uuidString.lowercased(),
                catalog: store.catalog)
            let option = Product.PurchaseOption.promotionalOffer(
                offerID: discount.identifier, keyID: discount.keyIdentifier,
                nonce: try #require(UUID(uuidString: discount.nonce)),
                signature: try #require(Data(base64Encoded: discount.signature)), timestamp: Int(discount.timestamp))
            guard
                case .success(.verified(let transaction)) = try await monthly.purchase(options: [
                    option, .appAccountToken(token),
                ])
            else {
                Issue.record("expected the offer to apply")
                return
            }
            #expect(transaction.offer?.type == .promotional && transaction.offer?.id == Self.halfPrice)
            #expect(transaction.price == Decimal(string: "2.5"))
        }

        @Test func aPromotionalOfferSignedAsAJWSIsApplied() async throws {
            let monthly = try await lapsedMonthly(try session())
            let store = try await StoreConnection.shared.store()
            let offer = try #require(monthly.subscription?.promotionalOffers.first)
            let jws = try Self.compactJWS(
                ["aud": "promotional-offer", "offerIdentifier": Self.halfPrice], key: store)
            guard
                case .success(.verified(let transaction)) = try await monthly.purchase(options: [
                    .promotionalOffer(offer, compactJWS: jws)
                ])
            else {
                Issue.record("expected the offer to apply")
                return
            }
            #expect(transaction.offer?.id == Self.halfPrice)
            let wrong = try Self.compactJWS(
                ["aud": "promotional-offer", "offerIdentifier": "no.such.offer"], key: store)
            await #expect(throws: Product.PurchaseError.invalidOfferIdentifier) {
                _ = try await monthly.purchase(options: [.promotionalOffer(offer, compactJWS: wrong)])
            }
        }

        @Test func aWinBackOfferIsForThoseWhoseSubscriptionEnded() async throws {
            _ = try session()
            let fresh = try #require(try await Product.products(for: [Products.monthly]).first)
            let comeback = try #require(fresh.subscription?.winBackOffers.first)
            await #expect(throws: Product.PurchaseError.ineligibleForOffer) {
                _ = try await fresh.purchase(options: [.winBackOffer(comeback)])
            }
            let monthly = try await lapsedMonthly(try session())
            guard
                case .success(.verified(let transaction)) = try await monthly.purchase(options: [
                    .winBackOffer(comeback)
                ])
            else {
                Issue.record("expected the win-back offer to apply")
                return
            }
            #expect(transaction.offer?.type == .winBack && transaction.offer?.id == comeback.id)
            #expect(transaction.price == 0)
        }

        @Test func theAppServersEligibilityDecisionOverridesTheIntroductoryOffer() async throws {
            _ = try session()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            let store = try await StoreConnection.shared.store()
            let jws = try Self.compactJWS(
                ["aud": "introductory-offer-eligibility", "allowIntroductoryOffer": false, "transactionId": "0"],
                key: store)
            guard
                case .success(.verified(let transaction)) = try await monthly.purchase(options: [
                    .introductoryOfferEligibility(compactJWS: jws)
                ])
            else {
                Issue.record("expected a purchase")
                return
            }
            #expect(transaction.offer == nil)
            #expect(transaction.price == monthly.price)
        }

        @Test func aMonthlyBillingPlanStartsATwelveMonthCommitment() async throws {
            let session = try session()
            session.storefront = "FRA"
            let yearly = try #require(try await Product.products(for: [Products.yearly]).first)
            let terms = try #require(yearly.subscription?.pricingTerms)
            #expect(terms.map(\.billingPlanType) == [.upFront, .monthly])
            let monthlyTerms = try #require(terms.last)
            #expect(monthlyTerms.billingPrice == Decimal(string: "4.99"))
            #expect(monthlyTerms.commitmentInfo.price == Decimal(string: "59.88"))
            guard
                case .success(.verified(let transaction)) = try await yearly.purchase(options: [
                    .billingPlanType(.monthly)
                ])
            else {
                Issue.record("expected a purchase on the monthly plan")
                return
            }
            #expect(transaction.billingPlanType == .monthly)
            #expect(transaction.commitmentInfo?.billingPeriodNumber == 1)
            #expect(transaction.commitmentInfo?.totalBillingPeriods == 12)
            #expect(transaction.price == Decimal(string: "4.99"))
        }

        @Test func anUpgradeMarksTheReplacedTransaction() async throws {
            _ = try session()
            let products = try await Product.products(for: [Products.monthly, Products.plusMonthly])
            let monthly = try #require(products.first { $0.id == Products.monthly })
            let plus = try #require(products.first { $0.id == Products.plusMonthly })
            #expect(plus.subscription?.groupLevel == 1 && monthly.subscription?.groupLevel == 2)
            guard case .success(let first) = try await monthly.purchase(),
                case .success(let upgrade) = try await plus.purchase()
            else {
                Issue.record("expected both purchases")
                return
            }
            let all = await collect(Transaction.all).map(\.unsafePayloadValue)
            #expect(all.first { $0.id == first.unsafePayloadValue.id }?.isUpgraded == true)
            #expect(all.first { $0.id == upgrade.unsafePayloadValue.id }?.isUpgraded == false)
            let entitled = await collect(Transaction.currentEntitlements).map(\.unsafePayloadValue.productID)
            #expect(entitled == [Products.plusMonthly])
        }

        /// Alice had Premium Monthly with its free week, now expired: promotional offers apply.
        func lapsedMonthly(_ session: SKTestSession) async throws -> Product {
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            _ = try await monthly.purchase()
            try session.expireSubscription(productIdentifier: Products.monthly)
            return monthly
        }

        /// A compact JWS as Apple's signature creators make it, with the catalog's offers key.
        static func compactJWS(_ claims: [String: Any], key store: OpenedStore) throws -> String {
            let catalog = store.catalog
            let key = try #require(catalog.settings.offerSigningKey)
            var all: [String: Any] = [
                "bid": catalog.bundleId, "iss": "57246542-96fe-1a63-e053-0824d011072a",
                "iat": Int(Date().timeIntervalSince1970), "nonce": UUID().uuidString.lowercased(),
                "productId": Products.monthly,
            ]
            all.merge(claims) { _, new in new }
            let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": key.keyId, "typ": "JWT"])
            let input =
                "\(Base64URL.encode(header)).\(Base64URL.encode(try JSONSerialization.data(withJSONObject: all)))"
            let signature = try P256.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM)
                .signature(for: Data(input.utf8)).rawRepresentation
            return "\(input).\(Base64URL.encode(signature))"
        }
    }
}
