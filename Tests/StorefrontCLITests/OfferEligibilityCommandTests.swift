import Foundation
import Testing

/// `products --json --account` says which offers the account may take, `buy --offer` says why
/// the store refused one, and `offers key` hands out the key a `.storekit` file's promotional
/// offers are signed with.
@Suite struct OfferEligibilityCommandTests {
    static let promo = "com.example.storefront.premium.halfprice"

    /// Each offer of Premium Monthly as `products --json` gives it: type → (eligible, reason).
    func offers(_ state: StateDir, account: String = "alice") throws -> [String: (Bool?, String?)] {
        let object = try state.run(["products", "--json", "--account", account]).object()
        #expect(object["account"] as? String == account)
        let products = try #require(object["products"] as? [[String: Any]])
        let monthly = try #require(products.first { $0["id"] as? String == ProductID.monthly })
        let offers = try #require(monthly["offers"] as? [[String: Any]])
        for offer in offers where offer["eligible"] as? Bool == false {
            #expect((offer["ineligibleMessage"] as? String)?.isEmpty == false, "\(offer)")
        }
        return Dictionary(
            uniqueKeysWithValues: offers.map {
                ($0["type"] as? String ?? "?", ($0["eligible"] as? Bool, $0["ineligibleReason"] as? String))
            })
    }

    @Test func productsJSONSaysWhichOffersTheAccountMayTake() throws {
        let state = try StateDir()
        // A state directory with no store yet: a new account, and nothing is created to say so.
        var fresh = try offers(state)
        #expect(!FileManager.default.fileExists(atPath: state.storeDatabase))
        #expect(fresh["introductory"]! == (true, nil))
        #expect(fresh["promotional"]! == (false, "neverSubscribed"))
        #expect(fresh["code"]! == (true, nil))
        #expect(fresh["winBack"]! == (false, "neverSubscribed"))
        let trial = try state.buy(ProductID.monthly).transactionId()
        let subscribed = try offers(state)
        #expect(subscribed["introductory"]! == (false, "introOfferUsed"))
        #expect(subscribed["promotional"]! == (true, nil))
        #expect(subscribed["winBack"]! == (false, "subscribedNow"))
        try state.manage("expire", trial)
        let lapsed = try offers(state)
        #expect(lapsed["promotional"]! == (true, nil))
        #expect(lapsed["winBack"]! == (true, nil))
        // Another account of the same store has its own history.
        fresh = try offers(state, account: "kenji")
        #expect(fresh["winBack"]! == (false, "neverSubscribed"))
    }

    @Test func buyingAnIneligibleOfferSaysWhy() throws {
        let state = try StateDir()
        let json = try state.buy(ProductID.monthly, "--offer", Self.promo)
        #expect(json.status == 3, "\(json)")
        let step = try #require(json.steps("ineligible").first, "\(json)")
        #expect(step["reason"] as? String == "neverSubscribed")
        let text = try state.run(["buy", ProductID.monthly, "--offer", "com.example.storefront.premium.comeback"])
        #expect(text.status == 3, "\(text)")
        #expect(text.stdout.contains("SKErrorDomain 18 ineligibleForOffer"), "\(text)")
        #expect(text.stdout.contains("not eligible: the account has never subscribed in this group"), "\(text)")
    }

    @Test func offersKeyPrintsTheCatalogsKey() throws {
        let state = try StateDir()
        let object = try state.run(["offers", "key", "--json"]).object()
        #expect(object["keyId"] as? String == "DEMOKEY001")
        #expect(object["source"] as? String == "catalog")
        #expect((object["privateKey"] as? String)?.hasPrefix("-----BEGIN PRIVATE KEY-----") == true)
    }

