import Foundation
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

@testable import StoreServer

/// Renewal info as Apple signs it for a subscription that will not renew or has expired:
/// `renewalDate` ("always present … even for expired subscriptions") and `renewalPrice` stay,
/// and `expirationIntent` waits for the expiry.
@Suite struct RenewalInfoPayloadTests {
    func renewalInfo(_ fixture: ServerFixture) async throws -> SignedRenewalInfoPayload {
        let status = try #require(try await fixture.service.serverAPI.subscriptionStatuses(account: "alice").first)
        return SignedRenewalInfoPayload(
            status, catalog: fixture.service.catalog, environment: .sandbox, signedAt: fixture.clock.now())
    }

    @Test func aDeclinedPriceIncreaseSaysNothingOfExpiryUntilThePeriodEnds() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.monthly).transaction
        let expiry = try #require(bought.terms?.expirationDate)
        _ = try await fixture.service.store.perform(.priceIncrease(bought.id, .request, nil))
        _ = try await fixture.service.store.perform(.priceIncrease(bought.id, .decline, nil))
        let inForce = try await renewalInfo(fixture)
        #expect(inForce.autoRenewStatus == 0)
        #expect(inForce.expirationIntent == nil, "still in force")
        #expect(inForce.renewalDate == expiry.epochMilliseconds)
        #expect(inForce.renewalPrice != nil)
        fixture.clock.advance(by: expiry.timeIntervalSince(fixture.clock.now()) + 1)
        let expired = try await renewalInfo(fixture)
        #expect(expired.expirationIntent == 3)
        #expect(expired.renewalDate == expiry.epochMilliseconds, "present, in the past")
        #expect(expired.renewalPrice != nil)
    }

    @Test func autoRenewOffKeepsTheRenewalDateAndPrice() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.monthly).transaction
        let expiry = try #require(bought.terms?.expirationDate)
        _ = try await fixture.service.store.perform(.setAutoRenew(bought.id, false))
        let off = try await renewalInfo(fixture)
        #expect(off.renewalDate == expiry.epochMilliseconds)
        #expect(off.renewalPrice == 4990)
        #expect(off.expirationIntent == nil)
        fixture.clock.advance(by: expiry.timeIntervalSince(fixture.clock.now()) + 1)
        let expired = try await renewalInfo(fixture)
        #expect(expired.renewalDate == expiry.epochMilliseconds)
        #expect(expired.renewalPrice == 4990)
        #expect(expired.expirationIntent == 1)
    }
}
