import AppSide
import Crypto
import Foundation
import LocalState
import SQLiteStore
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// The store refuses an offer (SKError 18) exactly when the eligibility rule says the account may
/// not take it, and a `.storekit` file's promotional offers are signed with the key it keeps.
@Suite struct OfferEligibilityStoreTests {
    static let product = "pro.monthly"

    /// A `.storekit` file with a promotional offer, two code offers (new subscribers, lapsed ones)
    /// and a win-back offer, and no Subscription Offers Key.
    static let storeKitFile = """
        {"identifier": "E1161B1E", "settings": {"_storefront": "USA"}, "products": [], "nonRenewingSubscriptions": [],
         "subscriptionGroups": [{"id": "G1", "name": "Pro", "localizations": [], "subscriptions": [{
           "productID": "pro.monthly", "referenceName": "Pro Monthly", "type": "RecurringSubscription",
           "displayPrice": "4.99", "familyShareable": false, "groupNumber": 1, "recurringSubscriptionPeriod": "P1M",
           "subscriptionGroupID": "G1", "introductoryOffer": null,
           "localizations": [{"locale": "en_US", "displayName": "Pro Monthly", "description": ""}],
           "adHocOffers": [{"offerID": "pro.promo", "referenceName": "Promo", "paymentMode": "payAsYouGo",
             "subscriptionPeriod": "P1M", "numberOfPeriods": 2, "displayPrice": "1.99"}],
           "codeOffers": [
             {"referenceName": "NEWBIE", "paymentMode": "free", "subscriptionPeriod": "P1M", "eligibility": ["new"]},
             {"referenceName": "COMEBACK", "paymentMode": "free", "subscriptionPeriod": "P1M",
              "eligibility": ["expired"]}],
           "winbackOffers": [{"offerID": "pro.winback", "referenceName": "Win back", "paymentMode": "free",
             "subscriptionPeriod": "P1M"}]}]}],
         "version": {"major": 4, "minor": 0}}
        """

    static func catalog() throws -> Catalog {
        try CatalogLoader.decode(Array(storeKitFile.utf8), source: "Test.storekit")
    }

    static func open(_ directory: URL, clock: ManualClock) throws -> SimulatedStore {
        try SimulatedStore(
            catalog: try catalog(),
            database: StoreDatabase(storage: SQLiteStorage.store(in: StateDirectory(url: directory))), clock: clock)
    }

    func buy(_ store: SimulatedStore, offer: PaymentOffer?, order: String = UUID().uuidString.lowercased())
        async throws -> Transaction
    {
        let updates = await store.updates()
        let started = try await store.add(
            Payment(productId: Self.product, applicationUsername: order, account: "tester", offer: offer))
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        { return update.transaction }
        throw StoreFailure("no outcome for \(started.id)")
    }

    /// Each offer of the file, as the app would send it (the promotional one signed with the store's key).
    func requests(_ store: SimulatedStore) async throws -> [(SubscriptionOffer, String?, () throws -> PaymentOffer)] {
        let catalog = try Self.catalog()
        let key = try await store.offersKey()
        let offers = catalog.product(id: Self.product)?.subscription?.offers ?? []
        return offers.map { offer in
            switch offer.kind {
            case .promotional:
                return (
                    offer, nil,
                    {
                        .promotional(
                            try PromotionalOfferSigner.sign(
                                offerId: offer.id, productId: Self.product, applicationUsername: "order",
                                catalog: catalog, key: key, at: store.clock.now()))
                    }
                )
            case .code: return (offer, offer.customCodes[0], { .code(offer.customCodes[0]) })
            case .winBack: return (offer, nil, { .winBack(offer.id) })
            }
        }
    }

    /// Never subscribed, subscribed now, and lapsed: for each, every offer is bought in a fresh
    /// store, and refused with SKError 18 exactly when the rule says so.
    @Test(arguments: ["never", "subscribed", "lapsed"])
    func theStoreRefusesExactlyWhatTheRuleSays(standing: String) async throws {
        let catalog = try Self.catalog()
        let probe = try Self.open(scratchDirectory("probe"), clock: ManualClock())
        for (index, request) in try await requests(probe).enumerated() {
            let clock = ManualClock()
            let store = try Self.open(scratchDirectory("offer-\(standing)-\(index)"), clock: clock)
            if standing != "never" {
                let first = try await buy(store, offer: nil)
                if standing == "lapsed" {
                    _ = try await store.perform(.expireSubscription(first.id))
                    clock.advance(by: 60)
                }
            }
            let history = try await store.offerHistory(account: "tester")
            let verdict = OfferEligibility.verdict(
                for: request.0, of: try #require(catalog.product(id: Self.product)), code: request.1,
                history: history, rate: .realTime, at: clock.now())
            let offer = try await requests(store)[index].2()
            let bought = try await buy(store, offer: offer, order: "order")
            let refused = bought.error == .storeKit(.ineligibleForOffer)
            #expect(
                refused == !verdict.isEligible,
                "\(standing) \(request.0.id): rule \(verdict), store \(String(describing: bought.error))")
            // Taken on the plan in force, an offer waits for the renewal: the payment completes as a copy.
            let completed: TransactionState = standing == "subscribed" ? .restored : .purchased
            if verdict.isEligible { #expect(bought.state == completed, "\(String(describing: bought.error))") }
        }
    }

