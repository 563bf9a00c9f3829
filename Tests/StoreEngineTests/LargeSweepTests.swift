import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// A sweep with more due subscriptions than one write takes goes on write after write until every
/// one is renewed, once.
@Suite struct LargeSweepTests {
    @Test func aSweepOfMoreThanABatchRenewsEverySubscriptionOnce() async throws {
        let base = try StoreFixture.catalog()
        let count = 300  // more than SimulatedStore.renewalBatch (256)
        let accounts = (0..<count).map {
            Account(name: "subscriber\($0)", storefront: base.defaultStorefront, askToBuy: false, note: "")
        }
        let catalog = Catalog(
            bundleId: base.bundleId, languages: base.languages, defaultStorefront: base.defaultStorefront,
            storefronts: base.storefronts, accounts: accounts, subscriptionGroups: base.subscriptionGroups,
            products: base.products, settings: base.settings)
        let fixture = try StoreFixture(catalog: catalog)
        try await fixture.setControls { $0.timeRate = .monthlyRenewalEveryHour }
        for account in accounts {
            _ = try await fixture.store.add(Payment(productId: StoreFixture.plusMonthly, account: account.name))
        }
        fixture.clock.advance(by: 3_601)
        try await fixture.store.scheduler.runDue()
        let renewals = try await fixture.store.transactions(account: nil).filter {
            $0.terms?.isRenewal == true && $0.state == .purchased
        }
        #expect(renewals.count == count)
        #expect(Set(renewals.map(\.payment.account)).count == count)
        try await fixture.store.scheduler.runDue()  // nothing more is due
        #expect(
            try await fixture.store.transactions(account: nil).filter { $0.terms?.isRenewal == true }.count == count)
    }
}
