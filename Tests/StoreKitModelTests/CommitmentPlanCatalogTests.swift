import Foundation
import StoreKitModel
import Testing

/// `commitmentPlan`: a one-year subscription's monthly plan with a 12-month commitment, checked as
/// App Store Connect and Apple's availability have it.
@Suite struct CommitmentPlanCatalogTests {
    /// The sample's subscription made yearly, with `plan` as its commitment plan.
    static func yearly(_ plan: [String: Any], period: String = "P1Y") -> [UInt8] {
        SampleCatalog.mutatingSubscription(2) { subscription in
            subscription["period"] = period
            subscription["commitmentPlan"] = plan
        }
    }

    static func messages(_ bytes: [UInt8]) -> [String] {
        catalogError(bytes)?.problems.map { "\($0.path): \($0.message)" } ?? []
    }

    @Test func aPlanPricedInJapanDecodes() throws {
        let catalog = try CatalogLoader.decode(Self.yearly(["prices": ["JPN": "650"]]), source: "plan.json")
        let product = try #require(catalog.products.first { $0.subscription?.commitment != nil })
        #expect(product.billingPrice(.monthly, in: "JPN") == 650)
        #expect(product.billingPrice(.monthly, in: "USA") == nil)
        #expect(product.subscription?.billingPlans(in: "JPN") == [.upFront, .monthly])
        #expect(product.subscription?.billingPlans(in: "USA") == [.upFront])
        #expect(product.subscription?.commitment?.commitmentPrice(in: "JPN") == 7800)
        #expect(product.billingPlanProblem(.monthly, in: "USA")?.contains("United States or Singapore") == true)
        #expect(product.billingPlanProblem(.monthly, in: "JPN") == nil)
    }

    @Test func theUnitedStatesMayNotPriceIt() {
        let problems = Self.messages(Self.yearly(["prices": ["USA": "4.99", "JPN": "650"]]))
        #expect(
            problems.contains { $0.contains("commitmentPlan.prices.USA") && $0.contains("Singapore") }, "\(problems)")
    }

    @Test func onlyAOneYearSubscriptionHasIt() {
        let problems = Self.messages(Self.yearly(["prices": ["JPN": "650"]], period: "P1M"))
        #expect(problems.contains { $0.contains("only a one-year subscription") }, "\(problems)")
    }

    @Test func itsOffersRunInMonthlyPayments() {
        let problems = Self.messages(
            Self.yearly([
                "prices": ["JPN": "650"],
                "introOffer": ["paymentMode": "payUpFront", "period": "P3M", "prices": ["JPN": "1000"]],
            ]))
        #expect(problems.contains { $0.contains("introOffer.period") && $0.contains("P1M") }, "\(problems)")
        #expect(problems.contains { $0.contains("introOffer.paymentMode") }, "\(problems)")
    }

    @Test func itsOffersAreTheMonthlyPlans() throws {
        let catalog = try CatalogLoader.decode(
            Self.yearly([
                "prices": ["JPN": "650"],
                "introOffer": ["paymentMode": "freeTrial", "period": "P1M"],
                "offers": [
                    [
                        "id": "month-free", "type": "code", "paymentMode": "freeTrial", "period": "P1M",
                        "codes": ["MONTH1"],
                    ]
                ],
            ]), source: "plan.json")
        let subscription = try #require(catalog.products.first { $0.subscription?.commitment != nil }?.subscription)
        #expect(subscription.introOffer(for: .monthly)?.paymentMode == .freeTrial)
        #expect(subscription.offer(id: "month-free")?.billingPlan == .monthly)
        #expect(
            subscription.commitment?.commitmentPrice(in: "JPN", offer: subscription.introOffer(for: .monthly)) == 7150)
    }
}
