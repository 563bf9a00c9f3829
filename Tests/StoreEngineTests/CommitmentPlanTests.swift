import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Premium Yearly's monthly plan with a 12-month commitment, bought by lena in Germany: twelve
/// monthly payments, each its own period; cancelling stops the next commitment, not the months
/// left in this one.
@Suite struct CommitmentPlanTests {
    static let month = CommitmentPlan.billingPeriod

    func subscribe(_ fixture: StoreFixture) async throws -> Transaction {
        let update = try await fixture.buy(StoreFixture.yearly, account: "lena", plan: .monthly)
        #expect(update.transaction.state == .purchased)
        return update.transaction
    }

    /// Moves the clock past the period of `latest` and renews: the payment that follows, if any.
    func nextPayment(_ fixture: StoreFixture, after latest: Transaction) async throws -> Transaction? {
        let expiry = try #require(latest.terms?.expirationDate)
        fixture.clock.advance(by: expiry.timeIntervalSince(fixture.clock.now()) + 1)
        try await fixture.store.scheduler.runDue()
        let newest = try await fixture.store.transactions(account: "lena").first
        return newest?.id == latest.id ? nil : newest
    }

    @Test func theFirstPaymentIsAMonthOfTwelve() async throws {
        let fixture = try StoreFixture()
        let first = try await subscribe(fixture)
        let terms = try #require(first.terms)
        #expect(terms.price == Decimal(string: "4.99"))
        #expect(terms.currency == "EUR")
        #expect(terms.billingPlan == .monthly)
        let commitment = try #require(terms.commitment)
        #expect(commitment.billingPeriodNumber == 1)
        #expect(commitment.totalBillingPeriods == 12)
        #expect(commitment.price == Decimal(string: "59.88"))
        let rate = TimeRate.realTime
        #expect(terms.expirationDate == rate.end(of: Self.month, from: first.purchaseDate))
        #expect(commitment.expirationDate == rate.end(of: Self.month, periods: 12, from: first.purchaseDate))
        let renewal = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.willAutoRenew)
        #expect(renewal.renewalBillingPlan == .monthly)
        #expect(renewal.commitment?.willAutoRenew == true)
        #expect(renewal.commitment?.renewalDate == commitment.expirationDate)
        #expect(renewal.commitment?.renewalPrice == Decimal(string: "4.99"))
    }

    @Test func theUpFrontPlanSaysSo() async throws {
        let fixture = try StoreFixture()
        let bought = try await fixture.buy(StoreFixture.yearly, account: "lena").transaction
        #expect(bought.terms?.billingPlan == .upFront)
        #expect(bought.terms?.commitment == nil)
        let renewal = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.renewalBillingPlan == .upFront)
        #expect(renewal.commitment == nil)
    }

    @Test func theUnitedStatesIsNotOfferedThePlan() async throws {
        let fixture = try StoreFixture()
        let update = try await fixture.buy(StoreFixture.yearly, account: "alice", plan: .monthly)
        #expect(update.transaction.state == .failed)
        #expect(update.transaction.error == .storeKit(.storeProductNotAvailable))
        let monthly = try await fixture.buy(StoreFixture.monthly, account: "lena", plan: .monthly)
        #expect(monthly.transaction.error == .storeKit(.storeProductNotAvailable), "only a yearly product has it")
    }

    @Test func cancellingAtPaymentThreeBillsTheRestThenExpires() async throws {
        let fixture = try StoreFixture.notifying()
        var latest = try await subscribe(fixture)
        try await fixture.store.scheduler.runDue()  // expiries are told from here on
        let original = latest.id
        latest = try #require(try await nextPayment(fixture, after: latest))
        latest = try #require(try await nextPayment(fixture, after: latest))
        #expect(latest.terms?.commitment?.billingPeriodNumber == 3)
        _ = try await fixture.store.perform(.setAutoRenew(latest.id, false))
        let renewal = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.willAutoRenew, "the months left are billed")
        #expect(renewal.commitment?.willAutoRenew == false)
        for number in 4...12 {
            latest = try #require(try await nextPayment(fixture, after: latest), "payment \(number)")
            #expect(latest.terms?.commitment?.billingPeriodNumber == number)
            #expect(latest.originalId == original)
            #expect(latest.terms?.price == Decimal(string: "4.99"))
        }
        let commitmentEnd = try #require(latest.terms?.commitment?.expirationDate)
        #expect(latest.terms?.expirationDate == commitmentEnd, "the last month ends with the commitment")
        let last = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(!last.willAutoRenew)
        #expect(try await nextPayment(fixture, after: latest) == nil)
        try await fixture.store.scheduler.runDue()
        let told = try await fixture.told()
        #expect(told.filter { $0 == "DID_RENEW" }.count == 11)
        #expect(told.contains("DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED"))
        #expect(told.last == "EXPIRED/VOLUNTARY")
        #expect(try await fixture.store.entitlements(account: "lena").first?.isActive(at: fixture.clock.now()) == false)
    }

    @Test func aCancelledCommitmentCaughtUpInOneSweepEndsWithIt() async throws {
        let fixture = try StoreFixture.notifying()
        let first = try await subscribe(fixture)
        try await fixture.store.scheduler.runDue()  // expiries are told from here on
        _ = try await fixture.store.perform(.setAutoRenew(first.id, false))
        // A command opening the store a year later renews every month due in one sweep.
        let end = try #require(first.terms?.commitment?.expirationDate)
        fixture.clock.advance(by: end.timeIntervalSince(fixture.clock.now()) + 90 * 86_400)
        try await fixture.store.scheduler.runDue()
        let payments = try await fixture.store.transactions(account: "lena")
        #expect(payments.count == 12, "no payment after the commitment's twelfth")
        #expect(payments.compactMap { $0.terms?.commitment?.billingPeriodNumber } == Array((1...12).reversed()))
        #expect(payments.first?.terms?.expirationDate == end)
        let renewal = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(!renewal.willAutoRenew)
        #expect(try await fixture.told().filter { $0 == "DID_RENEW" }.count == 11)
    }

    @Test func aCommitmentLeftOnStartsAnother() async throws {
        let fixture = try StoreFixture()
        var latest = try await subscribe(fixture)
        for _ in 2...12 { latest = try #require(try await nextPayment(fixture, after: latest)) }
        let end = try #require(latest.terms?.commitment?.expirationDate)
        let next = try #require(try await nextPayment(fixture, after: latest))
        #expect(next.terms?.commitment?.billingPeriodNumber == 1)
        #expect(next.purchaseDate == end)
        #expect(
            next.terms?.commitment?.expirationDate
                == TimeRate.realTime.end(of: Self.month, periods: 12, from: end))
    }

    @Test func billingRetryHasNoGraceAndMovesTheCommitmentEnd() async throws {
        let fixture = try StoreFixture.notifying()
        try await fixture.setControls { $0.gracePeriod = true }
        let first = try await subscribe(fixture)
        try await fixture.setControls { $0.billingIssues = true }
        #expect(try await nextPayment(fixture, after: first) == nil)
        let retrying = try #require(try await fixture.store.entitlements(account: "lena").first)
        #expect(retrying.renewal?.isInBillingRetry == true)
        #expect(retrying.renewal?.gracePeriodExpirationDate == nil, "no grace period on the monthly plan")
        #expect(try await fixture.told().last == "DID_FAIL_TO_RENEW")
        try await fixture.setControls { $0.billingIssues = false }
        fixture.clock.advance(by: 5 * 86_400)
        let updates = try await fixture.store.perform(.resolveIssue(first.id))
        let recovered = try #require(updates.last?.transaction)
        #expect(recovered.terms?.commitment?.billingPeriodNumber == 2)
        let moved = try #require(first.terms?.commitment?.expirationDate).addingTimeInterval(
            fixture.clock.now().timeIntervalSince(try #require(first.terms?.expirationDate)))
        #expect(recovered.terms?.commitment?.expirationDate == moved)
        #expect(try await fixture.told().last == "DID_RENEW/BILLING_RECOVERY")
    }

    @Test func anExtensionMovesTheCommitmentsEnd() async throws {
        let fixture = try StoreFixture()
        let first = try await subscribe(fixture)
        let extended = try await fixture.store.serverAPI.extendRenewal(
            originalTransactionId: first.id, days: 10, reason: 0, requestIdentifier: UUID().uuidString)
        guard case .success(let result)? = extended else {
            Issue.record("refused: \(extended)")
            return
        }
        let moved = result.newExpiresDate.timeIntervalSince(try #require(first.terms?.expirationDate))
        let latest = try #require(try await fixture.store.transactions(account: "lena").first)
        #expect(
            latest.terms?.commitment?.expirationDate
                == first.terms?.commitment?.expirationDate.addingTimeInterval(moved))
    }

    @Test func billingRetryLastsNinetyDays() {
        #expect(TimeRate.realTime.commitmentBillingRetryPeriod == 90 * 86_400)
        #expect(TimeRate.realTime.billingRetryPeriod == 60 * 86_400)
    }

    @Test func aDowngradeWaitsForTheCommitmentsEnd() async throws {
        let fixture = try StoreFixture()
        var latest = try await subscribe(fixture)
        let down = try await fixture.buy(StoreFixture.monthly, account: "lena")
        #expect(down.transaction.terms?.price == 0)
        let renewal = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.autoRenewProductId == StoreFixture.yearly, "the next payment is the plan's")
        #expect(renewal.commitment?.autoRenewProductId == StoreFixture.monthly)
        #expect(renewal.commitment?.renewalBillingPlan == .upFront)
        for _ in 2...12 {
            latest = try #require(try await nextPayment(fixture, after: latest))
            #expect(latest.productId == StoreFixture.yearly)
        }
        let after = try #require(try await nextPayment(fixture, after: latest))
        #expect(after.productId == StoreFixture.monthly)
        #expect(after.terms?.billingPlan == .upFront)
        #expect(after.terms?.commitment == nil)
    }

    @Test func switchingToUpFrontWaitsForTheCommitmentsEnd() async throws {
        let fixture = try StoreFixture()
        var latest = try await subscribe(fixture)
        let switched = try await fixture.buy(StoreFixture.yearly, account: "lena", plan: .upFront)
        #expect(switched.transaction.terms?.price == 0)
        let renewal = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.renewalBillingPlan == .monthly)
        #expect(renewal.commitment?.renewalBillingPlan == .upFront)
        #expect(renewal.commitment?.renewalPrice == Decimal(string: "59.99"))
        for _ in 2...12 { latest = try #require(try await nextPayment(fixture, after: latest)) }
        let after = try #require(try await nextPayment(fixture, after: latest))
        #expect(after.terms?.billingPlan == .upFront)
        #expect(after.terms?.price == Decimal(string: "59.99"))
        #expect(
            after.terms?.expirationDate
                == TimeRate.realTime.end(of: SubscriptionPeriod(value: 1, unit: .year), from: after.purchaseDate))
    }

    @Test func buyingThePlanInForceAgainCallsASwitchOff() async throws {
        let fixture = try StoreFixture.notifying()
        _ = try await subscribe(fixture)
        _ = try await fixture.buy(StoreFixture.yearly, account: "lena", plan: .upFront)
        _ = try await fixture.buy(StoreFixture.yearly, account: "lena", plan: .monthly)
        let renewal = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.commitment?.renewalBillingPlan == .monthly)
        #expect(renewal.commitment?.autoRenewProductId == StoreFixture.yearly)
        #expect(
            try await fixture.told() == [
                "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE", "DID_CHANGE_RENEWAL_PREF",
            ])
    }

    @Test func anUpFrontSubscriberMaySwitchToMonthlyAtRenewal() async throws {
        let fixture = try StoreFixture()
        let yearly = try await fixture.buy(StoreFixture.yearly, account: "lena").transaction
        _ = try await fixture.buy(StoreFixture.yearly, account: "lena", plan: .monthly)
        let renewal = try #require(try await fixture.store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.renewalBillingPlan == .monthly)
        let next = try #require(try await nextPayment(fixture, after: yearly))
        #expect(next.terms?.billingPlan == .monthly)
        #expect(next.terms?.commitment?.billingPeriodNumber == 1)
        #expect(next.terms?.price == Decimal(string: "4.99"))
    }

    @Test func aPriceIncreaseAppliesFromTheNextCommitment() async throws {
        let fixture = try StoreFixture()
        var latest = try await subscribe(fixture)
        let raised = try #require(Decimal(string: "5.49"))
        _ = try await fixture.store.perform(
            .priceIncrease(latest.id, .request, PriceIncreaseTerms(price: raised, needsConsent: false)))
        for _ in 2...12 {
            latest = try #require(try await nextPayment(fixture, after: latest))
            #expect(latest.terms?.price == Decimal(string: "4.99"))
        }
        let next = try #require(try await nextPayment(fixture, after: latest))
        #expect(next.terms?.price == raised)
        #expect(next.terms?.commitment?.price == raised * 12)
    }

    @Test func refundingAnEarlierMonthKeepsTheCommitmentAndTheCurrentOneEndsIt() async throws {
        let fixture = try StoreFixture()
        let first = try await subscribe(fixture)
        let second = try #require(try await nextPayment(fixture, after: first))
        _ = try await fixture.store.perform(.refund(first.id))
        let third = try #require(try await nextPayment(fixture, after: second))
        #expect(third.terms?.commitment?.billingPeriodNumber == 3)
        _ = try await fixture.store.perform(.refund(third.id))
        let now = fixture.clock.now()
        #expect(try await fixture.store.entitlements(account: "lena").allSatisfy { !$0.isActive(at: now) })
        #expect(try await nextPayment(fixture, after: third) == nil)
    }

    @Test func aRefundOfTheMonthInForceEndsTheCommitmentInRenewalInfo() async throws {
        let fixture = try StoreFixture()
        let first = try await subscribe(fixture)
        _ = try await fixture.store.perform(.refund(first.id))
        let status = try #require(try await fixture.store.serverAPI.subscriptionStatus(originalTransactionId: first.id))
        #expect(status.status == .revoked)
        #expect(status.renewal.commitment == nil, "no commitment runs once its month in force is refunded")
        #expect(status.renewalPrice == Decimal(string: "4.99"), "Apple reports the renewal price all the same")
    }

    @Test func billingRetryGivenUpEndsTheCommitmentInRenewalInfo() async throws {
        let fixture = try StoreFixture()
        let first = try await subscribe(fixture)
        try await fixture.setControls { $0.billingIssues = true }
        #expect(try await nextPayment(fixture, after: first) == nil)
        let retrying = try #require(
            try await fixture.store.serverAPI.subscriptionStatus(originalTransactionId: first.id))
        #expect(retrying.renewal.commitment != nil, "the commitment goes on while billing is retried")
        fixture.clock.advance(by: 91 * 86_400)
        try await fixture.store.scheduler.runDue()
        let ended = try #require(try await fixture.store.serverAPI.subscriptionStatus(originalTransactionId: first.id))
        #expect(ended.status == .expired)
        #expect(ended.renewal.expirationReason == .billingError)
        #expect(ended.renewal.commitment == nil)
    }

    @Test func anUpgradeEndsTheCommitmentAtOnce() async throws {
        let fixture = try StoreFixture()
        let first = try await subscribe(fixture)
        fixture.clock.advance(by: 86_400)
        let plus = try await fixture.buy(StoreFixture.plusMonthly, account: "lena")
        #expect(plus.transaction.terms?.billingPlan == .upFront)
        let history = try await fixture.store.transactions(account: "lena")
        let upgraded = try #require(history.first { $0.id == first.id })
        #expect(upgraded.terms?.upgrade != nil)
        let entitlements = try await fixture.store.entitlements(account: "lena")
        #expect(entitlements.map(\.productId) == [StoreFixture.plusMonthly])
    }

    @Test func acceleratedPaymentsFollowTheTimeRate() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .monthlyRenewalEvery30Seconds }
        let first = try await subscribe(fixture)
        let expiry = try #require(first.terms?.expirationDate)
        #expect(expiry.timeIntervalSince(first.purchaseDate) == 30)
        #expect(try #require(first.terms?.commitment?.expirationDate).timeIntervalSince(first.purchaseDate) == 360)
    }
}

