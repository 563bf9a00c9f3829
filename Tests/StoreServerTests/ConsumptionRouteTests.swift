import Foundation
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing

/// Send Consumption Information refuses, as Apple's does, what does not fit the product or the
/// delivery status the body gives.
@Suite struct ConsumptionRouteTests {
    static let v1Body =
        #"{"customerConsented":true,"consumptionStatus":0,"platform":0,"sampleContentProvided":false,"deliveryStatus":0,"accountTenure":0,"playTime":0,"lifetimeDollarsRefunded":0,"lifetimeDollarsPurchased":0,"userStatus":0,"appAccountToken":""}"#

    static func v2Body(delivery: String, percentage: Int?) -> String {
        let share = percentage.map { #","consumptionPercentage":\#($0)"# } ?? ""
        return #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"\#(delivery)"\#(share)}"#
    }

    func send(_ client: some TestClientProtocol, _ version: Int, _ id: String, _ body: String, token: String)
        async throws -> (HTTPResponse.Status, Int?)
    {
        let answer = try await client.api(
            .put, "/inApps/v\(version)/transactions/consumption/\(id)", token: token, json: body)
        let code = answer.status == .accepted ? nil : try json(answer)["errorCode"] as? Int
        return (answer.status, code)
    }

    /// An auto-renewable subscription takes no percentage at all, not even 0 (4000209); without
    /// one, its consumption information is taken.
    @Test func anAutoRenewableSubscriptionTakesNoPercentage() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let monthly = try await fixture.buy(ServerFixture.monthly).transaction.id
        let token = try bearer.make()
        try await fixture.test { client in
            for percentage in [0, 25_000] {
                let (status, code) = try await send(
                    client, 2, monthly, Self.v2Body(delivery: "DELIVERED", percentage: percentage), token: token)
                #expect(status == .badRequest && code == 4_000_209, "\(percentage)")
            }
            let (status, _) = try await send(
                client, 2, monthly, Self.v2Body(delivery: "DELIVERED", percentage: nil), token: token)
            #expect(status == .accepted)
        }
    }

    /// What was not delivered was not consumed: a percentage other than 0 is refused then.
    @Test func anUndeliveredPurchaseTakesOnlyAZeroPercentage() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let gems = try await fixture.buy(ServerFixture.gems).transaction.id
        let token = try bearer.make()
        try await fixture.test { client in
            let refused = try await send(
                client, 2, gems, Self.v2Body(delivery: "UNDELIVERED_QUALITY_ISSUE", percentage: 10_000), token: token)
            #expect(refused == (.badRequest, 4_000_000))
            for (delivery, percentage) in [("UNDELIVERED_QUALITY_ISSUE", 0), ("DELIVERED", 10_000)] {
                let (status, _) = try await send(
                    client, 2, gems, Self.v2Body(delivery: delivery, percentage: percentage), token: token)
                #expect(status == .accepted, "\(delivery) \(percentage)")
            }
        }
    }

    /// Version 1 takes consumables and auto-renewable subscriptions only (4000047 otherwise);
    /// version 2 takes every type.
    @Test func versionOneTakesConsumablesAndAutoRenewablesOnly() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let gems = try await fixture.buy(ServerFixture.gems).transaction.id
        let monthly = try await fixture.buy(ServerFixture.monthly).transaction.id
        let ads = try await fixture.buy(ServerFixture.removeAds).transaction.id
        let pass = try await fixture.buy("com.example.storefront.pass.season").transaction.id
        let token = try bearer.make()
        try await fixture.test { client in
            for id in [gems, monthly] {
                let (status, _) = try await send(client, 1, id, Self.v1Body, token: token)
                #expect(status == .accepted, "\(id)")
            }
            for id in [ads, pass] {
                let refused = try await send(client, 1, id, Self.v1Body, token: token)
                #expect(refused == (.badRequest, 4_000_047), "\(id)")
                let (status, _) = try await send(
                    client, 2, id, Self.v2Body(delivery: "DELIVERED", percentage: 50_000), token: token)
                #expect(status == .accepted, "\(id)")
            }
        }
    }

    /// A refund preference Apple does not define is its InvalidRefundPreferenceError (4000044), in
    /// version 2's words and version 1's numbers alike.
    @Test func anUnknownRefundPreferenceIsApplesOwnError() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let gems = try await fixture.buy(ServerFixture.gems).transaction.id
        let token = try bearer.make()
        try await fixture.test { client in
            let v2 =
                Self.v2Body(delivery: "DELIVERED", percentage: nil).dropLast() + #","refundPreference":"GRANT_SOME"}"#
            let refusedV2 = try await send(client, 2, gems, String(v2), token: token)
            #expect(refusedV2 == (.badRequest, 4_000_044))
            let v1 = Self.v1Body.dropLast() + #","refundPreference":7}"#
            let refusedV1 = try await send(client, 1, gems, String(v1), token: token)
            #expect(refusedV1 == (.badRequest, 4_000_044))
        }
    }

    /// A prorated refund of what the app delivers is prorated by what was consumed: GRANT_PRORATED
    /// needs a percentage above 0 and below 100000, except for an auto-renewable subscription,
    /// whose share the App Store works out from the time left.
    @Test func aProratedRefundPreferenceNeedsAShareConsumed() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let gems = try await fixture.buy(ServerFixture.gems).transaction.id
        let monthly = try await fixture.buy(ServerFixture.monthly).transaction.id
        let token = try bearer.make()
        try await fixture.test { client in
            for percentage in [nil, 0, 100_000] {
                let refused = try await send(client, 2, gems, Self.prorated(percentage), token: token)
                #expect(refused == (.badRequest, 4_000_000), "\(percentage.map(String.init) ?? "none")")
            }
            #expect(try await send(client, 2, gems, Self.prorated(25_000), token: token).0 == .accepted)
            #expect(try await send(client, 2, monthly, Self.prorated(nil), token: token).0 == .accepted)
        }
    }

    /// A delivered purchase's body asking for a prorated refund, with `percentage` consumed.
    static func prorated(_ percentage: Int?) -> String {
        String(v2Body(delivery: "DELIVERED", percentage: percentage).dropLast())
            + #","refundPreference":"GRANT_PRORATED"}"#
    }
}
