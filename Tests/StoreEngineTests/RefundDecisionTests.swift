import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// A refund request waits for the App Store's decision unless refunds are approved at once, and
/// a chosen outcome can stay for every purchase: two test controls, kept with the store.
@Suite struct RefundDecisionTests {
    @Test func aRequestWaitsByDefaultAndIsGrantedAtOnceWithTheControlOn() async throws {
        let fixture = try StoreFixture.notifying()
        #expect(try await fixture.store.controls().autoApproveRefunds == false, "waits unless told")
        let gems = try await fixture.buy(StoreFixture.gems).transaction.id
        #expect(try await fixture.store.perform(.requestRefund(gems, reason: .unintendedPurchase)).isEmpty)
        let waiting = try await fixture.store.transactions(account: "alice").first { $0.id == gems }
        #expect(waiting?.terms?.revocation == nil, "nothing refunded until the App Store decides")

        try await fixture.setControls { $0.autoApproveRefunds = true }
        let ads = try await fixture.buy(StoreFixture.removeAds).transaction.id
        let updates = try await fixture.store.perform(.requestRefund(ads, reason: .fulfillmentIssue))
        #expect(updates.map(\.transaction.id) == [ads])
        let refunded = try await fixture.store.transactions(account: "alice").first { $0.id == ads }
        // An issue with receiving or using it is the app's (revocationReason 1).
        #expect(refunded?.terms?.revocation?.reason == .developerIssue)
        // Granted, the request is closed: nothing is left to decline.
        await #expect(throws: StoreFailure.self) { try await fixture.store.perform(.declineRefund(ads)) }
        // The waiting one is still decided by hand.
        _ = try await fixture.store.perform(.declineRefund(gems))
        #expect(
            try await fixture.told() == [
                "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "ONE_TIME_CHARGE", "REFUND", "REFUND_DECLINED",
            ])
    }

    @Test func theControlsSurviveAReopenAndParseAsTheCommandLineSpellsThem() async throws {
        let fixture = try StoreFixture()
        var controls = try await fixture.store.controls()
        try ControlSetting("auto-approve-refunds")!.apply("on", to: &controls, catalog: fixture.store.catalog)
        try ControlSetting("every-purchase")!.apply("on", to: &controls, catalog: fixture.store.catalog)
        try await fixture.store.setControls(controls)
        let read = try await fixture.store.controls()
        #expect(read.autoApproveRefunds && read.everyPurchase)
        #expect(ControlSetting("auto-approve-refunds")!.value(in: read) == "on")
        #expect(throws: ControlProblem.self) {
            try ControlSetting("every-purchase")!.apply("sometimes", to: &controls, catalog: fixture.store.catalog)
        }
    }

    @Test func anOutcomeForEveryPurchaseStaysUntilChanged() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls {
            $0.nextOutcome = .fail(.paymentNotAllowed)
            $0.everyPurchase = true
        }
        for _ in 0..<2 {
            let update = try await fixture.buy(StoreFixture.gems)
            #expect(update.transaction.error == .storeKit(.paymentNotAllowed))
        }
        try await fixture.setControls { $0.everyPurchase = false }
        #expect(try await fixture.buy(StoreFixture.gems).transaction.error == .storeKit(.paymentNotAllowed))
        #expect(try await fixture.buy(StoreFixture.gems).transaction.state == .purchased, "once, then success")
    }
}