/// The monthly plan's own introductory offer: two free months that are the commitment's first
/// two payments, then the monthly price.
@Suite struct CommitmentPlanOfferTests {
    static func catalog() throws -> Catalog {
        let text = try Data(contentsOf: StoreFixture.repositoryRoot.appendingPathComponent("products.json"))
        guard var root = try JSONSerialization.jsonObject(with: text) as? [String: Any],
            var products = root["products"] as? [[String: Any]],
            let index = products.firstIndex(where: { $0["id"] as? String == StoreFixture.yearly }),
            var subscription = products[index]["subscription"] as? [String: Any],
            var plan = subscription["commitmentPlan"] as? [String: Any]
        else { throw CocoaError(.fileReadCorruptFile) }
        plan["introOffer"] = ["paymentMode": "freeTrial", "period": "P1M", "periods": 2]
        subscription["commitmentPlan"] = plan
        products[index]["subscription"] = subscription
        root["products"] = products
        return try CatalogLoader.decode(
            Array(try JSONSerialization.data(withJSONObject: root)), source: "products+trial.json")
    }

    @Test func aFreeTrialsMonthsArePaymentsOfTheCommitment() async throws {
        let fixture = try StoreFixture(catalog: Self.catalog())
        let first = try await fixture.buy(StoreFixture.yearly, account: "lena", plan: .monthly).transaction
        #expect(first.terms?.price == 0)
        #expect(first.terms?.offer?.type == .introductory)
        #expect(first.terms?.commitment?.price == Decimal(string: "49.9"), "ten paid months of 4.99")
        var prices: [Decimal] = [first.terms?.price ?? -1]
        var latest = first
        for _ in 2...4 {
            let expiry = try #require(latest.terms?.expirationDate)
            fixture.clock.advance(by: expiry.timeIntervalSince(fixture.clock.now()) + 1)
            try await fixture.store.scheduler.runDue()
            latest = try #require(try await fixture.store.transactions(account: "lena").first)
            prices.append(latest.terms?.price ?? -1)
        }
        #expect(prices == [0, 0, Decimal(string: "4.99"), Decimal(string: "4.99")].map { $0 ?? -1 })
        #expect(latest.terms?.commitment?.billingPeriodNumber == 4)
        // The up-front plan's introductory offer is not the monthly plan's: it stays spent.
        let upFront = try await fixture.buy(StoreFixture.yearly, account: "chloe").transaction
        #expect(upFront.terms?.offer?.type == .introductory, "chloe never subscribed")
    }
}