    /// A `.storekit` file with a promotional offer and no Subscription Offers Key.
    static func storeKitFile(_ state: StateDir) throws -> String {
        let path = state.root.appendingPathComponent("Offers.storekit").path
        let text = """
            {"identifier": "0FFE25", "settings": {"_storefront": "USA"}, "products": [], "nonRenewingSubscriptions": [],
             "subscriptionGroups": [{"id": "G1", "name": "Pro", "localizations": [], "subscriptions": [{
               "productID": "pro.monthly", "referenceName": "Pro Monthly", "type": "RecurringSubscription",
               "displayPrice": "4.99", "familyShareable": false, "groupNumber": 1, "recurringSubscriptionPeriod": "P1M",
               "subscriptionGroupID": "G1", "introductoryOffer": null,
               "localizations": [{"locale": "en_US", "displayName": "Pro Monthly", "description": ""}],
               "adHocOffers": [{"offerID": "pro.promo", "referenceName": "Promo", "paymentMode": "payAsYouGo",
                 "subscriptionPeriod": "P1M", "numberOfPeriods": 2, "displayPrice": "1.99"}],
               "codeOffers": [], "winbackOffers": []}]}],
             "version": {"major": 4, "minor": 0}}
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aStoreKitFilesPromotionalOfferIsBoughtWithTheKeyTheStoreKeeps() throws {
        let state = try StateDir()
        let file = try Self.storeKitFile(state)
        let key = try state.run(["offers", "key", "--catalog", file])
        #expect(key.status == 0, "\(key)")
        let lines = key.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("key id: ") == true, "\(key)")
        #expect(lines.dropFirst().first == "-----BEGIN PRIVATE KEY-----", "\(key)")
        #expect(lines.last == "-----END PRIVATE KEY-----", "\(key)")
        // Made once: the same key every time.
        let again = try state.run(["offers", "key", "--json", "--catalog", file]).object()
        #expect(lines.first == "key id: \(again["keyId"] as? String ?? "?") (kept by the store)")
        #expect(again["source"] as? String == "store")
        let first = try state.buy("pro.monthly", "--catalog", file)
        try state.manage("expire", try first.transactionId(), "--catalog", file)
        let promo = try state.buy("pro.monthly", "--offer", "pro.promo", "--catalog", file)
        #expect(promo.status == 0, "\(promo)")
        let record = try #require(
            try state.transactions("--catalog", file).transaction(try promo.transactionId()))
        #expect(record.offerType == "promotional")
        #expect(record.price == "1.99")
    }

    /// An unknown offer code is SKError 11, whose text speaks of promotional offers: `buy` says
    /// what was wrong with the code.
    @Test func anUnknownCodeIsNamedAsACode() throws {
        let state = try StateDir()
        let bought = try state.run(["buy", ProductID.monthly, "--offer-code", "NOPE"])
        #expect(bought.status == 3)
        #expect(bought.stdout.contains("invalid code: the offer code NOPE is not a code of"), "\(bought.stdout)")
        let json = try state.buy(ProductID.monthly, "--offer-code", "NOPE2")
        #expect(json.steps("invalidCode").first?["code"] as? String == "NOPE2")
    }

    /// A code redeemed while subscribed waits for the renewal: the wallet says so until then.
    @Test func aCodeTakenWhileSubscribedShowsAsWaiting() throws {
        let state = try StateDir()
        try state.buy(ProductID.monthly).requireSuccess()
        try state.buy(ProductID.monthly, "--offer-code", "FREEMONTH01").requireSuccess()
        let wallet = try state.run(["wallet", "--json"]).object()
        let renewal = try #require(
            (wallet["subscriptions"] as? [[String: Any]])?.first?["renewal"] as? [String: Any])
        let offer = try #require(renewal["renewalOffer"] as? [String: Any], "\(renewal)")
        #expect(offer["offerType"] as? String == "code")
        #expect(offer["paymentMode"] as? String == "freeTrial")
        let text = try state.run(["wallet"]).stdout
        #expect(text.contains("the next renewal takes the code offer"), "\(text)")
    }
}
