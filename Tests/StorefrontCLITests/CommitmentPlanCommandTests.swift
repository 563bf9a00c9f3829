import Foundation
import Testing

/// Premium Yearly's monthly plan with a 12-month commitment, from the command line: chosen with
/// `buy --billing-plan`, listed by `products --json`, shown by `transactions` and `wallet`.
@Suite struct CommitmentPlanCommandTests {
    static let yearly = "com.example.storefront.premium.yearly"

    @Test func productsListBothPricingTermsWhereThePlanIsOffered() throws {
        let state = try StateDir()
        let products = try state.run(["products", "--json", "--storefront", "DEU"]).object()
        let items = try #require(products["products"] as? [[String: Any]])
        let yearly = try #require(items.first { $0["id"] as? String == Self.yearly })
        let terms = try #require(yearly["pricingTerms"] as? [[String: Any]])
        #expect(terms.map { $0["billingPlanType"] as? String } == ["upFront", "monthly"])
        #expect(terms[0]["price"] as? String == "59.99" && terms[0]["billingPeriod"] as? String == "P1Y")
        #expect(terms[1]["price"] as? String == "4.99" && terms[1]["billingPeriod"] as? String == "P1M")
        #expect(terms[1]["commitmentPrice"] as? String == "59.88")
        #expect(terms[1]["totalBillingPeriods"] as? Int == 12)
        #expect(terms[0]["commitmentPrice"] == nil)
        let monthly = try #require(items.first { $0["id"] as? String == ProductID.monthly })
        #expect((monthly["pricingTerms"] as? [[String: Any]])?.count == 1, "a monthly product has one plan")
        let usa = try state.run(["products", "--json", "--storefront", "USA"]).object()
        let usaYearly = try #require(
            (usa["products"] as? [[String: Any]])?.first { $0["id"] as? String == Self.yearly })
        #expect(
            (usaYearly["pricingTerms"] as? [[String: Any]])?.map { $0["billingPlanType"] as? String } == ["upFront"],
            "Apple does not offer the plan in the United States")
    }

    @Test func buyingTheMonthlyPlanShowsTheCommitmentEverywhere() throws {
        let state = try StateDir()
        let bought = try state.buy(Self.yearly, "--account", "lena", "--billing-plan", "monthly")
        try bought.requireSuccess()
        let history = try state.run(["transactions", "--json", "--account", "lena"]).object()
        let first = try #require((history["history"] as? [[String: Any]])?.first)
        #expect(first["billingPlanType"] as? String == "monthly")
        #expect(first["price"] as? String == "4.99")
        let commitment = try #require(first["commitmentInfo"] as? [String: Any])
        #expect(commitment["billingPeriodNumber"] as? Int == 1)
        #expect(commitment["totalBillingPeriods"] as? Int == 12)
        #expect(commitment["commitmentPrice"] as? String == "59.88")
        let id = try #require(first["transactionId"] as? String)
        try state.manage("renew", id, "--account", "lena")
        try state.manage("renew", id, "--account", "lena")
        try state.manage("auto-renew", "off", id, "--account", "lena")
        let wallet = try state.run(["wallet", "--json", "--account", "lena"]).object()
        let subscription = try #require((wallet["subscriptions"] as? [[String: Any]])?.first)
        #expect(subscription["billingPlanType"] as? String == "monthly")
        #expect((subscription["commitment"] as? [String: Any])?["progress"] as? String == "payment 3 of 12")
        let renewal = try #require(subscription["renewal"] as? [String: Any])
        #expect(renewal["willAutoRenew"] as? Bool == true, "the months left are billed")
        #expect((renewal["commitmentInfo"] as? [String: Any])?["willAutoRenew"] as? Bool == false)
        let text = try state.run(["wallet", "--account", "lena"]).stdout
        #expect(text.contains("payment 3 of 12"), "\(text)")
        #expect(text.contains("not renewed: payments go on until then"), "\(text)")
    }

    @Test func thePlanIsRefusedWhereItIsNotOffered() throws {
        let state = try StateDir()
        let usa = try state.run(["buy", Self.yearly, "--billing-plan", "monthly"])
        #expect(usa.status == 2)
        #expect(usa.stderr.contains("does not offer monthly plans with a 12-month commitment in USA"), "\(usa.stderr)")
        let monthly = try state.run(["buy", ProductID.monthly, "--account", "lena", "--billing-plan", "monthly"])
        #expect(monthly.status == 2 && monthly.stderr.contains("has no monthly plan"), "\(monthly.stderr)")
        let typo = try state.run(["buy", Self.yearly, "--billing-plan", "yearly"])
        #expect(typo.status == 2 && typo.stderr.contains("expected upFront or monthly"), "\(typo.stderr)")
        #expect(try state.transactions().history.isEmpty, "nothing was bought")
    }
}