    @Test func aStoreKitFilesPromotionalOfferIsSignedWithTheKeyTheStoreKeeps() async throws {
        let directory = scratchDirectory("storekit-promo")
        let clock = ManualClock()
        var store = try Self.open(directory, clock: clock)
        let key = try await store.offersKey()
        #expect(key.keyId.count == 10)
        let first = try await buy(store, offer: nil)
        _ = try await store.perform(.expireSubscription(first.id))
        // The key outlives the process: a store opened again signs and checks with the same one.
        store = try Self.open(directory, clock: clock)
        #expect(try await store.offersKey() == key)
        let offer = try await requests(store)[0].2()
        let bought = try await buy(store, offer: offer, order: "order")
        #expect(bought.state == .purchased, "\(String(describing: bought.error))")
        #expect(bought.terms?.offer?.type == .promotional)
        #expect(bought.terms?.price == Decimal(string: "1.99"))
    }

    @Test func aCatalogsOwnKeyIsTheOffersKey() async throws {
        let fixture = try StoreFixture()
        #expect(try await fixture.store.offersKey() == (try StoreFixture.catalog()).settings.offerSigningKey)
    }

    @Test func aCustomCodeStopsAtItsLimitAcrossAccounts() async throws {
        let text = try String(contentsOf: Self.repositoryFile("products.json"), encoding: .utf8)
            .replacingOccurrences(
                of: "\"customCodes\": [\n              \"STOREFRONT2026\"\n            ]",
                with: "\"customCodes\": [{\"code\": \"STOREFRONT2026\", \"limit\": 1}]")
        let catalog = try CatalogLoader.decode(Array(text.utf8), source: "products.json")
        let offer = try #require(
            catalog.product(id: StoreFixture.monthly)?.subscription?.offer(
                id: "com.example.storefront.premium.freemonth"))
        #expect(offer.customCodeLimits == ["STOREFRONT2026": 1])
        let store = try SimulatedStore(
            catalog: catalog,
            database: StoreDatabase(storage: SQLiteStorage.store(in: StateDirectory(url: scratchDirectory("limit")))),
            clock: ManualClock())
        func redeem(_ account: String) async throws -> Transaction {
            let updates = await store.updates()
            let started = try await store.add(
                Payment(productId: StoreFixture.monthly, account: account, offer: .code("STOREFRONT2026")))
            for await update in updates
            where update.transaction.id == started.id && update.transaction.state != .purchasing {
                return update.transaction
            }
            throw StoreFailure("no outcome")
        }
        #expect(try await redeem("alice").state == .purchased)
        #expect(try await redeem("kenji").error == .storeKit(.ineligibleForOffer))
        let history = try await store.offerHistory(account: "kenji")
        #expect(history.codeRedemptions == ["STOREFRONT2026": 1])
        #expect(
            OfferEligibility.verdict(
                for: offer, of: try #require(catalog.product(id: StoreFixture.monthly)), code: "STOREFRONT2026",
                history: history, rate: .realTime, at: Date()) == .ineligible(.codeLimitReached(1)))
    }

    static func repositoryFile(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(name)
    }
}

extension OfferEligibilityStoreTests {
    /// A `.storekit` file that carries Xcode's key: the store signs and checks with that one.
    @Test func aStoreKitFilesOwnKeyPairIsReadAsAP256Key() async throws {
        let der =
            "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgPtdgbMyq2wRp0sIpdlJq7UiryqOqQJC7ekBcqLybqGuhRANCAARkcoGjOlGQq15CPgnX7ilHVTIJXVTuI83DK9p4eq3NPOWHlZd1oy5bjXAte3NK/ZdooxCZc1X9Y+ikGwPyoeWT"
        let text = Self.storeKitFile.replacingOccurrences(
            of: "\"version\":",
            with: "\"subscriptionOffersKeyPair\": {\"id\": \"851B7BE3\", \"privateKey\": \"\(der)\"}, \"version\":")
        let catalog = try CatalogLoader.decode(Array(text.utf8), source: "Keyed.storekit")
        let key = try #require(catalog.settings.offerSigningKey)
        let parsed = try P256.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM)
        #expect(parsed.derRepresentation.base64EncodedString() == der)
        let store = try SimulatedStore(
            catalog: catalog,
            database: StoreDatabase(storage: SQLiteStorage.store(in: StateDirectory(url: scratchDirectory("keyed")))),
            clock: ManualClock())
        #expect(try await store.offersKey() == key)
    }
}
